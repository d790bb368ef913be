// The session feature's effects: sign-in and refresh, the offline store, and the sign-outs made offline (the socket
// and the ping are the realtime feature's: src/services/realtime/realtime.effects.ts).
import { fromCallback, fromPromise } from 'xstate';
import type { BodyOf, ResponseOf } from '../../contract/api';
import { RequestFailure } from '../../contract/failure';
import {
  type OfflineStoreEffects,
  offlineStoreMachine,
} from '../../machines/session/offlineStore/offlineStore.machine';
import { refreshInTurn } from './shared-refresh';
import { type SessionEffects, sessionMachine } from '../../machines/session/session/session.machine';
import {
  type SignOutQueueEffects,
  signOutQueueMachine,
} from '../../machines/session/signOutQueue/signOutQueue.machine';
import type { Services } from '../app/services';

export function wireSession(s: Services) {
  const refresh = refreshInTurn({
    refresh: (token, signal) => s.authApi.refresh(token, signal),
    load: () => s.sessionStore.load(),
    save: (session) => s.sessionStore.save(session),
    locks: typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null,
  });
  return sessionMachine.provide({
    actors: {
      login: fromPromise(({ input }: { input: BodyOf<'login'> }) => s.authApi.login(input)),
      loginSecondFactor: fromPromise(({ input }: { input: BodyOf<'loginSecondFactor'> }) =>
        s.authApi.loginSecondFactor(input),
      ),
      passkeySecondFactor: fromPromise(({ input }: { input: { challenge: string; remember: boolean } }) =>
        s.passkeys.signIn(input),
      ),
      register: fromPromise(({ input }: { input: BodyOf<'register'> }) => s.authApi.register(input)),
      // Stopped (a timeout, a sign-out, another tab's tokens), the actor gives up its turn or aborts its request.
      refresh: fromPromise(
        ({ input, signal }: { input: { userId: string; refreshToken: string }; signal: AbortSignal }) =>
          refresh(input, signal),
      ),
      storedElsewhere: fromCallback(({ sendBack }) =>
        s.sessionStore.watch((session) => sendBack({ type: 'session.stored', session })),
      ),
      // A sign-out that gets no answer is finished later by the signOutQueue: its token waits in storage.
      logout: fromPromise<unknown, { refreshToken: string }>(async ({ input }) => {
        try {
          return await s.authApi.logout(input.refreshToken);
        } catch (error) {
          const status = error instanceof RequestFailure ? error.status : null;
          if (status === null || status >= 500) s.pendingSignOuts.add(input.refreshToken);
          throw error;
        }
      }),
      fetchMe: fromPromise<ResponseOf<'me'> | null>(() => s.api.call('me')),
    } satisfies SessionEffects,
  });
}

export const wireSignOutQueue = (s: Services) =>
  signOutQueueMachine.provide({
    actors: {
      loadPending: fromPromise(async () => s.pendingSignOuts.load()),
      revoke: fromPromise<unknown, { token: string }>(async ({ input }) => {
        try {
          await s.authApi.logout(input.token);
        } catch (error) {
          const status = error instanceof RequestFailure ? error.status : null;
          // No answer: it stays for the next try. Anything else: the server will never take it.
          if (status === null || status >= 500) throw error;
        }
        s.pendingSignOuts.remove(input.token);
      }),
    } satisfies SignOutQueueEffects,
  });

export const wireOfflineStore = (s: Services) =>
  offlineStoreMachine.provide({
    actors: {
      clear: fromPromise<unknown, { userId: string }>(({ input }) => s.offline.clear(input.userId)),
      forget: fromPromise<unknown, { userId: string; conversationId: string; messageId: string }>(({ input }) =>
        s.offline.forgetMessage(input.userId, input.conversationId, input.messageId),
      ),
      catchUp: fromPromise<unknown, { userId: string }>(async ({ input }) => {
        let since = await s.offline.deletionsCheckedAt(input.userId);
        // A few pages at most each time; the rest comes the next time the server answers again.
        for (let page = 0; page < 10; page++) {
          const answer = await s.api.call('deletedMessages', { query: since ? { since } : {} });
          for (const d of answer.deleted) await s.offline.forgetMessage(input.userId, d.conversationId, d.id);
          const moved = answer.until !== since;
          since = answer.until;
          await s.offline.setDeletionsCheckedAt(input.userId, since);
          if (!answer.more || !moved) break;
        }
      }),
    } satisfies OfflineStoreEffects,
  });
