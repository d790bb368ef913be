// «Новый секретный чат»: while the dialog is open this device is registered (so it can create), friends are
// ticked (one: a direct secret chat; several: a group with «Название»), and «Создать» makes the MLS group and the
// chat. A friend without a device stops the creation and is named. Once made, the chat opens (`chats.open`).
import { assign, enqueueActions, setup } from 'xstate';
import { failureOf } from '../../../contract/failure';
import { LIMITS } from '../../../contract/limits';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  SECRET_CREATE_FAILED,
  type SecretDialogContext,
  type SecretDialogEffects,
  type SecretDialogEmitted,
  type SecretDialogEvent,
  type SecretDialogInput,
} from './secretDialog.protocol';

export * from './secretDialog.protocol';

const errorText = (e: unknown) =>
  e instanceof Error && e.name === 'SecretCryptoError'
    ? e.message
    : (failureOf(e).serverMessage ?? SECRET_CREATE_FAILED);

export const secretDialogMachine = setup({
  types: {
    context: {} as SecretDialogContext,
    events: {} as SecretDialogEvent,
    input: {} as SecretDialogInput,
    emitted: {} as SecretDialogEmitted,
  },
  actors: {
    prepare: notWired('secretDialog.prepare') as SecretDialogEffects['prepare'],
    create: notWired('secretDialog.create') as SecretDialogEffects['create'],
  },
  guards: {
    canCreate: ({ context }) => context.selected.length > 0 && context.selected.length < LIMITS.secretMembersMax,
  },
}).createMachine({
  id: 'secretDialog',
  context: ({ input }) => ({ ...input, title: '', selected: [], noDevice: [], error: null }),
  initial: 'preparing',
  on: {
    'secretDialog.toggle': {
      actions: assign({
        selected: ({ context, event }) =>
          context.selected.includes(event.userId)
            ? context.selected.filter((id) => id !== event.userId)
            : [...context.selected, event.userId],
        noDevice: [],
        error: null,
      }),
    },
    'secretDialog.titleChanged': { actions: assign({ title: ({ event }) => event.title }) },
  },
  states: {
    preparing: {
      tags: ['preparing'],
      invoke: {
        id: 'prepare',
        src: 'prepare',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: 'editing',
        onError: { target: 'editing', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    editing: {
      on: {
        'secretDialog.create': [
          { guard: 'canCreate', target: 'creating' },
          { actions: assign({ error: 'Выберите хотя бы одного друга' }) },
        ],
      },
    },
    creating: {
      tags: ['busy'],
      entry: assign({ error: null, noDevice: [] }),
      invoke: {
        id: 'create',
        src: 'create',
        input: ({ context }) => ({
          userId: context.userId,
          memberIds: context.selected,
          // A title only for a group (a direct chat has none).
          title: context.selected.length > 1 ? context.title.trim() || null : null,
        }),
        onDone: [
          {
            guard: ({ event }) => event.output.conversationId === null,
            target: 'editing',
            actions: assign({ noDevice: ({ event }) => event.output.noDevice ?? [] }),
          },
          {
            target: 'created',
            actions: enqueueActions(({ enqueue, event, system }) => {
              const conversationId = event.output.conversationId;
              if (!conversationId) return;
              const chats = chatsInbox(system);
              // The list fetched at once: what reads it (search over this device's secret chats) knows the chat.
              if (chats) enqueue.sendTo(chats, { type: 'chats.refresh' });
              if (chats) enqueue.sendTo(chats, { type: 'chats.open', conversationId, secret: true });
              enqueue.emit({ type: 'secretDialog.created', conversationId });
            }),
          },
        ],
        onError: { target: 'editing', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    created: { tags: ['created'] },
  },
});
