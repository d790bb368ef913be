import { afterEach, describe, expect, it, vi } from 'vitest';
import { failureOf, RequestFailure } from '../../contract/failure';
import { type AuthBridge, createApiClient } from './api';
import { holdUntilFirstPaint, releaseFirstPaint } from './first-paint';

const serverMessage = (err: unknown) => failureOf(err).serverMessage;

interface Seen {
  url: string;
  method: string;
  auth: string | null;
  credentials: RequestCredentials | undefined;
  body: unknown;
}

function fakeServer(handler: (req: Seen) => { status: number; body: unknown }) {
  const seen: Seen[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      const req: Seen = {
        url: String(input),
        method: init.method ?? 'GET',
        auth: headers.get('authorization'),
        credentials: init.credentials,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      seen.push(req);
      const { status, body } = handler(req);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return seen;
}

function bridge(tokens: { access: string | null; refresh: string | null }, renew: () => Promise<string | null>) {
  const calls = { refresh: 0 };
  const auth: AuthBridge = {
    accessToken: () => tokens.access,
    refreshToken: () => tokens.refresh,
    refresh: async () => {
      calls.refresh++;
      const t = await renew();
      tokens.access = t;
      return t;
    },
  };
  return { auth, calls };
}

const me = { user: { id: 'u1' } };
afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
  it('sends the bearer header, credentials and the body to base + path', async () => {
    const seen = fakeServer(() => ({ status: 200, body: { contacts: [] } }));
    const { auth } = bridge({ access: 'a1', refresh: 'r1' }, async () => null);
    const api = createApiClient({ baseURL: 'http://host/api', auth });
    await api.call('contacts', { query: { filter: 'incoming' } });
    await api.call('contactAdd', { body: { identifier: '1234' } });
    expect(seen[0]).toMatchObject({
      url: 'http://host/api/contacts?filter=incoming',
      method: 'GET',
      auth: 'Bearer a1',
      credentials: 'include',
    });
    expect(seen[1]).toMatchObject({
      url: 'http://host/api/contacts/add',
      method: 'POST',
      body: { identifier: '1234' },
    });
  });

  it('fills path parameters', async () => {
    const seen = fakeServer(() => ({ status: 200, body: { messages: [], hasMore: false } }));
    const api = createApiClient({ baseURL: '/api' });
    await api.call('messages', { params: { id: 'c 1' } });
    expect(seen[0].url).toBe('/api/conversations/c%201/messages');
  });

  it('after a 401 refreshes once and repeats the request once with the new token', async () => {
    const seen = fakeServer((req) =>
      req.auth === 'Bearer a2' ? { status: 200, body: me } : { status: 401, body: { message: 'no' } },
    );
    const { auth, calls } = bridge({ access: 'a1', refresh: 'r1' }, async () => 'a2');
    const api = createApiClient({ baseURL: '/api', auth });
    await expect(api.call('me')).resolves.toEqual(me);
    expect(calls.refresh).toBe(1);
    expect(seen.map((s) => s.auth)).toEqual(['Bearer a1', 'Bearer a2']);
  });

  it('repeats at most once: a second 401 is rejected', async () => {
    const seen = fakeServer(() => ({ status: 401, body: { message: 'Требуется вход' } }));
    const { auth, calls } = bridge({ access: 'a1', refresh: 'r1' }, async () => 'a2');
    const api = createApiClient({ baseURL: '/api', auth });
    const err = await api.call('me').catch((e) => e);
    expect(err).toBeInstanceOf(RequestFailure);
    expect(failureOf(err).status).toBe(401);
    expect(serverMessage(err)).toBe('Требуется вход');
    expect(calls.refresh).toBe(1);
    expect(seen).toHaveLength(2);
  });

  it('without a refresh token, or when refresh fails, rejects the original error', async () => {
    fakeServer(() => ({ status: 401, body: { message: 'original' } }));
    const none = bridge({ access: 'a1', refresh: null }, async () => 'a2');
    await expect(createApiClient({ baseURL: '/api', auth: none.auth }).call('me').catch(serverMessage)).resolves.toBe(
      'original',
    );
    expect(none.calls.refresh).toBe(0);
    const failing = bridge({ access: 'a1', refresh: 'r1' }, async () => null);
    await expect(
      createApiClient({ baseURL: '/api', auth: failing.auth }).call('me').catch(serverMessage),
    ).resolves.toBe('original');
    expect(failing.calls.refresh).toBe(1);
  });

  it('does not refresh after other errors, and never retries by itself', async () => {
    const seen = fakeServer(() => ({ status: 500, body: { message: 'boom' } }));
    const { auth, calls } = bridge({ access: 'a1', refresh: 'r1' }, async () => 'a2');
    await expect(createApiClient({ baseURL: '/api', auth }).call('me')).rejects.toThrow();
    expect(calls.refresh).toBe(0);
    expect(seen).toHaveLength(1);
  });

  it('a full disk’s 507 arrives with the server’s reason, as a failure worth retrying', async () => {
    fakeServer(() => ({
      status: 507,
      body: { statusCode: 507, message: 'На сервере закончилось место, повторите позже' },
    }));
    const { auth } = bridge({ access: 'a1', refresh: 'r1' }, async () => 'a2');
    const err = await createApiClient({ baseURL: '/api', auth })
      .call('send', { body: { conversationId: 'c1', content: 'Привет', clientMessageId: 'k1' } as never })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestFailure);
    expect(err).toMatchObject({ status: 507, serverMessage: 'На сервере закончилось место, повторите позже' });
    expect((err as RequestFailure).refused).toBe(false);
  });

  it('uses a token another request already refreshed instead of refreshing again', async () => {
    const tokens = { access: 'a1', refresh: 'r1' as string | null };
    let first = true;
    const seen = fakeServer(() => {
      if (first) {
        first = false;
        tokens.access = 'a2'; // a parallel request refreshed while this one was in flight
        return { status: 401, body: {} };
      }
      return { status: 200, body: me };
    });
    const { auth, calls } = bridge(tokens, async () => 'a3');
    await createApiClient({ baseURL: '/api', auth }).call('me');
    expect(calls.refresh).toBe(0);
    expect(seen.map((s) => s.auth)).toEqual(['Bearer a1', 'Bearer a2']);
  });
});

describe('api client on a load of the chat list', () => {
  afterEach(() => releaseFirstPaint());

  it('sends a token refresh at once, the other requests once the list has painted', async () => {
    const seen = fakeServer(() => ({ status: 200, body: { ok: true } }));
    const api = createApiClient({ baseURL: 'http://api.test/api' });
    holdUntilFirstPaint({ frame: () => {}, idle: () => {}, after: () => {} });
    const threads = api.call('followedThreads');
    await api.call('refresh', { body: { refreshToken: 'r' } });
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(['/api/auth/refresh']);
    releaseFirstPaint();
    await threads;
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(['/api/auth/refresh', '/api/threads']);
  });
});
