// The «Обсуждения» entry's actor (protocol: followedThreads.protocol.ts): loads the followed threads, loads them
// again on a refresh (a refresh during a load starts it again), keeps the last list through a failure.
import { assign, setup } from 'xstate';
import { listenToServer } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import {
  FOLLOWED_TAGS,
  type FollowedThreadsContext,
  type FollowedThreadsEffects,
  type FollowedThreadsEvent,
} from './followedThreads.protocol';

export * from './followedThreads.protocol';

export const followedThreadsServerEvents = listenToServer<FollowedThreadsEvent>(
  {
    'thread:reply': () => ({ type: 'threads.refresh' }),
    'thread:read': () => ({ type: 'threads.refresh' }),
    // Removed from a group: its threads are gone from the list.
    'conversation:removed': () => ({ type: 'threads.refresh' }),
  },
  { onConnected: () => ({ type: 'threads.refresh' }) },
);

export const followedThreadsMachine = setup({
  types: { context: {} as FollowedThreadsContext, events: {} as FollowedThreadsEvent },
  actors: {
    serverEvents: followedThreadsServerEvents,
    load: notWired('followedThreads.load') as FollowedThreadsEffects['load'],
  },
}).createMachine({
  id: 'followedThreads',
  context: { threads: [], expanded: false },
  invoke: { id: 'serverEvents', src: 'serverEvents' },
  on: { 'threads.toggle': { actions: assign({ expanded: ({ context }) => !context.expanded }) } },
  initial: 'loading',
  states: {
    loading: {
      tags: [FOLLOWED_TAGS.loading],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: assign({ threads: ({ event }) => event.output.threads }) },
        onError: { target: 'failed' },
      },
      // A refresh while loading: what is loading may be older than it; start again.
      on: { 'threads.refresh': { target: 'loading', reenter: true } },
    },
    ready: { on: { 'threads.refresh': { target: 'loading' } } },
    failed: { tags: [FOLLOWED_TAGS.failed], on: { 'threads.refresh': { target: 'loading' } } },
  },
});
