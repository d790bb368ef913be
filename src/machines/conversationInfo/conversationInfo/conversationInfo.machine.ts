// The info panel's actor (protocol: conversationInfo.protocol.ts). Leaving and removing someone ask first; adding
// opens the friends picker; renaming an inline field. One request at a time; what the server answers shows through
// the chats list (conversation:updated), so the actor keeps no copy of the group.
import { assign, emit, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  ACTION_FAILED,
  type ConversationInfoContext,
  type ConversationInfoEffects,
  type ConversationInfoEmitted,
  type ConversationInfoEvent,
  type ConversationInfoInput,
  INFO_TAGS,
} from './conversationInfo.protocol';

export * from './conversationInfo.protocol';

export const conversationInfoMachine = setup({
  types: {
    context: {} as ConversationInfoContext,
    events: {} as ConversationInfoEvent,
    emitted: {} as ConversationInfoEmitted,
    input: {} as ConversationInfoInput,
  },
  actors: {
    groupAction: notWired('conversationInfo.groupAction') as ConversationInfoEffects['groupAction'],
  },
  guards: {
    someoneTicked: ({ context }) => context.selected.length > 0,
    titleTyped: ({ context }) => context.title.trim().length > 0,
    leaving: ({ context }) => context.pending?.kind === 'leave',
  },
  actions: {
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'conversationInfo',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    pending: null,
    selected: [],
    title: '',
    error: null,
  }),
  initial: 'viewing',
  states: {
    viewing: {
      on: {
        'info.addOpen': { target: 'adding', actions: assign({ selected: [], error: null }) },
        'info.renameOpen': {
          target: 'renaming',
          actions: assign({ title: ({ event }) => event.title, error: null }),
        },
        'info.role': {
          target: 'working',
          actions: assign({
            pending: ({ event }) => ({ kind: 'role', userId: event.userId, role: event.role }),
            error: null,
          }),
        },
        'info.remove': {
          target: 'confirming',
          actions: assign({ pending: ({ event }) => ({ kind: 'remove', userId: event.userId }), error: null }),
        },
        'info.leave': { target: 'confirming', actions: assign({ pending: { kind: 'leave' }, error: null }) },
        'info.setOpen': {
          target: 'working',
          actions: assign({ pending: ({ event }) => ({ kind: 'open', open: event.open }), error: null }),
        },
        'info.threads': {
          target: 'working',
          actions: assign({ pending: ({ event }) => ({ kind: 'threads', enabled: event.enabled }), error: null }),
        },
      },
    },
    adding: {
      tags: [INFO_TAGS.adding],
      on: {
        'info.toggle': {
          actions: assign({
            selected: ({ context, event }) =>
              context.selected.includes(event.userId)
                ? context.selected.filter((id) => id !== event.userId)
                : [...context.selected, event.userId],
          }),
        },
        'info.addConfirm': {
          guard: 'someoneTicked',
          target: 'working',
          actions: assign({ pending: ({ context }) => ({ kind: 'add', userIds: context.selected }) }),
        },
        'info.cancel': { target: 'viewing' },
      },
    },
    renaming: {
      tags: [INFO_TAGS.renaming],
      on: {
        'info.titleChanged': { actions: assign({ title: ({ event }) => event.title }) },
        'info.renameConfirm': {
          guard: 'titleTyped',
          target: 'working',
          actions: assign({ pending: ({ context }) => ({ kind: 'rename', title: context.title.trim() }) }),
        },
        'info.cancel': { target: 'viewing' },
      },
    },
    confirming: {
      tags: [INFO_TAGS.confirming],
      on: {
        'info.confirm': { target: 'working' },
        'info.cancel': { target: 'viewing', actions: assign({ pending: null }) },
      },
    },
    working: {
      tags: [INFO_TAGS.busy],
      invoke: {
        id: 'groupAction',
        src: 'groupAction',
        input: ({ context }) => ({
          conversationId: context.conversationId,
          action: context.pending ?? { kind: 'leave' },
        }),
        onDone: [
          {
            guard: 'leaving',
            target: 'left',
            actions: emit(({ context }) => ({ type: 'info.left', conversationId: context.conversationId })),
          },
          { target: 'viewing', actions: assign({ pending: null, selected: [], title: '' }) },
        ],
        onError: {
          target: 'viewing',
          actions: assign({ pending: null, error: ({ event }) => failureMessage(event.error, ACTION_FAILED) }),
        },
      },
    },
    left: { type: 'final' },
  },
});
