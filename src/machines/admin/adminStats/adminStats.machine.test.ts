import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { type AdminStats, adminStatsMachine, STATS_FAILED } from './adminStats.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const stats: AdminStats = {
  users: { total: 3, active: 2, deactivated: 1, admins: 1 },
  messages: 10,
  uploads: 2,
  storageBytes: 2048,
  sockets: 1,
  calls: 0,
  guests: 0,
  version: '1.0.0',
  schema: '037',
  startedAt: '2026-11-24T10:00:00.000Z',
  database: 'sqlite',
  storage: 'disk',
  backup: {
    schedule: 'каждый день в 03:30',
    location: 'disk',
    place: '/data/backups',
    last: null,
    lastOkAt: null,
    warning: null,
  },
};

describeModel({
  name: 'adminStats',
  machine: adminStatsMachine.provide({ actors: { loadStats: hang } }),
  contextKey: (c) => `${c.stats ? 's' : ''}|${c.error ? 'e' : ''}`,
  events: {
    'xstate.done.actor.loadStats': () => [{ type: 'xstate.done.actor.loadStats', output: stats }],
    'xstate.error.actor.loadStats': () => [{ type: 'xstate.error.actor.loadStats', error: new Error('offline') }],
  },
});

describe('«Сервер»', () => {
  it('shows the figures, keeps them when a reload fails and says why', async () => {
    let fail = false;
    const actor = createActor(
      adminStatsMachine.provide({
        actors: {
          loadStats: fromPromise(async () => {
            if (fail) throw new Error('offline');
            return stats;
          }),
        } as never,
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.stats?.users.total).toBe(3);
    fail = true;
    actor.send({ type: 'stats.reload' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBe(STATS_FAILED);
    expect(actor.getSnapshot().context.stats).toEqual(stats);
  });
});
