// The first screen's GET requests, started before the app's code has arrived. The build loads this module as its
// own small script ahead of the main bundle (vite.config.ts, earlyRequestsScript): on a signed-in load it asks for
// the user, the conversation list and the contacts while the bundle still downloads, and src/services/app/api.ts takes
// each answer once instead of asking again. On a phone the bundle takes about a second to arrive and start, so
// the list is there when the app first renders instead of a round trip later.
//
// It imports nothing the app also imports, so the browser fetches no shared chunk before running it; the storage
// key and the paths are the app's own (src/services/app/early-requests.test.ts keeps them equal).

/** localStorage key of the stored session (src/services/session/storage.ts). */
export const SESSION_KEY = 'beseda.session';
/** The requests the signed-in first screen makes, as the API client spells them (path and query, no base). */
export const EARLY_GETS = ['/status/me', '/conversations', '/contacts?filter=all'] as const;
/** An answer not taken by then is dropped: later requests must see later data. */
export const EARLY_ANSWER_TTL_MS = 10_000;

interface Early {
  token: string;
  startedAt: number;
  /** By absolute URL, so the API client finds them whatever form of base address it was given. */
  answers: Map<string, Promise<unknown>>;
}

let early: Early | null = null;

/** The stored access token, or null when nothing usable is stored. */
function storedToken(): string | null {
  try {
    const raw = globalThis.localStorage?.getItem(SESSION_KEY);
    const token: unknown = raw ? (JSON.parse(raw) as { accessToken?: unknown }).accessToken : null;
    return typeof token === 'string' && token ? token : null;
  } catch {
    return null; // storage disabled or a hand-edited value: the app's own path decides
  }
}

/** Starts the requests (once) against `base` (e.g. '/api', resolved against `page`); an answer that is not OK JSON resolves undefined. */
export function startEarlyRequests(base: string, page: string, now = Date.now()): void {
  const token = storedToken();
  if (early || !token || typeof fetch !== 'function') return;
  const answers = new Map<string, Promise<unknown>>();
  for (const path of EARLY_GETS) {
    const url = new URL(base + path, page).href;
    const answer = fetch(url, { headers: { Authorization: `Bearer ${token}` }, credentials: 'include' })
      .then((r) => (r.ok ? r.json() : undefined))
      .catch(() => undefined);
    answers.set(url, answer);
  }
  early = { token, startedAt: now, answers };
}

/**
 * The early answer for the absolute `url` asked with `token`, once; null when there is none (not started, another
 * token, already taken, too old). It resolves undefined when that answer failed: ask again then.
 */
export function takeEarlyAnswer(url: string, token: string | null, now = Date.now()): Promise<unknown> | null {
  if (!early || token !== early.token) return null;
  if (now - early.startedAt > EARLY_ANSWER_TTL_MS) {
    early = null;
    return null;
  }
  const answer = early.answers.get(url);
  if (!answer) return null;
  early.answers.delete(url);
  return answer;
}

/** Whether this load started the signed-in first screen's requests (a session is stored). */
export function earlyRequestsStarted(): boolean {
  return early !== null;
}

/** Forgets everything started (tests). */
export function resetEarlyRequests(): void {
  early = null;
}

// As the page's script in a production build: '/api' on the page's origin is where a build the API server serves
// itself talks to (src/services/app/endpoints.ts); a build configured with another API address (VITE_API_URL) skips
// the head start rather than guess.
if (typeof location !== 'undefined' && import.meta.env?.PROD && !import.meta.env.VITE_API_URL) {
  startEarlyRequests('/api', location.href);
}
