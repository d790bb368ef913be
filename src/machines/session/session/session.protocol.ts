// The session actor's protocol (systemId 'session'): what it accepts, what it emits, its input. Peers import this
// module, never session.machine.ts.
import type { Session } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { CallbackActorLogic, EventObject, PromiseActorLogic } from 'xstate';

export const SIGN_IN_FAILED = 'Неверные данные';
/** The second step's refusal when the server gives no message of its own (no connection). */
export const SECOND_FACTOR_FAILED = 'Не удалось проверить код';
/** The passkey's second step failed without the server's word (the browser's prompt closed, no connection). */
export const PASSKEY_STEP_FAILED = 'Не удалось проверить ключ доступа. Попробуйте ещё раз';
export const REGISTER_FAILED = 'Ошибка регистрации';
/**
 * The sign-in screen's notice after this sign-in was ended elsewhere (signed out on another device, «Завершить» in
 * «Устройства», an administrator ending the account's sessions): `session:closed` with reason `logout`.
 */
export const SESSION_ENDED_ELSEWHERE = 'Сеанс завершён на другом устройстве или администратором. Войдите снова.';

/**
 * A refresh that got no answer (no connection, a 5xx, no answer within REFRESH_TIMEOUT_MS: docs/behaviour.md §7
 * Token refresh) is tried again after a pause that starts at `firstMs` and doubles up to `maxMs`; each pause is
 * between half and all of its step, so the tabs of a restarted server do not all come back in the same instant.
 * The longest step is short, as socket.io's own reconnection (at most 5 s apart): after an outage of any length a
 * page is back within seconds of the server, not a long pause later (a try costs one small request).
 */
export const REFRESH_RETRY = { firstMs: 1_000, maxMs: 5_000 } as const;
/** Past this a refresh counts as unanswered and is abandoned; longer than the server's own limits on a request. */
export const REFRESH_TIMEOUT_MS = 60_000;
/** Unanswered refreshes counted in a row: from this many on the pause stays at its longest. */
export const REFRESH_RETRY_STEPS = Math.ceil(Math.log2(REFRESH_RETRY.maxMs / REFRESH_RETRY.firstMs)) + 1;

/** The pause after the `failures`-th unanswered refresh in a row; `random` in [0, 1) picks its place in the step. */
export function refreshRetryDelay(failures: number, random: number): number {
  const step = Math.min(REFRESH_RETRY.maxMs, REFRESH_RETRY.firstMs * 2 ** (Math.max(1, failures) - 1));
  return Math.round(step / 2 + (random * step) / 2);
}

/**
 * Only the server's refusal of the refresh token ends the session: 401, which the refresh route answers for a token
 * unknown, expired, already used or of an ended sign-in. The route answers nothing else about the token, so any other
 * status (a 5xx, a proxy's 403 or 429), no answer or a timeout leaves the session and everything stored.
 */
export const refusesRefresh = (status: number | null): boolean => status === 401;

export interface SessionInput {
  stored?: Session | null;
}

export interface SessionContext {
  session: Session | null;
  signInError: string | null;
  registerError: string | null;
  /** The username just registered, to prefill the sign-in form. */
  registeredUsername: string | null;
  /**
   * Whether the sign-in screen should send the user back to the page they were on. False after the user signed
   * out on purpose (the next person to sign in lands on /), true otherwise (a first visit, an expired session).
   */
  rememberOrigin: boolean;
  /** Refreshes in a row that got no answer (at most REFRESH_RETRY_STEPS); 0 once one is answered. */
  refreshFailures: number;
  /** The right password was given and the account asks for a second factor: the server's challenge for it. */
  challenge: string | null;
  /** The second step's refusal (a wrong code, the lock), shown under the code. */
  secondFactorError: string | null;
  /** The ways the second step may be taken: a code from the app, a passkey (docs/behaviour.md §10.7b). */
  secondFactorMethods: { totp: boolean; passkey: boolean };
  /**
   * The server requires a second factor of this account, which has none: «Безопасность» is shown first, to set it
   * up (docs/behaviour.md §10.7a). Cleared once it is on.
   */
  twoFactorSetup: boolean;
}

export type SessionEvent =
  | { type: 'session.signIn'; username: string; password: string }
  /** The second step: six digits from the app or a recovery code; `remember`: «Запомнить этот браузер на 30 дней». */
  | { type: 'session.secondFactor'; code: string; remember: boolean }
  /** «Использовать ключ доступа» in the second step (docs/behaviour.md §10.7b). */
  | { type: 'session.passkeySecondFactor'; remember: boolean }
  /** «Назад» from the second step: the password form again. */
  | { type: 'session.cancelSecondFactor' }
  /** The second factor was just turned on (the required set-up is done). */
  | { type: 'session.twoFactorEnabled' }
  /** `inviteCode` while registration is «По приглашениям» (docs/administration.md). */
  | { type: 'session.register'; username: string; displayName: string; password: string; inviteCode?: string }
  /** Signed in another way than the form (the organisation's provider, oidcSignIn): the session keeps the tokens. */
  | { type: 'session.adopt'; signIn: { user: Session['user']; accessToken: string; refreshToken: string } }
  | { type: 'session.refresh' }
  | { type: 'session.signOut' }
  /** A fresher copy of the signed-in user (the profile actor after a fetch or a save). */
  | { type: 'session.userUpdated'; user: Session['user'] }
  /**
   * The server ended this sign-in (`session:closed`): an administrator deactivated the account (reason
   * `deactivated`, `message` «Аккаунт отключён администратором») or it was ended elsewhere (reason `logout`,
   * SESSION_ENDED_ELSEWHERE). Back to the sign-in screen, which shows `message`; ignored while signing out here.
   */
  | { type: 'session.ended'; message: string }
  /**
   * What another tab of this browser stored (its `storage` event). The tabs share one sign-in: when another tab
   * rotated its tokens, this one takes them over (presenting the old refresh token again would end the sign-in), and
   * a refresh this tab is waiting for is answered with them.
   */
  | { type: 'session.stored'; session: Session | null }
  | { type: 'session.clearErrors' };

export type SessionEmitted =
  | { type: 'session.registered'; username: string }
  /** The answer to every `session.refresh`: the new access token, or null when the session ended or there was none. */
  | { type: 'session.refreshed'; accessToken: string | null }
  /** The access token changed: signed in, refreshed (the new one), or signed out (null). */
  | { type: 'session.token'; accessToken: string | null };

export type SessionRef = MachineRef<SessionContext, SessionEvent, SessionEmitted>;

/**
 * The server could not be reached for new tokens and the session keeps trying (the layout says it is
 * reconnecting); requests that asked for a refresh wait for it meanwhile.
 */
export const selectReconnecting = (s: { context: SessionContext }): boolean =>
  s.context.session !== null && s.context.refreshFailures > 0;

/**
 * Asks the session for fresh tokens and waits for its answer (the session answers every request, sharing a
 * refresh already in flight, and keeps a caller waiting while the server cannot be reached). Resolves the new access
 * token, or null when there is no session or the server refused the refresh token.
 */
export function requestRefresh(session: SessionRef): Promise<string | null> {
  return new Promise((resolve) => {
    const sub = session.on('session.refreshed', (e) => {
      sub.unsubscribe();
      resolve(e.accessToken);
    });
    session.send({ type: 'session.refresh' });
  });
}

/** The machine's port: the effects it leaves to its feature's services (src/services/session/session.effects.ts). */
export interface SessionEffects {
  login: PromiseActorLogic<ResponseOf<'login'>, BodyOf<'login'>>;
  loginSecondFactor: PromiseActorLogic<ResponseOf<'loginSecondFactor'>, BodyOf<'loginSecondFactor'>>;
  /** The browser's passkey prompt for the account the challenge names, then POST /api/auth/passkeys/sign-in. */
  passkeySecondFactor: PromiseActorLogic<ResponseOf<'passkeySignIn'>, { challenge: string; remember: boolean }>;
  register: PromiseActorLogic<ResponseOf<'register'>, BodyOf<'register'>>;
  /** In turn with the other tabs of this browser, which share the sign-in (src/services/session/shared-refresh.ts). */
  refresh: PromiseActorLogic<ResponseOf<'refresh'>, { userId: string; refreshToken: string }>;
  logout: PromiseActorLogic<unknown, { refreshToken: string }>;
  // Own info (GET /status/me) through the authenticated client, which itself refreshes through this machine.
  fetchMe: PromiseActorLogic<ResponseOf<'me'> | null, unknown>;
  /** Sends `session.stored` whenever another tab of this browser stores the session. */
  storedElsewhere: CallbackActorLogic<EventObject, unknown>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    session: SessionRef;
  }
}
