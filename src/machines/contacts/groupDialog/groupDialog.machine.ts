// The group dialog 'Создать групповой чат' (docs/behaviour.md §2, §5; registry line 'groupDialog'): an optional title
// and friends to tick; 'Создать' does nothing until someone is ticked, then creates the group, hands it to the
// chats actor (`chats.open`) and closes. The chats list hears about it from conversations:new like every member.
// It lives while the dialog is open: its owner (the chats footer) starts it on opening and it finishes on closing.
import { assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  CREATE_FAILED,
  type GroupDialogContext,
  type GroupDialogEffects,
  type GroupDialogEmitted,
  type GroupDialogEvent,
} from './groupDialog.protocol';

export * from './groupDialog.protocol';

const initialContext = (): GroupDialogContext => ({ title: '', selected: [], error: null });

export const groupDialogMachine = setup({
  types: {
    context: {} as GroupDialogContext,
    events: {} as GroupDialogEvent,
    emitted: {} as GroupDialogEmitted,
  },
  actors: {
    createGroup: notWired('groupDialog.createGroup') as GroupDialogEffects['createGroup'],
  },
  guards: {
    someoneTicked: ({ context }) => context.selected.length > 0,
  },
}).createMachine({
  id: 'groupDialog',
  context: initialContext,
  initial: 'open',
  states: {
    closed: { type: 'final' },
    open: {
      tags: ['open'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            'group.toggle': {
              actions: assign({
                selected: ({ context, event }) =>
                  context.selected.includes(event.userId)
                    ? context.selected.filter((id) => id !== event.userId)
                    : [...context.selected, event.userId],
                error: null,
              }),
            },
            'group.titleChanged': { actions: assign({ title: ({ event }) => event.title }) },
            'group.create': { guard: 'someoneTicked', target: 'creating', actions: assign({ error: null }) },
            'group.close': { target: '#groupDialog.closed' },
          },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'createGroup',
            src: 'createGroup',
            input: ({ context }) => ({
              participantIds: context.selected,
              title: context.title.trim() || null,
              // One friend and no title is the direct chat with them (the server opens it, or creates it once).
              isGroup: context.selected.length > 1 || context.title.trim() !== '',
            }),
            onDone: {
              target: '#groupDialog.closed',
              actions: [
                enqueueActions(({ event, system, enqueue }) => {
                  const conversationId = event.output.conversation.id;
                  const chats = chatsInbox(system);
                  if (chats) enqueue.sendTo(chats, { type: 'chats.open', conversationId });
                  enqueue.emit({ type: 'group.created', conversationId });
                }),
              ],
            },
            onError: {
              target: 'editing',
              actions: assign({ error: ({ event }) => failureMessage(event.error, CREATE_FAILED) }),
            },
          },
        },
      },
    },
  },
});

export type GroupDialogActorRef = import('xstate').ActorRefFrom<typeof groupDialogMachine>;
