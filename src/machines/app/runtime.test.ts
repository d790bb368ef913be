// @vitest-environment jsdom
// The composition root: the API client wired to the session actor (concurrent 401s share one refresh; a refused
// refresh signs out and clears storage, one that gets no answer keeps both and the request waits for the retry),
// and services replaced one at a time without losing the others' real wiring.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestFailure } from '../../contract/failure';
import { REFRESH_RETRY } from '../session/session/session.protocol';
import { appEffects } from '../../services/app/app-effects';
import { createRuntime } from './runtime';
import { quietSocket, storedSession } from '../../../tests/fixtures/session';

function runtimeWith(refresh: () => Promise<{ accessToken: string; refreshToken: string }>) {
  let refreshes = 0;
  const runtime = createRuntime({
    effects: appEffects,
    stored: storedSession,
    baseURL: '/api',
    services: {
      authApi: {
        refresh: async () => {
          refreshes++;
          return refresh();
        },
      },
      connectSocket: () => quietSocket(),
      ping: () => new Promise(() => {}),
    },
  });
  return { runtime, refreshes: () => refreshes };
}

const seenAuth: string[] = [];
function serverAccepting(token: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: unknown, init: RequestInit = {}) => {
      const auth = new Headers(init.headers).get('authorization') ?? '';
      // The contacts actor fetches ?filter=all by itself at sign-in: count only this test's own requests.
      if (String(url).endsWith('/contacts?filter=accepted')) seenAuth.push(auth);
      const ok = auth === `Bearer ${token}`;
      const body = String(url).endsWith('/status/me') ? { user: storedSession.user } : { contacts: [] };
      return new Response(JSON.stringify(ok ? body : { message: 'Требуется вход' }), {
        status: ok ? 200 : 401,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  seenAuth.length = 0;
  localStorage.clear();
});

describe('runtime: api ↔ session', () => {
  it('three requests failing with 401 together cause one refresh, then each is repeated with the new token', async () => {
    serverAccepting('a1');
    const { runtime, refreshes } = runtimeWith(async () => ({ accessToken: 'a1', refreshToken: 'r1' }));
    const results = await Promise.all(
      [1, 2, 3].map(() => runtime.services.api.call('contacts', { query: { filter: 'accepted' } })),
    );
    expect(results).toEqual([{ contacts: [] }, { contacts: [] }, { contacts: [] }]);
    expect(refreshes()).toBe(1);
    expect(seenAuth.filter((a) => a === 'Bearer a1')).toHaveLength(3);
    const session = runtime.app.getSnapshot().context.session.getSnapshot().context.session;
    expect(session).toMatchObject({ accessToken: 'a1', refreshToken: 'r1', user: storedSession.user });
    expect(JSON.parse(localStorage.getItem('beseda.session')!).refreshToken).toBe('r1');
  });

  it('a refused refresh (401) rejects the request and clears the session and its storage', async () => {
    serverAccepting('never');
    const { runtime } = runtimeWith(async () =>
      Promise.reject(new RequestFailure(401, 'Сессия истекла, войдите снова')),
    );
    await expect(runtime.services.api.call('me')).rejects.toThrow();
    const session = runtime.app.getSnapshot().context.session.getSnapshot();
    expect(session.matches('signedOut')).toBe(true);
    expect(session.context.session).toBeNull();
    expect(localStorage.getItem('beseda.session')).toBeNull();
  });

  it('a refresh with no answer keeps the session and its storage; the request goes through once the server is back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    serverAccepting('a1');
    const answers: (() => Promise<{ accessToken: string; refreshToken: string }>)[] = [
      async () => Promise.reject(new RequestFailure(503, 'Service Unavailable')),
      async () => Promise.reject(new RequestFailure(null, null)),
      async () => ({ accessToken: 'a1', refreshToken: 'r1' }),
    ];
    // The session the runtime starts from is the stored one.
    localStorage.setItem('beseda.session', JSON.stringify(storedSession));
    const { runtime, refreshes } = runtimeWith(() => (answers.shift() as () => Promise<never>)());
    const request = runtime.services.api.call('contacts', { query: { filter: 'accepted' } });
    await vi.waitFor(() => expect(refreshes()).toBe(1));
    const session = runtime.app.getSnapshot().context.session;
    await vi.waitFor(() => expect(session.getSnapshot().context.refreshFailures).toBe(1));
    expect(session.getSnapshot().context.session).toEqual(storedSession);
    expect(JSON.parse(localStorage.getItem('beseda.session')!)).toEqual(storedSession);
    // The second try comes within 1 s of the first failure, the third within 2 s of the second.
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY.firstMs);
    expect(refreshes()).toBe(2);
    expect(JSON.parse(localStorage.getItem('beseda.session')!)).toEqual(storedSession);
    await vi.advanceTimersByTimeAsync(2 * REFRESH_RETRY.firstMs);
    expect(refreshes()).toBe(3);
    expect(await request).toEqual({ contacts: [] });
    expect(JSON.parse(localStorage.getItem('beseda.session')!).refreshToken).toBe('r1');
  });

  it('a profile update keeps the tokens another tab stored meanwhile: only the user is written over them', async () => {
    serverAccepting('a0');
    localStorage.setItem('beseda.session', JSON.stringify(storedSession));
    const { runtime } = runtimeWith(async () => ({ accessToken: 'a1', refreshToken: 'r1' }));
    const session = runtime.app.getSnapshot().context.session;
    // Another tab rotates the sign-in and stores it; this tab has not heard of it yet (the storage event is on its way).
    localStorage.setItem('beseda.session', JSON.stringify({ ...storedSession, accessToken: 'a9', refreshToken: 'r9' }));
    session.send({ type: 'session.userUpdated', user: { ...storedSession.user, displayName: 'Анна Н.' } });
    const stored = JSON.parse(localStorage.getItem('beseda.session')!);
    expect(stored).toMatchObject({ accessToken: 'a9', refreshToken: 'r9' });
    expect(stored.user.displayName).toBe('Анна Н.');
    // Asked to refresh, this tab takes the stored tokens rather than present its rotated one.
    session.send({ type: 'session.refresh' });
    await vi.waitFor(() => expect(session.getSnapshot().context.session?.refreshToken).toBe('r9'));
    expect(JSON.parse(localStorage.getItem('beseda.session')!).refreshToken).toBe('r9');
  });

  it('replacing one service keeps every other service real: the restored session refetches /status/me', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: unknown, init: RequestInit = {}) => {
        urls.push(`${init.method ?? 'GET'} ${String(url)} ${new Headers(init.headers).get('authorization')}`);
        const body = { user: { ...storedSession.user, displayName: 'Анна К.' } };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    // Only the socket and the ping are replaced; the API client and the session's fetchMe are the real ones.
    const runtime = createRuntime({
      effects: appEffects,
      stored: storedSession,
      baseURL: '/api',
      services: { connectSocket: () => quietSocket(), ping: () => new Promise(() => {}) },
    });
    const session = runtime.app.getSnapshot().context.session;
    await vi.waitFor(() => expect(session.getSnapshot().context.session?.user.displayName).toBe('Анна К.'));
    expect(urls).toContain('GET /api/status/me Bearer a0');
  });
});
