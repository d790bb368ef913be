import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { ScheduledItem } from '../../../contract/api';
import { RequestFailure } from '../../../contract/failure';
import { schedulerMachine } from './scheduler.machine';
import { fromLocalInput, reminderChoices, scheduledLabel, sendLaterChoices } from './times';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const item = (id: string, sendAt: string, conversationId = 'c1'): ScheduledItem => ({
  id,
  kind: 'message',
  conversationId,
  content: 'текст',
  sendAt,
  status: 'pending',
  failure: null,
  sourceMessageId: null,
  createdAt: '2026-11-26T10:00:00.000Z',
});
const failure = new RequestFailure(400, 'Это время уже прошло: выберите время в будущем');

describeModel({
  name: 'scheduler',
  machine: schedulerMachine.provide({ actors: { load: hang, save: hang, sendNow: hang, remove: hang } }),
  inputs: [{ conversationId: 'c1' }],
  events: {
    'xstate.done.actor.load': () => [
      { type: 'xstate.done.actor.load', output: { items: [item('a', '2026-11-27T09:00:00.000Z')] } },
    ],
    'xstate.error.actor.load': () => [{ type: 'xstate.error.actor.load', error: failure }],
    'xstate.done.actor.save': () => [
      { type: 'xstate.done.actor.save', output: { item: item('b', '2026-11-27T08:00:00.000Z') } },
    ],
    'xstate.error.actor.save': () => [{ type: 'xstate.error.actor.save', error: failure }],
    'xstate.done.actor.sendNow': () => [{ type: 'xstate.done.actor.sendNow', output: { message: {} } }],
    'xstate.error.actor.sendNow': () => [{ type: 'xstate.error.actor.sendNow', error: failure }],
    'xstate.done.actor.remove': () => [{ type: 'xstate.done.actor.remove', output: { ok: true } }],
    'xstate.error.actor.remove': () => [{ type: 'xstate.error.actor.remove', error: failure }],
    'scheduled.retry': () => [{ type: 'scheduled.retry' }],
    'schedule.start': () => [{ type: 'schedule.start', draft: { kind: 'message', content: 'позже' } }],
    'schedule.text': () => [{ type: 'schedule.text', content: 'иначе' }],
    'schedule.pick': () => [{ type: 'schedule.pick', at: '2026-11-27T08:00:00.000Z' }],
    'schedule.back': () => [{ type: 'schedule.back' }],
    'schedule.confirm': () => [{ type: 'schedule.confirm' }],
    'schedule.cancel': () => [{ type: 'schedule.cancel' }],
    'scheduled.sendNow': () => [{ type: 'scheduled.sendNow', id: 'a' }],
    'scheduled.delete': () => [{ type: 'scheduled.delete', id: 'a' }],
  },
});

describe('the scheduler', () => {
  it('saves the chosen time with the draft, lists the item in time order and tells who listens', async () => {
    const saved: unknown[] = [];
    const actor = createActor(
      schedulerMachine.provide({
        actors: {
          load: fromPromise(async () => ({ items: [item('a', '2026-11-27T09:00:00.000Z')] })) as never,
          save: fromPromise(async ({ input }) => {
            saved.push(input);
            return { item: item('b', '2026-11-27T08:00:00.000Z') };
          }) as never,
        },
      }),
      { input: { conversationId: 'c1' } },
    );
    const heard = vi.fn();
    actor.on('scheduler.saved', heard);
    actor.start();
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'schedule.start', draft: { kind: 'message', content: 'позже' } });
    expect(actor.getSnapshot().hasTag('choosing')).toBe(true);
    actor.send({ type: 'schedule.pick', at: '2026-11-27T08:00:00.000Z' });
    expect(actor.getSnapshot().hasTag('confirming')).toBe(true);
    actor.send({ type: 'schedule.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(saved).toEqual([
      { conversationId: 'c1', draft: { kind: 'message', content: 'позже' }, at: '2026-11-27T08:00:00.000Z' },
    ]);
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual(['b', 'a']);
    expect(heard).toHaveBeenCalledOnce();
  });

  it('keeps the choice open with the server’s reason when saving is refused', async () => {
    const actor = createActor(
      schedulerMachine.provide({
        actors: {
          load: fromPromise(async () => ({ items: [] })) as never,
          save: fromPromise(async () => {
            throw failure;
          }) as never,
        },
      }),
      { input: { conversationId: 'c1' } },
    ).start();
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'schedule.start', draft: { kind: 'reminder', messageId: 'm1', content: 'x' } });
    actor.send({ type: 'schedule.pick', at: '2020-01-01T00:00:00.000Z' });
    actor.send({ type: 'schedule.confirm' });
    await waitFor(actor, (s) => s.hasTag('choosing'));
    expect(actor.getSnapshot().context.error).toBe('Это время уже прошло: выберите время в будущем');
  });
});

describe('the times offered', () => {
  it('offers the next round hour today while it is still today, and tomorrow at 9:00', () => {
    const afternoon = new Date(2026, 10, 26, 14, 25);
    const [today, tomorrow] = sendLaterChoices(afternoon);
    expect(today?.label).toBe('Сегодня в 15:00');
    expect(new Date(today?.at ?? '').getHours()).toBe(15);
    expect(tomorrow?.label).toBe('Завтра в 9:00');
    const late = sendLaterChoices(new Date(2026, 10, 26, 23, 30));
    expect(late.map((c) => c.label)).toEqual(['Завтра в 9:00']);
    expect(new Date(late[0]?.at ?? '').getDate()).toBe(27);
  });

  it('offers reminders in 20 minutes, an hour and tomorrow morning', () => {
    const now = new Date(2026, 10, 26, 14, 25);
    const choices = reminderChoices(now);
    expect(choices.map((c) => c.label)).toEqual(['Через 20 минут', 'Через час', 'Завтра в 9:00']);
    expect(Date.parse(choices[0]?.at ?? '') - now.getTime()).toBe(20 * 60_000);
  });

  it('reads a picked local time, and shows a time in the list', () => {
    expect(fromLocalInput('не время')).toBeNull();
    expect(fromLocalInput('2026-11-27T09:30')).toBe(new Date(2026, 10, 27, 9, 30).toISOString());
    expect(scheduledLabel(new Date(2026, 10, 27, 9, 5).toISOString())).toBe('27.11 в 9:05');
  });
});
