// The tabs of one browser take turns refreshing their shared sign-in: one rotation for all of them, never a rotated
// token presented again (which the server takes for theft and answers by ending the sign-in).
import { describe, expect, it } from 'vitest';
import { user } from '../../../tests/fixtures/session';
import { RequestFailure } from '../../contract/failure';
import type { Session } from '../../contract/entities';
import { refreshInTurn } from './shared-refresh';

const locks = globalThis.navigator?.locks ?? null;

/** A stand-in for the server's rotation: each token is good once; presenting it again is refused. */
function rotatingServer() {
  const used = new Set<string>();
  let n = 0;
  const calls: string[] = [];
  return {
    calls,
    refresh: async (refreshToken: string) => {
      calls.push(refreshToken);
      await new Promise((r) => setImmediate(r)); // the answer takes a turn of the event loop, as a request does
      if (used.has(refreshToken)) throw new RequestFailure(401, 'Сессия истекла, войдите снова');
      used.add(refreshToken);
      n++;
      return { accessToken: `a${n}`, refreshToken: `r${n}` };
    },
  };
}

/** localStorage as the tabs share it. */
function sharedStorage(initial: Session | null) {
  let value = initial;
  return {
    load: () => value,
    save: (s: Session) => {
      value = s;
    },
    current: () => value,
  };
}

describe.skipIf(!locks)('refreshInTurn', () => {
  it('two tabs refreshing the same token at once: one rotation, both get its tokens, storage holds them', async () => {
    const server = rotatingServer();
    const storage = sharedStorage({ user, accessToken: 'a0', refreshToken: 'r0' });
    const tab = () => refreshInTurn({ refresh: server.refresh, load: storage.load, save: storage.save, locks });
    const [first, second] = await Promise.all([
      tab()({ userId: user.id, refreshToken: 'r0' }),
      tab()({ userId: user.id, refreshToken: 'r0' }),
    ]);
    expect(server.calls).toEqual(['r0']);
    expect(first).toEqual({ accessToken: 'a1', refreshToken: 'r1' });
    expect(second).toEqual(first);
    expect(storage.current()).toEqual({ user, accessToken: 'a1', refreshToken: 'r1' });
    // The next refresh presents the rotated token, which the server takes.
    expect(await tab()({ userId: user.id, refreshToken: 'r1' })).toEqual({ accessToken: 'a2', refreshToken: 'r2' });
  });

  it("a refusal reaches the caller; another user's stored session is neither taken nor overwritten", async () => {
    const server = rotatingServer();
    const other: Session = { user: { ...user, id: 'u2' }, accessToken: 'b0', refreshToken: 'q0' };
    const storage = sharedStorage(other);
    const refresh = refreshInTurn({ refresh: server.refresh, load: storage.load, save: storage.save, locks });
    expect(await refresh({ userId: user.id, refreshToken: 'r0' })).toEqual({ accessToken: 'a1', refreshToken: 'r1' });
    expect(storage.current()).toBe(other);
    await expect(refresh({ userId: user.id, refreshToken: 'r0' })).rejects.toMatchObject({ status: 401 });
  });

  it('a tab that gives up (its signal) leaves the line without asking the server', async () => {
    const server = rotatingServer();
    const storage = sharedStorage({ user, accessToken: 'a0', refreshToken: 'r0' });
    const refresh = refreshInTurn({ refresh: server.refresh, load: storage.load, save: storage.save, locks });
    let release!: () => void;
    const held = locks!.request('beseda.refresh', () => new Promise<void>((r) => (release = r)));
    const stop = new AbortController();
    const waiting = refresh({ userId: user.id, refreshToken: 'r0' }, stop.signal);
    stop.abort();
    await expect(waiting).rejects.toThrow();
    release();
    await held;
    expect(server.calls).toEqual([]);
  });
});
