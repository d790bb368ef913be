import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { REPORT_FAILED, reportDialogMachine, type ReportTarget } from './reportDialog.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;

describeModel({
  name: 'reportDialog',
  machine: reportDialogMachine.provide({ actors: { sendReport: hang } }),
  inputs: [{ target: { messageId: 'm1' } }],
  contextKey: (c) => `${c.reason ?? ''}|${c.error ? 'e' : ''}`,
  events: {
    'report.send': () => [{ type: 'report.send', reason: 'spam', comment: 'реклама' }],
    'xstate.done.actor.sendReport': () => [{ type: 'xstate.done.actor.sendReport', output: { ok: true } }],
    'xstate.error.actor.sendReport': () => [
      { type: 'xstate.error.actor.sendReport', error: new RequestFailure(400, 'Нельзя пожаловаться на себя') },
    ],
  },
});

afterEach(() => vi.useRealTimers());

describe('«Пожаловаться»', () => {
  it('sends the reason and comment about its target, says «Жалоба отправлена» and is done', async () => {
    vi.useFakeTimers();
    const sent: unknown[] = [];
    const actor = createActor(
      reportDialogMachine.provide({
        actors: {
          sendReport: fromPromise(async ({ input }: { input: unknown }) => void sent.push(input)) as never,
        },
      }),
      { input: { target: { userId: 'u2' } as ReportTarget } },
    ).start();
    actor.send({ type: 'report.send', reason: 'abuse', comment: '' });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('sent')).toBe(true));
    expect(sent).toEqual([{ target: { userId: 'u2' }, reason: 'abuse', comment: '' }]);
    vi.advanceTimersByTime(TIMINGS.successMessageMs);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('keeps the form and says why when the server refuses; a network failure has a fallback', async () => {
    let error: unknown = new RequestFailure(400, 'Нельзя пожаловаться на своё сообщение');
    const actor = createActor(
      reportDialogMachine.provide({
        actors: {
          sendReport: fromPromise(async () => {
            throw error;
          }) as never,
        },
      }),
      { input: { target: { messageId: 'm1' } } },
    ).start();
    actor.send({ type: 'report.send', reason: 'spam', comment: '' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('Нельзя пожаловаться на своё сообщение'));
    error = new Error('offline');
    actor.send({ type: 'report.send', reason: 'spam', comment: '' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe(REPORT_FAILED));
    expect(actor.getSnapshot().matches('editing')).toBe(true);
  });
});
