// The API client wired to the session actor: concurrent 401s share one refresh; a failed refresh signs out.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, fromPromise } from 'xstate';
import { appMachine } from '../../src/machines/app/app.machine';
import { connectivityMachine } from '../../src/machines/connectivity/connectivity.machine';
import { realtimeMachine } from '../../src/machines/realtime/realtime.machine';
import { sessionMachine } from '../../src/machines/session/session.machine';
import { createRuntime } from '../../src/ui/runtime';
import { storedSession } from './render-app';

function runtimeWith(refresh: () => Promise<unknown>) {
  let refreshes = 0;
  const machine = appMachine.provide({
    actors: {
      session: sessionMachine.provide({
        actors: {
          refresh: fromPromise(async () => {
            refreshes++;
            return refresh();
          }) as never,
          fetchMe: fromPromise(async () => null) as never,
        },
      }),
      realtime: realtimeMachine.provide({ actors: { socket: fromCallback(() => () => {}) as never } }),
      connectivity: connectivityMachine.provide({ actors: { ping: fromPromise(() => new Promise(() => {})) as never } }),
    },
  });
  const runtime = createRuntime({ machine, stored: storedSession, baseURL: '/api' });
  return { runtime, refreshes: () => refreshes };
}

const seenAuth: string[] = [];
function serverAccepting(token: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_: unknown, init: RequestInit = {}) => {
      const auth = new Headers(init.headers).get('authorization') ?? '';
      seenAuth.push(auth);
      const ok = auth === `Bearer ${token}`;
      return new Response(JSON.stringify(ok ? { contacts: [] } : { message: 'Требуется вход' }), {
        status: ok ? 200 : 401,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  seenAuth.length = 0;
  localStorage.clear();
});

describe('runtime: api ↔ session', () => {
  it('three requests failing with 401 together cause one refresh, then each is repeated with the new token', async () => {
    serverAccepting('a1');
    const { runtime, refreshes } = runtimeWith(async () => ({ accessToken: 'a1', refreshToken: 'r1' }));
    const results = await Promise.all([1, 2, 3].map(() => runtime.api.call('contacts', { query: { filter: 'all' } })));
    expect(results).toEqual([{ contacts: [] }, { contacts: [] }, { contacts: [] }]);
    expect(refreshes()).toBe(1);
    expect(seenAuth.filter((a) => a === 'Bearer a1')).toHaveLength(3);
    const session = runtime.app.getSnapshot().context.session.getSnapshot().context.session;
    expect(session).toMatchObject({ accessToken: 'a1', refreshToken: 'r1', user: storedSession.user });
    expect(JSON.parse(localStorage.getItem('beseda.session')!).refreshToken).toBe('r1');
  });

  it('a failed refresh rejects the request and clears the session', async () => {
    serverAccepting('never');
    const { runtime } = runtimeWith(async () => Promise.reject(new Error('revoked')));
    await expect(runtime.api.call('me')).rejects.toThrow();
    const session = runtime.app.getSnapshot().context.session.getSnapshot();
    expect(session.matches('signedOut')).toBe(true);
    expect(session.context.session).toBeNull();
    expect(localStorage.getItem('beseda.session')).toBeNull();
  });
});
