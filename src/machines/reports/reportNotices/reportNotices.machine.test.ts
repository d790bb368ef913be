import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { noticeText, type ReportNotice, reportNoticesMachine } from './reportNotices.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const quiet = fromCallback(() => () => {}) as never;
const notice = (id: string, over: Partial<ReportNotice> = {}): ReportNotice => ({
  id,
  outcome: 'deleted',
  resolvedAt: '2026-11-24T10:00:00.000Z',
  targetName: 'Борис',
  excerpt: 'Купите слона',
  ...over,
});

describeModel({
  name: 'reportNotices',
  machine: reportNoticesMachine.provide({ actors: { serverEvents: quiet, loadNotices: hang, markSeen: hang } }),
  contextKey: (c) => `${c.shown.map((n: ReportNotice) => n.id)}|${c.unseen}|${c.marking}`,
  events: {
    'notices.arrived': () => [{ type: 'notices.arrived', notice: notice('n2') }],
    'notices.dismiss': () => [{ type: 'notices.dismiss', id: 'n1' }],
    'xstate.done.actor.loadNotices': () => [{ type: 'xstate.done.actor.loadNotices', output: [notice('n1')] }],
    'xstate.error.actor.loadNotices': () => [{ type: 'xstate.error.actor.loadNotices', error: new Error('offline') }],
    'xstate.done.actor.markSeen': () => [{ type: 'xstate.done.actor.markSeen', output: { ok: true } }],
    'xstate.error.actor.markSeen': () => [{ type: 'xstate.error.actor.markSeen', error: new Error('offline') }],
  },
});

describe('report notices', () => {
  it('shows the kept and the live notices once each and marks them seen', async () => {
    const marked: string[][] = [];
    const actor = createActor(
      reportNoticesMachine.provide({
        actors: {
          serverEvents: quiet,
          loadNotices: fromPromise(async () => [notice('n1')]) as never,
          markSeen: fromPromise(
            async ({ input }: { input: { ids: string[] } }) => void marked.push(input.ids),
          ) as never,
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('idle') && s.context.unseen.length === 0);
    actor.send({ type: 'notices.arrived', notice: notice('n2', { outcome: 'dismissed', excerpt: null }) });
    actor.send({ type: 'notices.arrived', notice: notice('n2', { outcome: 'dismissed', excerpt: null }) });
    await waitFor(actor, (s) => s.matches('idle') && s.context.unseen.length === 0);
    expect(marked).toEqual([['n1'], ['n2']]);
    expect(actor.getSnapshot().context.shown.map((n) => n.id)).toEqual(['n1', 'n2']);
    actor.send({ type: 'notices.dismiss', id: 'n1' });
    expect(actor.getSnapshot().context.shown.map((n) => n.id)).toEqual(['n2']);
  });

  it('words each outcome', () => {
    expect(noticeText(notice('a'))).toBe('Ваша жалоба на сообщение «Купите слона» рассмотрена: сообщение удалено.');
    expect(noticeText(notice('b', { outcome: 'deactivated', excerpt: null }))).toBe(
      'Ваша жалоба на пользователя (Борис) рассмотрена: аккаунт отключён.',
    );
    expect(noticeText(notice('c', { outcome: 'dismissed' }))).toBe(
      'Ваша жалоба на сообщение «Купите слона» рассмотрена: нарушений не найдено.',
    );
  });
});
