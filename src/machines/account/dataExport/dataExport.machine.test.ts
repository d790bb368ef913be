import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { EXPORT, TIMINGS } from '../../../contract/limits';
import { type DataExport, dataExportMachine, EXPORT_FAILED, EXPORT_START_FAILED } from './dataExport.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const archive = (status: DataExport['status'], progress = status === 'ready' ? 1 : 0.3): DataExport => ({
  id: 'e1',
  status,
  progress,
  createdAt: '2026-11-24T10:00:00.000Z',
  expiresAt: '2026-11-25T10:00:00.000Z',
  size: status === 'ready' ? 2048 : null,
  downloadUrl: status === 'ready' ? '/api/export/e1/download?token=1.x' : null,
});
const outcomes = (type: string) => () => [
  { type, output: archive('building') },
  { type, output: archive('ready') },
  { type, output: archive('failed') },
  { type, output: null },
];
const errors = (type: string) => () => [
  { type, error: new RequestFailure(404, 'Архив не найден или уже удалён') },
  { type, error: new RequestFailure(null, null) },
];

describeModel({
  name: 'dataExport',
  machine: dataExportMachine.provide({ actors: { loadLatest: hang, startExport: hang, loadStatus: hang } }),
  contextKey: (c) => c.current?.status ?? null,
  events: {
    'xstate.done.actor.0.dataExport.loading': outcomes('xstate.done.actor.0.dataExport.loading'),
    'xstate.error.actor.0.dataExport.loading': errors('xstate.error.actor.0.dataExport.loading'),
    'xstate.done.actor.0.dataExport.starting': outcomes('xstate.done.actor.0.dataExport.starting'),
    'xstate.error.actor.0.dataExport.starting': errors('xstate.error.actor.0.dataExport.starting'),
    'xstate.done.actor.0.dataExport.polling': outcomes('xstate.done.actor.0.dataExport.polling'),
    'xstate.error.actor.0.dataExport.polling': errors('xstate.error.actor.0.dataExport.polling'),
    'xstate.done.actor.0.dataExport.refreshing': outcomes('xstate.done.actor.0.dataExport.refreshing'),
    'xstate.error.actor.0.dataExport.refreshing': errors('xstate.error.actor.0.dataExport.refreshing'),
  },
});

/** A dataExport actor on fake timers whose server answers from the given lists in turn. */
function start(answers: { latest?: DataExport | null; started?: DataExport; statuses?: (DataExport | Error)[] }) {
  const asked: string[] = [];
  let polls = 0;
  const actor = createActor(
    dataExportMachine.provide({
      actors: {
        loadLatest: fromPromise(async () => answers.latest ?? null),
        startExport: fromPromise(async () => {
          asked.push('start');
          if (!answers.started) throw new RequestFailure(429, 'Слишком много запросов. Попробуйте позже.');
          return answers.started;
        }),
        loadStatus: fromPromise(async ({ input }: { input: { id: string } }) => {
          asked.push(`status ${input.id}`);
          const list = answers.statuses ?? [];
          const next = list[Math.min(polls++, list.length - 1)];
          if (next instanceof Error) throw next;
          return next as DataExport;
        }),
      },
    }),
  ).start();
  return { actor, asked };
}

describe('«Экспорт данных»', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts an archive, follows its progress every tick and offers the link once ready', async () => {
    vi.useFakeTimers();
    const { actor, asked } = start({
      started: archive('building', 0),
      statuses: [archive('building', 0.5), new RequestFailure(null, null), archive('ready')],
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'export.start' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().hasTag('building')).toBe(true);
    expect(asked).toEqual(['start']);
    // Nothing is asked before the tick.
    await vi.advanceTimersByTimeAsync(TIMINGS.exportPollMs - 1);
    expect(asked).toEqual(['start']);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().context.current?.progress).toBe(0.5);
    // A status that did not come (offline) is asked again at the next tick, still building.
    await vi.advanceTimersByTimeAsync(TIMINGS.exportPollMs);
    expect(actor.getSnapshot().hasTag('building')).toBe(true);
    await vi.advanceTimersByTimeAsync(TIMINGS.exportPollMs);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.current?.downloadUrl).toMatch(/^\/api\/export\/e1\/download/);
    expect(asked).toEqual(['start', 'status e1', 'status e1', 'status e1']);
    // The link is fetched again a minute before it runs out, and not before.
    await vi.advanceTimersByTimeAsync(EXPORT.linkMs - 60_000 - 1);
    expect(asked).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toHaveLength(5);
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('picks up the newest archive on opening: one being built is followed, a failed one says so', async () => {
    vi.useFakeTimers();
    const building = start({ latest: archive('building'), statuses: [archive('ready')] });
    await vi.advanceTimersByTimeAsync(0);
    expect(building.actor.getSnapshot().hasTag('building')).toBe(true);
    await vi.advanceTimersByTimeAsync(TIMINGS.exportPollMs);
    expect(building.actor.getSnapshot().value).toBe('ready');

    const failed = start({ latest: archive('failed'), started: archive('building') });
    await vi.advanceTimersByTimeAsync(0);
    expect(failed.actor.getSnapshot().context.error).toBe(EXPORT_FAILED);
    failed.actor.send({ type: 'export.start' });
    expect(failed.actor.getSnapshot().context.error).toBeNull();
  });

  it('an archive the server no longer has ends back at the start; a refused start says why', async () => {
    vi.useFakeTimers();
    const { actor } = start({
      latest: archive('building'),
      statuses: [new RequestFailure(404, 'Архив не найден или уже удалён')],
    });
    await vi.advanceTimersByTimeAsync(TIMINGS.exportPollMs);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.current).toBeNull();
    actor.send({ type: 'export.start' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe('Слишком много запросов. Попробуйте позже.');
    expect(EXPORT_START_FAILED).toMatch(/^Не удалось/);
  });
});
