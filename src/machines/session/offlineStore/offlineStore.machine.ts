// Offline reading (docs/notifications.md, "Offline reading"; systemId 'offlineStore'). The list and history fetches keep what the
// server answered in IndexedDB and, when no answer comes, answer from it (src/services/chats/chats.effects.ts); the chats
// actor reports which it was. From that this actor knows whether the page shows saved data: then the view shows
// the banner and sends nothing (tag 'readOnly') until the server answers again. A message deleted for everyone
// leaves the store as the server announces it, and each time the server answers again after sign-in or an outage
// the store catches up on the deletions it could not hear. Signing out deletes the user's stored data.
import { assertEvent, assign, setup, spawnChild } from 'xstate';
import { notWired } from '../../shared/not-wired';
import { present } from '../../shared/present';
import { listenToServer } from '../../realtime/index';
import { watchSignedInUser } from '../session/watch-signed-in-user';
import type { OfflineStoreContext, OfflineStoreEffects, OfflineStoreEvent } from './offlineStore.protocol';

export * from './offlineStore.protocol';

export const offlineStoreMachine = setup({
  types: { context: {} as OfflineStoreContext, events: {} as OfflineStoreEvent },
  actors: {
    session: watchSignedInUser('offline.signedIn', 'offline.signedOut'),
    clear: notWired('offlineStore.clear') as OfflineStoreEffects['clear'],
    forget: notWired('offlineStore.forget') as OfflineStoreEffects['forget'],
    catchUp: notWired('offlineStore.catchUp') as OfflineStoreEffects['catchUp'],
    server: listenToServer<OfflineStoreEvent>({
      'message:deleted': (p) => ({
        type: 'offline.messageDeleted',
        conversationId: p.conversationId,
        messageId: p.messageId,
      }),
    }),
  },
  guards: {
    reachable: ({ event }) => {
      assertEvent(event, 'offline.listFetched');
      return event.reachable;
    },
    unreachable: ({ event }) => {
      assertEvent(event, 'offline.listFetched');
      return !event.reachable;
    },
    nextUser: ({ context }) => context.pendingUserId !== null,
  },
  actions: {
    rememberUser: assign({
      userId: ({ event }) => {
        assertEvent(event, 'offline.signedIn');
        return event.userId;
      },
    }),
    rememberNext: assign({
      pendingUserId: ({ event }) => {
        assertEvent(event, 'offline.signedIn');
        return event.userId;
      },
    }),
    takeNext: assign(({ context }) => ({ userId: context.pendingUserId, pendingUserId: null })),
  },
}).createMachine({
  id: 'offlineStore',
  context: { userId: null, pendingUserId: null },
  invoke: { id: 'session', src: 'session' },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { 'offline.signedIn': { target: 'signedIn', actions: 'rememberUser' } },
    },
    signedIn: {
      invoke: { id: 'server', src: 'server' },
      on: {
        'offline.signedOut': 'clearing',
        'offline.messageDeleted': {
          actions: spawnChild('forget', {
            input: ({ context, event }) => {
              assertEvent(event, 'offline.messageDeleted');
              return {
                userId: present(context.userId, 'userId'),
                conversationId: event.conversationId,
                messageId: event.messageId,
              };
            },
          }),
        },
      },
      initial: 'checking',
      states: {
        /** Nothing answered yet since sign-in. */
        checking: {
          on: { 'offline.listFetched': [{ guard: 'reachable', target: 'live' }, { target: 'saved' }] },
        },
        live: {
          invoke: {
            id: 'catchUp',
            src: 'catchUp',
            input: ({ context }) => ({ userId: present(context.userId, 'userId') }),
            // Not caught up this time: the next time the server answers again, it is asked from the same point.
            onError: { actions: [] },
          },
          on: { 'offline.listFetched': { guard: 'unreachable', target: 'saved' } },
        },
        saved: {
          tags: ['saved', 'readOnly'],
          on: { 'offline.listFetched': { guard: 'reachable', target: 'live' } },
        },
      },
    },
    clearing: {
      invoke: {
        id: 'clear',
        src: 'clear',
        input: ({ context }) => ({ userId: present(context.userId, 'userId') }),
        onDone: [
          { guard: 'nextUser', target: 'signedIn', actions: 'takeNext' },
          { target: 'signedOut', actions: assign({ userId: null }) },
        ],
        // Storage refused: nothing more can be done here; the next sign-in of that user overwrites it.
        onError: [
          { guard: 'nextUser', target: 'signedIn', actions: 'takeNext' },
          { target: 'signedOut', actions: assign({ userId: null }) },
        ],
      },
      // Another user signing in meanwhile comes in once the previous one's data is gone.
      on: { 'offline.signedIn': { actions: 'rememberNext' } },
    },
  },
});
