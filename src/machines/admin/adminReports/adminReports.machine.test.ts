import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { type AdminReport, adminReportsMachine, REPORTS_FAILED, type ReportAction } from './adminReports.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const report = (id: string, status: AdminReport['status'] = 'open'): AdminReport => ({
  id,
  reason: 'spam',
  comment: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  status,
  reporter: { id: 'a', username: 'anna', displayName: 'Анна' },
  target: { id: 'b', username: 'boris', displayName: 'Борис', deactivated: false },
  message: {
    id: 'm1',
    conversationId: 'c1',
    text: 'Купите слона',
    deleted: false,
    createdAt: '2026-11-24T09:00:00.000Z',
  },
  context: [],
});
const refused = new RequestFailure(404, 'Жалоба не найдена');

describeModel({
  name: 'adminReports',
  machine: adminReportsMachine.provide({ actors: { loadReports: hang, resolve: hang } }),
  contextKey: (c) => `${c.queue}|${c.reports.length}|${c.pending?.action ?? ''}|${c.error ? 'e' : ''}`,
  events: {
    'reports.show': () => [{ type: 'reports.show', queue: 'closed' }],
    'reports.resolve': () => [
      { type: 'reports.resolve', reportId: 'r1', action: 'delete' },
      { type: 'reports.resolve', reportId: 'r1', action: 'dismiss' },
    ],
    'xstate.done.actor.loadReports': () => [{ type: 'xstate.done.actor.loadReports', output: [report('r1')] }],
    'xstate.error.actor.loadReports': () => [{ type: 'xstate.error.actor.loadReports', error: new Error('offline') }],
    'xstate.done.actor.resolve': () => [{ type: 'xstate.done.actor.resolve', output: { ok: true } }],
    'xstate.error.actor.resolve': () => [{ type: 'xstate.error.actor.resolve', error: refused }],
  },
});

describe('«Жалобы» with a server', () => {
  it('asks before deleting or deactivating, not before dismissing; the queue is read again after each', async () => {
    let open = [report('r1'), report('r2')];
    const done: string[] = [];
    const actor = createActor(
      adminReportsMachine.provide({
        actors: {
          loadReports: fromPromise(async ({ input }: { input: { queue: string } }) =>
            input.queue === 'open' ? open : [report('r0', 'dismissed')],
          ),
          resolve: fromPromise(async ({ input }: { input: { reportId: string; action: ReportAction } }) => {
            done.push(`${input.action} ${input.reportId}`);
            open = open.filter((r) => r.id !== input.reportId);
          }),
        } as never,
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready') && s.context.reports.length === 2);
    actor.send({ type: 'reports.resolve', reportId: 'r1', action: 'delete' });
    expect(actor.getSnapshot().hasTag('confirming')).toBe(true);
    actor.send({ type: 'reports.cancel' });
    expect(done).toEqual([]);
    actor.send({ type: 'reports.resolve', reportId: 'r1', action: 'delete' });
    actor.send({ type: 'reports.confirm' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.reports.length === 1);
    actor.send({ type: 'reports.resolve', reportId: 'r2', action: 'dismiss' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.reports.length === 0);
    expect(done).toEqual(['delete r1', 'dismiss r2']);
    actor.send({ type: 'reports.show', queue: 'closed' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.reports.length === 1);
    expect(actor.getSnapshot().context.queue).toBe('closed');
  });

  it('shows the server refusal and a failed load', async () => {
    let fail = false;
    const actor = createActor(
      adminReportsMachine.provide({
        actors: {
          loadReports: fromPromise(async () => {
            if (fail) throw new Error('offline');
            return [report('r1')];
          }),
          resolve: fromPromise(async () => {
            throw refused;
          }),
        } as never,
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'reports.resolve', reportId: 'r1', action: 'dismiss' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Жалоба не найдена');
    fail = true;
    actor.send({ type: 'reports.reload' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(REPORTS_FAILED);
  });
});
