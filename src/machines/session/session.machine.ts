// The session (spec points 3, 4, 7): sign-in, registration, token refresh, sign-out.
// It starts from what storage held, so a reload stays signed in. Storage writes happen outside the machine
// (the runtime persists every snapshot); the realtime actor hears about tokens through the system.
import { assign, type EventObject, emit, enqueueActions, fromPromise, log, setup } from 'xstate';
import type { BodyOf, ResponseOf } from '../../contract/api';
import { serverMessage } from '../../services/api';
import { authApi } from '../../services/auth-api';
import type { Session } from '../../services/storage';

export const SIGN_IN_FAILED = 'Неверные данные';
export const REGISTER_FAILED = 'Ошибка регистрации';

export interface SessionContext {
  session: Session | null;
  signInError: string | null;
  registerError: string | null;
  /** The username just registered, to prefill the sign-in form. */
  registeredUsername: string | null;
}

export type SessionEvent =
  | { type: 'session.signIn'; username: string; password: string }
  | { type: 'session.register'; username: string; displayName: string; password: string }
  | { type: 'session.refresh' }
  | { type: 'session.signOut' }
  | { type: 'session.clearErrors' };

export type SessionEmitted = { type: 'session.registered'; username: string };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { stored?: Session | null } | undefined,
    emitted: {} as SessionEmitted,
  },
  actors: {
    login: fromPromise<ResponseOf<'login'>, BodyOf<'login'>>(({ input }) => authApi.login(input)),
    register: fromPromise<ResponseOf<'register'>, BodyOf<'register'>>(({ input }) => authApi.register(input)),
    refresh: fromPromise<ResponseOf<'refresh'>, { refreshToken: string }>(({ input }) =>
      authApi.refresh(input.refreshToken),
    ),
    logout: fromPromise<unknown, { refreshToken: string }>(({ input }) => authApi.logout(input.refreshToken)),
    // Own info (GET /status/me) through the authenticated client; the runtime provides it, since that client
    // itself refreshes through this machine. Without it there is nothing to refetch.
    fetchMe: fromPromise<ResponseOf<'me'> | null>(async () => null),
  },
  guards: {
    hasSession: ({ context }) => context.session !== null,
  },
  actions: {
    // Tell the realtime actor (by systemId) about the current token; absent in isolated tests.
    announceToken: enqueueActions(({ context, system, enqueue }) => {
      const realtime = system.get('realtime');
      if (!realtime) return;
      const token = context.session?.accessToken;
      const event: { type: string; token?: string } = token ? { type: 'realtime.token', token } : { type: 'realtime.stop' };
      enqueue.sendTo(realtime, event as EventObject);
    }),
    clearSession: assign({ session: null }),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    session: input?.stored ?? null,
    signInError: null,
    registerError: null,
    registeredUsername: null,
  }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasSession', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      entry: 'announceToken',
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.signIn': { target: 'signingIn', actions: assign({ signInError: null, registerError: null }) },
            'session.register': { target: 'registering', actions: assign({ signInError: null, registerError: null }) },
            'session.clearErrors': { actions: assign({ signInError: null, registerError: null }) },
          },
        },
        signingIn: {
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event }) => {
              const e = event as Extract<SessionEvent, { type: 'session.signIn' }>;
              return { username: e.username, password: e.password };
            },
            onDone: {
              target: '#session.signedIn',
              actions: assign({
                session: ({ event }) => ({
                  user: event.output.user,
                  accessToken: event.output.accessToken,
                  refreshToken: event.output.refreshToken,
                }),
                registeredUsername: null,
              }),
            },
            // Any failure reads the same, so the form does not reveal which names exist.
            onError: { target: 'idle', actions: assign({ signInError: SIGN_IN_FAILED }) },
          },
        },
        registering: {
          invoke: {
            id: 'register',
            src: 'register',
            input: ({ event }) => {
              const e = event as Extract<SessionEvent, { type: 'session.register' }>;
              return { username: e.username, displayName: e.displayName, password: e.password };
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
              actions: assign({ registerError: ({ event }) => serverMessage(event.error) ?? REGISTER_FAILED }),
            },
          },
        },
      },
    },
    signedIn: {
      entry: 'announceToken',
      // The stored user may be stale after a reload: refetch it once per signed-in period.
      invoke: {
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
      initial: 'active',
      states: {
        active: {
          on: {
            'session.refresh': 'refreshing',
            'session.signOut': 'signingOut',
          },
        },
        refreshing: {
          invoke: {
            id: 'refresh',
            src: 'refresh',
            input: ({ context }) => ({ refreshToken: context.session!.refreshToken }),
            onDone: {
              target: 'active',
              // Both tokens are replaced, the user is kept.
              actions: [
                assign({
                  session: ({ context, event }) => ({
                    ...context.session!,
                    accessToken: event.output.accessToken,
                    refreshToken: event.output.refreshToken,
                  }),
                }),
                'announceToken',
              ],
            },
            onError: { target: '#session.signedOut', actions: 'clearSession' },
          },
          on: { 'session.signOut': 'signingOut' },
        },
        signingOut: {
          // Revoking the refresh token is best effort: the local session ends either way.
          invoke: {
            id: 'logout',
            src: 'logout',
            input: ({ context }) => ({ refreshToken: context.session!.refreshToken }),
            onDone: { target: '#session.signedOut', actions: 'clearSession' },
            onError: { target: '#session.signedOut', actions: 'clearSession' },
          },
        },
      },
    },
  },
});
