import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { UNDO } from '../../../contract/limits';
import { type Removal, removalMachine } from './removal.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const target = { conversationId: 'c1', messageIds: ['m1'] };

describeModel({
  name: 'removal',
  machine: removalMachine.provide({ actors: { commit: hang } }),
  events: {
    'removal.ask': () => [{ type: 'removal.ask', ...target }],
    'removal.hide': () => [{ type: 'removal.hide', ...target }],
    'removal.choose': () => [
      { type: 'removal.choose', mode: 'everyone' },
      { type: 'removal.choose', mode: 'me' },
    ],
    'xstate.done.actor.commit': () => [{ type: 'xstate.done.actor.commit', output: {} }],
    'xstate.error.actor.commit': () => [
      { type: 'xstate.error.actor.commit', error: new RequestFailure(404, 'Сообщение не найдено') },
    ],
  },
  contextKey: (c) => ({
    asking: c.asking !== null,
    held: c.held?.mode ?? null,
    gone: c.gone?.mode ?? null,
    next: c.next?.kind ?? null,
    error: c.error !== null,
  }),
});

afterEach(() => vi.useRealTimers());

function start(fail = false) {
  const sent: Removal[] = [];
  const actor = createActor(
    removalMachine.provide({
      actors: {
        commit: fromPromise(async ({ input }: { input: Removal }) => {
          sent.push(input);
          if (fail) throw new RequestFailure(500, 'Сервер недоступен');
          return {};
        }) as never,
      },
    }),
  ).start();
  return { actor, sent };
}

describe('removal with undo', () => {
  it('asks, holds the message out of view for the undo window, then sends it', async () => {
    vi.useFakeTimers();
    const { actor, sent } = start();
    actor.send({ type: 'removal.ask', ...target });
    expect(actor.getSnapshot().hasTag('confirming')).toBe(true);
    actor.send({ type: 'removal.choose', mode: 'everyone' });
    expect(actor.getSnapshot().context.held).toEqual({ ...target, mode: 'everyone' });
    expect(actor.getSnapshot().hasTag('undoable')).toBe(true);
    await vi.advanceTimersByTimeAsync(UNDO.windowMs - 1);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([{ ...target, mode: 'everyone' }]);
    expect(actor.getSnapshot().value).toBe('idle');
    // Kept out of view until the server's event removes it from the list.
    expect(actor.getSnapshot().context.gone).toEqual({ ...target, mode: 'everyone' });
  });

  it('«Отменить» sends nothing and shows the message again', async () => {
    vi.useFakeTimers();
    const { actor, sent } = start();
    actor.send({ type: 'removal.hide', ...target });
    expect(actor.getSnapshot().context.held?.mode).toBe('me');
    actor.send({ type: 'removal.undo' });
    await vi.advanceTimersByTimeAsync(UNDO.windowMs * 2);
    expect(sent).toEqual([]);
    expect(actor.getSnapshot().context.held).toBeNull();
  });

  it('a second removal sends the waiting one at once and asks about the new one', async () => {
    vi.useFakeTimers();
    const { actor, sent } = start();
    actor.send({ type: 'removal.hide', ...target });
    actor.send({ type: 'removal.ask', conversationId: 'c1', messageIds: ['m9'] });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([{ ...target, mode: 'me' }]);
    expect(actor.getSnapshot().hasTag('confirming')).toBe(true);
    expect(actor.getSnapshot().context.asking?.messageIds).toEqual(['m9']);
  });

  it('a refused request brings the messages back with a message', async () => {
    vi.useFakeTimers();
    const { actor } = start(true);
    actor.send({ type: 'removal.hide', ...target });
    await vi.advanceTimersByTimeAsync(UNDO.windowMs);
    expect(actor.getSnapshot().context.held).toBeNull();
    expect(actor.getSnapshot().context.gone).toBeNull();
    expect(actor.getSnapshot().context.error).toBe('Сервер недоступен');
  });
});
