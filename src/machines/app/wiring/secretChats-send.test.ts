// The first message of a secret chat just made waits for the device actor instead of failing: deviceActor finds
// it when it is spawned later, and gives up after its bound.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine, setup, spawnChild } from 'xstate';
import { deviceActor } from './secretChats-send';

const device = createMachine({ id: 'device' });
const root = setup({ actors: { device } }).createMachine({
  context: { started: false },
  on: {
    start: { actions: assign({ started: true }) },
    'spawn.device': { actions: spawnChild('device', { id: 'secretDevice', systemId: 'secretDevice' }) },
  },
});

afterEach(() => vi.useRealTimers());

describe('deviceActor', () => {
  it('answers at once when the device actor runs', async () => {
    const app = createActor(root).start();
    app.send({ type: 'spawn.device' });
    expect(await deviceActor(app.system, 1)).toBe(app.system.get('secretDevice'));
  });

  it('waits for a device actor spawned later, not resolving before', async () => {
    const app = createActor(root).start();
    let found: unknown = 'pending';
    const waiting = deviceActor(app.system, 60_000).then((d) => {
      found = d;
    });
    app.send({ type: 'start' });
    await Promise.resolve();
    expect(found).toBe('pending');
    app.send({ type: 'spawn.device' });
    await waiting;
    expect(found).toBe(app.system.get('secretDevice'));
    expect(found).not.toBeUndefined();
  });

  it('gives up after its bound', async () => {
    vi.useFakeTimers();
    const app = createActor(root).start();
    const waiting = deviceActor(app.system, 20_000);
    await vi.advanceTimersByTimeAsync(19_999);
    app.send({ type: 'start' });
    await vi.advanceTimersByTimeAsync(1);
    expect(await waiting).toBeNull();
  });
});
