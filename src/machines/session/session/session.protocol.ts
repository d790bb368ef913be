// The session actor's protocol (systemId 'session'): what it accepts, what it emits, its input. Peers import this
// module, never session.machine.ts.
import type { Session } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';

export const SIGN_IN_FAILED = 'Неверные данные';
export const REGISTER_FAILED = 'Ошибка регистрации';
/**
 * The sign-in screen's notice after this sign-in was ended elsewhere (signed out on another device, «Завершить» in
 * «Устройства», an administrator ending the account's sessions): `session:closed` with reason `logout`.
 */
export const SESSION_ENDED_ELSEWHERE = 'Сеанс завершён на другом устройстве или администратором. Войдите снова.';

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
}

export type SessionEvent =
  | { type: 'session.signIn'; username: string; password: string }
  /** `inviteCode` while registration is «По приглашениям» (docs/administration.md). */
  | { type: 'session.register'; username: string; displayName: string; password: string; inviteCode?: string }
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
  | { type: 'session.clearErrors' };

export type SessionEmitted =
  | { type: 'session.registered'; username: string }
  /** The answer to every `session.refresh`: the new access token, or null when refreshing was not possible. */
  | { type: 'session.refreshed'; accessToken: string | null }
  /** The access token changed: signed in, refreshed (the new one), or signed out (null). */
  | { type: 'session.token'; accessToken: string | null };

export type SessionRef = MachineRef<SessionContext, SessionEvent, SessionEmitted>;

/**
 * Asks the session for fresh tokens and waits for its answer (the session answers every request, sharing a
 * refresh already in flight). Resolves the new access token, or null when the session could not refresh.
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

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    session: SessionRef;
  }
}
