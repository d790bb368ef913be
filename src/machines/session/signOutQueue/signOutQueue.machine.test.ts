import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { SIGN_OUT_RETRY_MS, signOutQueueMachine } from './signOutQueue.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;
type Snap = { context: { tokens: string[] } };

describeModel({
  name: 'signOutQueue',
  machine: signOutQueueMachine.provide({ actors: { loadPending: hang, revoke: hang, watchOnline: silent } }),
  events: {
    'xstate.done.actor.0.signOutQueue.loading': (s) =>
      (s as Snap).context.tokens.length
        ? []
        : [
            { type: 'xstate.done.actor.0.signOutQueue.loading', output: ['t1'] },
            { type: 'xstate.done.actor.0.signOutQueue.loading', output: [] },
          ],
    'xstate.error.actor.0.signOutQueue.loading': () => [
      { type: 'xstate.error.actor.0.signOutQueue.loading', error: new Error('storage') },
    ],
    'xstate.done.actor.0.signOutQueue.revoking': () => [{ type: 'xstate.done.actor.0.signOutQueue.revoking' }],
    'xstate.error.actor.0.signOutQueue.revoking': () => [
      { type: 'xstate.error.actor.0.signOutQueue.revoking', error: new RequestFailure(null, null) },
      { type: 'xstate.error.actor.0.signOutQueue.revoking', error: new RequestFailure(401, 'Требуется вход') },
    ],
  },
});

/** A queue over an in-memory store whose server answers as `server` says. */
function start(stored: string[], server: (token: string) => 'ok' | 'offline' | 'refused') {
  const store = [...stored];
  const tried: string[] = [];
  const actor = createActor(
    signOutQueueMachine.provide({
      actors: {
        loadPending: fromPromise(async () => [...store]),
        revoke: fromPromise(async ({ input }: { input: { token: string } }) => {
          tried.push(input.token);
          const answer = server(input.token);
          if (answer === 'offline') throw new RequestFailure(null, null);
          store.splice(store.indexOf(input.token), 1);
        }) as never,
        watchOnline: silent,
      },
    }),
  ).start();
  return { actor, store, tried };
}

describe('sign-outs made offline', () => {
  it('are sent at start, one after another, and forgotten once the server has them', async () => {
    const { actor, store, tried } = start(['t1', 't2'], () => 'ok');
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    expect(tried).toEqual(['t1', 't2']);
    expect(store).toEqual([]);
  });

  it('wait while there is no answer, and go out when the browser is online or after the retry delay', async () => {
    vi.useFakeTimers();
    let online = false;
    const { actor, store, tried } = start(['t1'], () => (online ? 'ok' : 'offline'));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('waiting')).toBe(true);
    await vi.advanceTimersByTimeAsync(SIGN_OUT_RETRY_MS);
    expect(tried).toEqual(['t1', 't1']);
    online = true;
    actor.send({ type: 'signOut.online' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(store).toEqual([]);
    vi.useRealTimers();
  });

  it('look again when the session queues a new one', async () => {
    const { actor, store, tried } = start([], () => 'ok');
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    store.push('t9');
    actor.send({ type: 'signOut.queued' });
    await vi.waitFor(() => expect(store).toEqual([]));
    expect(tried).toEqual(['t9']);
  });
});
