// The session (docs/behaviour.md §3 Session, §4 Session, §7 Token refresh): sign-in, registration, token
// refresh, sign-out. It starts from what storage held, so a reload stays signed in. Storage writes happen outside
// the machine (the composition root persists every snapshot); every token change is emitted as `session.token`.
// Every `session.refresh` is answered by a `session.refreshed` emit: the outcome of the refresh it started, of
// the one already in flight, or null at once when there is no session to refresh. Only the server's refusal of the
// refresh token ends the session; a refresh nobody answered (a restart, no connection) keeps it and everything
// stored, and is tried again with growing pauses while the requesters wait (§7 Token refresh). The tabs of one
// browser share the sign-in: a rotation another tab stored is taken over, and answers a refresh waiting here.
import { type ActorRefFrom, assertEvent, assign, type EventObject, emit, enqueueActions, log, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import { failureMessage, failureOf } from '../../../contract/failure';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import { present } from '../../shared/present';
import { systemActor } from '../../shared/system';
import {
  PASSKEY_STEP_FAILED,
  REFRESH_RETRY_STEPS,
  REFRESH_TIMEOUT_MS,
  refreshRetryDelay,
  refusesRefresh,
  REGISTER_FAILED,
  SECOND_FACTOR_FAILED,
  type SessionContext,
  type SessionEffects,
  type SessionEmitted,
  type SessionEvent,
  type SessionInput,
  SIGN_IN_FAILED,
} from './session.protocol';

export * from './session.protocol';

type ErrorEvent = EventObject & { error: unknown };

/**
 * How either second step (a code, a passkey) ends: signed in, back to the password when the challenge ran out, or
 * back to the step with what went wrong. The two invokes differ only in their effect, its input and this fallback.
 */
const secondStepOutcome = (fallback: string) => {
  const said = ({ event }: { event: { error: unknown } }) => failureMessage(event.error, fallback);
  return {
    onDone: {
      target: '#session.signedIn',
      actions: [
        {
          type: 'adoptSignIn',
          params: ({ event }: { event: { output: ResponseOf<'loginSecondFactor'> } }) => event.output,
        },
        assign<SessionContext, EventObject, undefined, SessionEvent, never>({ challenge: null }),
      ],
    },
    onError: [
      // Too late (the challenge lasts five minutes): the password again, with the server's word for it.
      {
        guard: 'challengeExpired',
        target: 'idle',
        actions: assign<SessionContext, ErrorEvent, undefined, SessionEvent, never>({
          challenge: null,
          signInError: said,
        }),
      },
      // Otherwise said under the step, which may be tried again.
      {
        target: 'secondFactor',
        actions: assign<SessionContext, ErrorEvent, undefined, SessionEvent, never>({ secondFactorError: said }),
      },
    ],
  } as const;
};

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput | undefined,
    emitted: {} as SessionEmitted,
  },
  actors: {
    login: notWired('session.login') as SessionEffects['login'],
    loginSecondFactor: notWired('session.loginSecondFactor') as SessionEffects['loginSecondFactor'],
    passkeySecondFactor: notWired('session.passkeySecondFactor') as SessionEffects['passkeySecondFactor'],
    register: notWired('session.register') as SessionEffects['register'],
    refresh: notWired('session.refresh') as SessionEffects['refresh'],
    logout: notWired('session.logout') as SessionEffects['logout'],
    fetchMe: notWired('session.fetchMe') as SessionEffects['fetchMe'],
    storedElsewhere: notWiredCallback('session.storedElsewhere') as SessionEffects['storedElsewhere'],
  },
  guards: {
    /** The challenge ran out (401): back to the password. */
    challengeExpired: ({ event }) => 'error' in event && failureOf(event.error).status === 401,
    hasSession: ({ context }) => context.session !== null,
    ownUser: ({ context, event }) => event.type === 'session.userUpdated' && context.session?.user.id === event.user.id,
    refused: ({ event }) => 'error' in event && refusesRefresh(failureOf(event.error).status),
    /** Another tab rotated this sign-in's tokens. */
    rotatedElsewhere: ({ context, event }) =>
      event.type === 'session.stored' &&
      event.session !== null &&
      event.session.user.id === context.session?.user.id &&
      event.session.refreshToken !== context.session.refreshToken,
  },
  delays: {
    // Jittered, so that the tabs a restart left waiting do not all come back at once.
    refreshRetry: ({ context }) => refreshRetryDelay(context.refreshFailures, Math.random()),
    refreshTimeout: REFRESH_TIMEOUT_MS,
  },
  actions: {
    /** The tokens and user of a finished sign-in (after the password, or after the second step). */
    adoptSignIn: assign((_, output: ResponseOf<'loginSecondFactor'>) => {
      return {
        session: { user: output.user, accessToken: output.accessToken, refreshToken: output.refreshToken },
        registeredUsername: null,
        rememberOrigin: true,
        twoFactorSetup: output.twoFactorSetup === true,
      };
    }),
    queueSignOut: enqueueActions(({ system, enqueue }) => {
      const queue = systemActor(system, 'signOutQueue');
      if (queue) enqueue.sendTo(queue, { type: 'signOut.queued' });
    }),
    // Whoever needs the token (the realtime actor) listens for this and reads the snapshot when it starts.
    announceToken: emit(({ context }) => ({
      type: 'session.token' as const,
      accessToken: context.session?.accessToken ?? null,
    })),
    clearSession: assign({ session: null, refreshFailures: 0 }),
    countFailure: assign({
      refreshFailures: ({ context }) => Math.min(context.refreshFailures + 1, REFRESH_RETRY_STEPS),
    }),
    answerRefreshNone: emit({ type: 'session.refreshed' as const, accessToken: null }),
    adoptStored: assign({
      session: ({ context, event }) => {
        assertEvent(event, 'session.stored');
        const stored = present(event.session, 'stored session');
        return {
          ...present(context.session, 'session'),
          accessToken: stored.accessToken,
          refreshToken: stored.refreshToken,
        };
      },
      refreshFailures: 0,
    }),
    answerRefreshed: emit(({ context }) => ({
      type: 'session.refreshed' as const,
      accessToken: present(context.session, 'session').accessToken,
    })),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    session: input?.stored ?? null,
    signInError: null,
    registerError: null,
    registeredUsername: null,
    rememberOrigin: true,
    refreshFailures: 0,
    challenge: null,
    secondFactorError: null,
    secondFactorMethods: { totp: true, passkey: false },
    twoFactorSetup: false,
  }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasSession', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      entry: 'announceToken',
      on: { 'session.refresh': { actions: 'answerRefreshNone' } },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.signIn': { target: 'signingIn', actions: assign({ signInError: null, registerError: null }) },
            'session.register': { target: 'registering', actions: assign({ signInError: null, registerError: null }) },
            'session.clearErrors': { actions: assign({ signInError: null, registerError: null }) },
            'session.adopt': {
              target: '#session.signedIn',
              actions: assign({
                session: ({ event }) => ({
                  user: event.signIn.user,
                  accessToken: event.signIn.accessToken,
                  refreshToken: event.signIn.refreshToken,
                }),
                signInError: null,
                registeredUsername: null,
                rememberOrigin: true,
              }),
            },
          },
        },
        signingIn: {
          tags: ['busy', 'signingIn'],
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event }) => {
              assertEvent(event, 'session.signIn');
              return { username: event.username, password: event.password };
            },
            onDone: [
              // A right password of an account with a second factor: its step next, no session yet.
              {
                guard: ({ event }) => 'secondFactor' in event.output,
                target: 'secondFactor',
                actions: assign({
                  challenge: ({ event }) =>
                    'secondFactor' in event.output ? event.output.secondFactor.challenge : null,
                  secondFactorMethods: ({ event }) =>
                    'secondFactor' in event.output
                      ? { totp: event.output.secondFactor.totp, passkey: event.output.secondFactor.passkey }
                      : { totp: true, passkey: false },
                  secondFactorError: null,
                }),
              },
              {
                target: '#session.signedIn',
                actions: {
                  type: 'adoptSignIn',
                  params: ({ event }) => present('user' in event.output ? event.output : null, 'signed-in answer'),
                },
              },
            ],
            // Any failure reads the same, so the form does not reveal which names exist; except a refusal of the
            // account itself (403: deactivated by an administrator), whose message the server gives.
            onError: {
              target: 'idle',
              actions: assign({
                signInError: ({ event }) => {
                  const f = failureOf(event.error);
                  return f.status === 403 && f.serverMessage ? f.serverMessage : SIGN_IN_FAILED;
                },
              }),
            },
          },
        },
        secondFactor: {
          tags: ['secondFactor'],
          on: {
            'session.secondFactor': { target: 'verifyingSecondFactor', actions: assign({ secondFactorError: null }) },
            'session.passkeySecondFactor': { target: 'verifyingPasskey', actions: assign({ secondFactorError: null }) },
            'session.cancelSecondFactor': {
              target: 'idle',
              actions: assign({ challenge: null, secondFactorError: null }),
            },
          },
        },
        verifyingSecondFactor: {
          tags: ['busy', 'secondFactor', 'signingIn'],
          invoke: {
            id: 'loginSecondFactor',
            src: 'loginSecondFactor',
            input: ({ context, event }) => {
              assertEvent(event, 'session.secondFactor');
              return { challenge: present(context.challenge, 'challenge'), code: event.code, remember: event.remember };
            },
            // Too late (the challenge lasts five minutes), a wrong code, a spent recovery code, the lock.
            ...secondStepOutcome(SECOND_FACTOR_FAILED),
          },
        },
        verifyingPasskey: {
          tags: ['busy', 'secondFactor', 'signingIn'],
          invoke: {
            id: 'passkeySecondFactor',
            src: 'passkeySecondFactor',
            input: ({ context, event }) => {
              assertEvent(event, 'session.passkeySecondFactor');
              return { challenge: present(context.challenge, 'challenge'), remember: event.remember };
            },
            // Too late, a refused passkey, the browser's prompt closed.
            ...secondStepOutcome(PASSKEY_STEP_FAILED),
          },
        },
        registering: {
          tags: ['busy', 'registering'],
          invoke: {
            id: 'register',
            src: 'register',
            input: ({ event }) => {
              assertEvent(event, 'session.register');
              const { username, displayName, password, inviteCode } = event;
              return inviteCode ? { username, displayName, password, inviteCode } : { username, displayName, password };
            },
            onDone: {
              target: 'idle',
              actions: [
                assign({ registeredUsername: ({ event }) => event.output.user.username }),
                emit(({ event }) => ({ type: 'session.registered' as const, username: event.output.user.username })),
              ],
            },
            onError: {
              target: 'idle',
              actions: assign({ registerError: ({ event }) => failureMessage(event.error, REGISTER_FAILED) }),
            },
          },
        },
      },
    },
    signedIn: {
      entry: 'announceToken',
      on: {
        'session.ended': {
          target: '#session.signedOut',
          // A request still waiting for a refresh gets its answer: there is nothing left to refresh.
          actions: [
            'clearSession',
            'answerRefreshNone',
            assign({ signInError: ({ event }) => event.message, rememberOrigin: false }),
          ],
        },
        // Whatever this tab was doing with its tokens, the other tab's are the live ones: a refresh waiting for an
        // answer (or for the server to come back) gets them.
        'session.stored': {
          guard: 'rotatedElsewhere',
          target: '.active',
          actions: ['adoptStored', 'announceToken', 'answerRefreshed'],
        },
        'session.twoFactorEnabled': { actions: assign({ twoFactorSetup: false }) },
        'session.userUpdated': {
          guard: 'ownUser',
          actions: assign({
            session: ({ context, event }) => ({ ...present(context.session, 'session'), user: event.user }),
          }),
        },
      },
      invoke: [
        // The stored user may be stale after a reload: refetch it once per signed-in period.
        {
          id: 'me',
          src: 'fetchMe',
          onDone: {
            actions: assign({
              session: ({ context, event }) =>
                event.output && context.session ? { ...context.session, user: event.output.user } : context.session,
            }),
          },
          onError: { actions: log('session: could not refetch own info') },
        },
        { id: 'storedElsewhere', src: 'storedElsewhere' },
      ],
      initial: 'active',
      states: {
        active: {
          tags: ['signedIn'],
          on: {
            'session.refresh': 'refreshing',
            'session.signOut': 'signingOut',
          },
        },
        refreshing: {
          tags: ['signedIn'],
          invoke: {
            id: 'refresh',
            src: 'refresh',
            input: ({ context }) => {
              const session = present(context.session, 'session');
              return { userId: session.user.id, refreshToken: session.refreshToken };
            },
            onDone: {
              target: 'active',
              // Both tokens are replaced, the user is kept.
              actions: [
                assign({
                  session: ({ context, event }) => ({
                    ...present(context.session, 'session'),
                    accessToken: event.output.accessToken,
                    refreshToken: event.output.refreshToken,
                  }),
                  refreshFailures: 0,
                }),
                'announceToken',
                emit(({ event }) => ({ type: 'session.refreshed' as const, accessToken: event.output.accessToken })),
              ],
            },
            onError: [
              // The server refused the refresh token (401: the sign-in expired or was ended): the session ends, and
              // the sign-in screen says why.
              {
                guard: 'refused',
                target: '#session.signedOut',
                actions: [
                  'clearSession',
                  'answerRefreshNone',
                  assign({ signInError: ({ event }) => failureOf(event.error).serverMessage }),
                ],
              },
              // No answer (a restart, no connection, a 5xx): nothing is lost; the requesters wait for the next try.
              { target: 'retrying', actions: 'countFailure' },
            ],
          },
          // An answer that never comes (a network that swallows the request) counts as none; leaving stops the call.
          after: { refreshTimeout: { target: 'retrying', actions: 'countFailure' } },
          // A request arriving now is answered by the outcome of the refresh in flight (see onDone/onError).
          on: { 'session.signOut': { target: 'signingOut', actions: 'answerRefreshNone' } },
        },
        retrying: {
          tags: ['signedIn'],
          after: { refreshRetry: 'refreshing' },
          on: {
            // Asked again meanwhile: whoever asks just heard from the server (a 401, a refused handshake), so it is
            // back; try now. The waiting requesters are answered by that try.
            'session.refresh': 'refreshing',
            'session.signOut': { target: 'signingOut', actions: 'answerRefreshNone' },
          },
        },
        signingOut: {
          // Signing out counts as signed out at once, so the screen leaves the app while the logout call runs.
          tags: ['busy'],
          // This tab's own sign-out closes its socket too (`session:closed`): that is no news for the sign-in screen.
          // Nor does another tab's rotation bring it back.
          on: {
            'session.refresh': { actions: 'answerRefreshNone' },
            'session.ended': { actions: [] },
            'session.stored': { actions: [] },
          },
          // Revoking the refresh token is best effort: the local session ends either way.
          invoke: {
            id: 'logout',
            src: 'logout',
            input: ({ context }) => ({ refreshToken: present(context.session, 'session').refreshToken }),
            onDone: { target: '#session.signedOut', actions: ['clearSession', assign({ rememberOrigin: false })] },
            // No answer: the token waits in storage (the logout service put it there) for the signOutQueue.
            onError: {
              target: '#session.signedOut',
              actions: ['clearSession', assign({ rememberOrigin: false }), 'queueSignOut'],
            },
          },
        },
      },
    },
  },
});

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;
