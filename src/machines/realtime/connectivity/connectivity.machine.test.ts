import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { connectivityMachine } from './connectivity.machine';

const hang = fromPromise<number>(() => new Promise<never>(() => {}));

describeModel({
  name: 'connectivity',
  // Simple paths (pings that fail and recover in every order) are generated; a covering set of them is replayed.
  traversal: 'simple',
  machine: connectivityMachine.provide({ actors: { ping: hang } }),
  events: {
    'xstate.done.actor.ping': () => [{ type: 'xstate.done.actor.ping', output: 42 }],
    'xstate.error.actor.ping': () => [{ type: 'xstate.error.actor.ping', error: new Error('offline') }],
  },
});

describe('connectivity timing', () => {
  it('pings at start and then every 15 s, keeping the latest latency', async () => {
    vi.useFakeTimers();
    let n = 0;
    const actor = createActor(
      connectivityMachine.provide({ actors: { ping: fromPromise(async () => 10 + n++) } }),
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context).toEqual({ latencyMs: 10, online: true });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(n).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(n).toBe(2);
    expect(actor.getSnapshot().context.latencyMs).toBe(11);
    actor.stop();
    vi.useRealTimers();
  });
});
