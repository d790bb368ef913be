// Local storage of the session, so it survives a reload (docs/behaviour.md §3: user, accessToken, refreshToken).
import { z } from 'zod';
import { User } from '../contract/entities';

export const StoredSession = z.object({ user: User, accessToken: z.string(), refreshToken: z.string() });
export type Session = z.infer<typeof StoredSession>;

const KEY = 'beseda.session';

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled by the browser: the session then lasts one page view
  }
}

export function loadSession(): Session | null {
  const raw = store()?.getItem(KEY);
  if (!raw) return null;
  try {
    const parsed = StoredSession.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  const s = store();
  if (!s) return;
  if (session) s.setItem(KEY, JSON.stringify(session));
  else s.removeItem(KEY);
}
