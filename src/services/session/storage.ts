// Local storage of the session, so it survives a reload (docs/behaviour.md §3: user, accessToken, refreshToken).
import type { Session } from '../../contract/entities';
import { type Check, isString, isUser, shape } from '../../contract/shape';

export type { Session };
/** What storage holds can be anything (a hand edit, an older format): only a whole session is used. */
const sessionFields = { user: isUser, accessToken: isString, refreshToken: isString } satisfies Record<
  keyof Session,
  Check
>;
const isSession = shape(sessionFields) as (x: unknown) => x is Session;

export const SESSION_STORAGE_KEY = 'beseda.session';

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled by the browser: the session then lasts one page view
  }
}

export function loadSession(): Session | null {
  const raw = store()?.getItem(SESSION_STORAGE_KEY);
  if (!raw) return null;
  try {
    const stored: unknown = JSON.parse(raw);
    return isSession(stored) ? stored : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  const s = store();
  if (!s) return;
  if (session) s.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  else s.removeItem(SESSION_STORAGE_KEY);
}

/**
 * Calls `onChange` with the stored session whenever another tab of this origin changes it (the browser's `storage`
 * event: a tab refreshed, signed out or in); returns the unsubscribe.
 */
export function watchSession(onChange: (session: Session | null) => void): () => void {
  if (typeof window === 'undefined') return () => {};
  const listener = (e: StorageEvent) => {
    if (e.key === SESSION_STORAGE_KEY || e.key === null) onChange(loadSession());
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
