// The «Статус» dialog (protocol: customStatus.protocol.ts). One request at a time; a refusal keeps what was typed and
// says why. Once saved or cleared the own record is handed to the profile actor, so the signed-in user shown
// everywhere follows at once (the server's profile:update tells the other tabs and everyone who sees the user).
import { assign, enqueueActions, setup } from 'xstate';
import { CUSTOM_STATUS_TEXT_MAX } from '../../../contract/custom-status';
import type { User } from '../../../contract/entities';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  CUSTOM_STATUS_TAGS,
  type CustomStatusContext,
  type CustomStatusEffects,
  type CustomStatusEvent,
  type CustomStatusInput,
  STATUS_CLEAR_FAILED,
  STATUS_EMPTY,
  STATUS_SAVE_FAILED,
} from './customStatus.protocol';

export * from './customStatus.protocol';

export const customStatusMachine = setup({
  types: {
    context: {} as CustomStatusContext,
    events: {} as CustomStatusEvent,
    input: {} as CustomStatusInput | undefined,
  },
  actors: {
    saveStatus: notWired('customStatus.saveStatus') as CustomStatusEffects['saveStatus'],
    clearStatus: notWired('customStatus.clearStatus') as CustomStatusEffects['clearStatus'],
  },
  guards: {
    filled: ({ context }) => context.emoji !== '' || context.text.trim() !== '',
    hasCurrent: ({ context }) => context.current !== null,
  },
  actions: {
    // The record the server answered with: the profile actor hands it on to the session.
    takeUser: enqueueActions(({ system, enqueue }, user: User) => {
      enqueue.assign({ current: user.customStatus ?? null });
      const profile = systemActor(system, 'profile');
      if (profile) enqueue.sendTo(profile, { type: 'profile.refetch' });
    }),
  },
}).createMachine({
  id: 'customStatus',
  context: ({ input }) => ({
    current: input?.current ?? null,
    emoji: input?.current?.emoji ?? '',
    text: input?.current?.text ?? '',
    clearAfter: 'today',
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        // The same emoji again takes it off: a status may be text alone.
        'customStatus.emojiChosen': {
          actions: assign({
            emoji: ({ context, event }) => (context.emoji === event.emoji ? '' : event.emoji),
            error: null,
          }),
        },
        'customStatus.textChanged': {
          actions: assign({ text: ({ event }) => event.text.slice(0, CUSTOM_STATUS_TEXT_MAX), error: null }),
        },
        'customStatus.clearAfterChosen': { actions: assign({ clearAfter: ({ event }) => event.clearAfter }) },
        'customStatus.save': [
          { guard: 'filled', target: 'saving', actions: assign({ error: null }) },
          { actions: assign({ error: STATUS_EMPTY }) },
        ],
        'customStatus.clear': { guard: 'hasCurrent', target: 'clearing', actions: assign({ error: null }) },
      },
    },
    saving: {
      tags: [CUSTOM_STATUS_TAGS.busy],
      invoke: {
        id: 'saveStatus',
        src: 'saveStatus',
        input: ({ context }) => ({ emoji: context.emoji, text: context.text.trim(), clearAfter: context.clearAfter }),
        onDone: { target: 'done', actions: { type: 'takeUser', params: ({ event }) => event.output } },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, STATUS_SAVE_FAILED) }),
        },
      },
    },
    clearing: {
      tags: [CUSTOM_STATUS_TAGS.busy],
      invoke: {
        id: 'clearStatus',
        src: 'clearStatus',
        onDone: { target: 'done', actions: { type: 'takeUser', params: ({ event }) => event.output } },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, STATUS_CLEAR_FAILED) }),
        },
      },
    },
    // Not final: the view closes the dialog on the tag, and the actor stops with it.
    done: { tags: [CUSTOM_STATUS_TAGS.done] },
  },
});
