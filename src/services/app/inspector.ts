// @statelyai/inspect in development only, when the URL has ?inspect. Tokens, passwords and message bodies are
// replaced before anything leaves the page (the inspector runs on stately.ai).
import type { InspectionEvent, Observer } from 'xstate';

const SECRET_KEYS = new Set([
  'accessToken',
  'refreshToken',
  'token',
  'password',
  'content',
  'message',
  // A guest's knock secret, a guest link's secret and key pair, call keys and sealed ones (guests in encrypted calls).
  'secret',
  'keys',
  'key',
  'callKey',
  'fragment',
  'sealed',
]);
export const REDACTED = '[скрыто]';

/** A deep copy with secret fields replaced; actor refs and other class instances are left as they are. */
export function sanitize<T>(value: T, seen = new WeakSet<object>()): T {
  if (Array.isArray(value)) return value.map((v) => sanitize(v, seen)) as T;
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  if (seen.has(value)) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      SECRET_KEYS.has(k) && (typeof v === 'string' || (v && typeof v === 'object')) ? REDACTED : sanitize(v, seen);
  }
  return out as T;
}

export function inspectorWanted(search: string, dev: boolean): boolean {
  return dev && new URLSearchParams(search).has('inspect');
}

export async function startInspector(): Promise<Observer<InspectionEvent> | undefined> {
  // The literal DEV check lets the production build drop the inspector chunk entirely.
  if (!import.meta.env.DEV) return undefined;
  if (!inspectorWanted(window.location.search, import.meta.env.DEV)) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  const inspector = createBrowserInspector({
    sanitizeEvent: (e) => sanitize(e),
    sanitizeContext: (c) => sanitize(c),
  });
  return inspector.inspect;
}
