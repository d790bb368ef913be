import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { TIMINGS } from '../../../contract/limits';
import { selectionMachine } from './selection.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;

describeModel({
  name: 'selection',
  machine: selectionMachine.provide({ actors: { copyText: hang } }),
  events: {
    'selection.start': () => [{ type: 'selection.start', messageId: 'm1' }],
    'selection.toggle': (s) =>
      s.context.ids.length < 2
        ? [
            { type: 'selection.toggle', messageId: 'm1' },
            { type: 'selection.toggle', messageId: 'm2' },
          ]
        : [],
    'selection.copy': () => [{ type: 'selection.copy', text: 'Привет' }],
    'xstate.done.actor.copyText': () => [{ type: 'xstate.done.actor.copyText', output: undefined }],
    'xstate.error.actor.copyText': () => [{ type: 'xstate.error.actor.copyText', error: new Error('denied') }],
  },
});

afterEach(() => vi.useRealTimers());

describe('selection', () => {
  it('picks and unpicks messages; unpicking the last one leaves the mode; copying leaves it too', async () => {
    vi.useFakeTimers();
    const copied: string[] = [];
    const actor = createActor(
      selectionMachine.provide({
        actors: {
          copyText: fromPromise(async ({ input }: { input: { text: string } }) => copied.push(input.text)) as never,
        },
      }),
    ).start();
    actor.send({ type: 'selection.start', messageId: 'm1' });
    actor.send({ type: 'selection.toggle', messageId: 'm2' });
    expect(actor.getSnapshot().context.ids).toEqual(['m1', 'm2']);
    actor.send({ type: 'selection.toggle', messageId: 'm1' });
    actor.send({ type: 'selection.toggle', messageId: 'm2' });
    expect(actor.getSnapshot().hasTag('selecting')).toBe(false);
    actor.send({ type: 'selection.start', messageId: 'm3' });
    actor.send({ type: 'selection.copy', text: 'Один\n\nДва' });
    await vi.advanceTimersByTimeAsync(0);
    expect(copied).toEqual(['Один\n\nДва']);
    expect(actor.getSnapshot().hasTag('selecting')).toBe(false);
    expect(actor.getSnapshot().hasTag('copied')).toBe(true);
    await vi.advanceTimersByTimeAsync(TIMINGS.successMessageMs);
    expect(actor.getSnapshot().hasTag('copied')).toBe(false);
  });

  it('a copy while one is being written starts again with its text', async () => {
    const asked: string[] = [];
    const actor = createActor(
      selectionMachine.provide({
        actors: {
          copyText: fromPromise(({ input }: { input: { text: string } }) => {
            asked.push(input.text);
            return asked.length === 1 ? new Promise<never>(() => {}) : Promise.resolve();
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'selection.copy', text: 'a' });
    actor.send({ type: 'selection.copy', text: 'b' });
    expect(asked).toEqual(['a', 'b']);
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('copied')).toBe(true));
  });

  it('a refused clipboard says why', async () => {
    const actor = createActor(
      selectionMachine.provide({
        actors: { copyText: fromPromise(async () => Promise.reject(new Error('x'))) as never },
      }),
    ).start();
    actor.send({ type: 'selection.copy', text: 'a' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toMatch(/буферу обмена/));
  });
});
