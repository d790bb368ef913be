// The directory's actor (protocol: directory.protocol.ts): loads people and open groups; a search loads them
// again (a newer search replaces the one under way); «Вступить» joins an open group and opens its chat.
import { assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  DIRECTORY_FAILED,
  DIRECTORY_TAGS,
  type DirectoryContext,
  type DirectoryEmitted,
  type DirectoryEffects,
  type DirectoryEvent,
  type DirectoryPage,
  JOIN_FAILED,
} from './directory.protocol';

export * from './directory.protocol';

export const directoryMachine = setup({
  types: {
    context: {} as DirectoryContext,
    events: {} as DirectoryEvent,
    emitted: {} as DirectoryEmitted,
  },
  // Typed by the port its feature's services implement.
  actors: {
    load: notWired('directory.load') as DirectoryEffects['load'],
    join: notWired('directory.join') as DirectoryEffects['join'],
  },
  guards: {
    off: (_, page: DirectoryPage) => page === null,
  },
  actions: {
    take: assign((_, page: DirectoryPage) => ({ users: page?.users ?? [], groups: page?.groups ?? [], error: null })),
    fail: assign((_, { error, fallback }: { error: unknown; fallback: string }) => ({
      error: failureMessage(error, fallback),
      joining: null,
    })),
    typed: assign({ q: ({ event }) => (event.type === 'directory.search' ? event.q : ''), error: null }),
  },
}).createMachine({
  id: 'directory',
  context: { q: '', users: [], groups: [], joining: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: [DIRECTORY_TAGS.busy],
      invoke: {
        id: 'firstLoad',
        src: 'load',
        input: ({ context }) => ({ q: context.q, first: true }),
        onDone: [
          { guard: { type: 'off', params: ({ event }) => event.output }, target: 'off' },
          { target: 'shown', actions: { type: 'take', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: DIRECTORY_FAILED }) },
        },
      },
    },
    off: { tags: [DIRECTORY_TAGS.off] },
    failed: {
      tags: [DIRECTORY_TAGS.failed],
      on: { 'directory.retry': { target: 'loading' } },
    },
    shown: {
      tags: [DIRECTORY_TAGS.shown],
      on: {
        'directory.search': { target: 'searching', actions: 'typed' },
        'directory.join': {
          target: 'joining',
          actions: assign({ joining: ({ event }) => event.conversationId, error: null }),
        },
      },
    },
    searching: {
      tags: [DIRECTORY_TAGS.shown, DIRECTORY_TAGS.busy],
      on: { 'directory.search': { target: 'searching', reenter: true, actions: 'typed' } },
      invoke: {
        id: 'search',
        src: 'load',
        input: ({ context }) => ({ q: context.q }),
        onDone: [
          // Turned off meanwhile: the lists go.
          { guard: { type: 'off', params: ({ event }) => event.output }, target: 'off' },
          { target: 'shown', actions: { type: 'take', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'shown',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: DIRECTORY_FAILED }) },
        },
      },
    },
    joining: {
      tags: [DIRECTORY_TAGS.shown, DIRECTORY_TAGS.busy],
      invoke: {
        id: 'join',
        src: 'join',
        input: ({ context }) => ({ conversationId: context.joining ?? '' }),
        onDone: {
          target: 'shown',
          actions: enqueueActions(({ context, event, system, enqueue }) => {
            const conversationId = event.output.conversation.id;
            enqueue.assign({
              joining: null,
              groups: context.groups.map((g) =>
                g.id === conversationId
                  ? { ...g, member: true, memberCount: event.output.conversation.participants.length }
                  : g,
              ),
            });
            const chats = chatsInbox(system);
            if (chats) enqueue.sendTo(chats, { type: 'chats.open', conversationId });
            enqueue.emit({ type: 'directory.joined', conversationId });
          }),
        },
        onError: {
          target: 'shown',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: JOIN_FAILED }) },
        },
      },
    },
  },
});
