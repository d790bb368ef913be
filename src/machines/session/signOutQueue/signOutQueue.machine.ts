// Completes sign-outs made offline (docs/notifications.md, "What the browser keeps"): the session ends on the device
// at once, and the refresh token of that sign-in waits here (and in localStorage, across reloads) until the server
// revokes it — at start, when the browser comes online, and every SIGN_OUT_RETRY_MS meanwhile. A token the server
// refuses is dead already and is dropped too. Nothing else of the user is kept.
import { assign, setup } from 'xstate';
import { RequestFailure } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { watchOnline } from '../../shared/watchers';
import {
  SIGN_OUT_RETRY_MS,
  type SignOutQueueContext,
  type SignOutQueueEffects,
  type SignOutQueueEvent,
} from './signOutQueue.protocol';

export * from './signOutQueue.protocol';

/** No answer came (offline, the server down): worth trying again. */
const noAnswer = (error: unknown) => !(error instanceof RequestFailure) || error.status === null || error.status >= 500;

export const signOutQueueMachine = setup({
  types: { context: {} as SignOutQueueContext, events: {} as SignOutQueueEvent },
  actors: {
    loadPending: notWired('signOutQueue.loadPending') as SignOutQueueEffects['loadPending'],
    revoke: notWired('signOutQueue.revoke') as SignOutQueueEffects['revoke'],
    watchOnline: watchOnline('signOut.online'),
  },
  guards: {
    hasTokens: ({ context }) => context.tokens.length > 0,
    noAnswer: ({ event }) => 'error' in event && noAnswer(event.error),
  },
  delays: { signOutRetry: SIGN_OUT_RETRY_MS },
}).createMachine({
  id: 'signOutQueue',
  context: { tokens: [] },
  invoke: { src: 'watchOnline' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadPending',
        onDone: { target: 'checking', actions: assign({ tokens: ({ event }) => event.output }) },
        onError: 'idle',
      },
    },
    checking: { always: [{ guard: 'hasTokens', target: 'revoking' }, { target: 'idle' }] },
    idle: { on: { 'signOut.queued': 'loading' } },
    revoking: {
      invoke: {
        src: 'revoke',
        input: ({ context }) => ({ token: context.tokens[0] as string }),
        onDone: { target: 'checking', actions: assign({ tokens: ({ context }) => context.tokens.slice(1) }) },
        onError: [
          { guard: 'noAnswer', target: 'waiting' },
          { target: 'checking', actions: assign({ tokens: ({ context }) => context.tokens.slice(1) }) },
        ],
      },
    },
    waiting: {
      after: { signOutRetry: 'loading' },
      on: { 'signOut.online': 'loading', 'signOut.queued': 'loading' },
    },
  },
});
