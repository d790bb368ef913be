import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, setup, waitFor } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../tests/model/harness';
import { queueRun, requestQueueMachine } from '../../realtime/index';
import { type PinChange, pinsMachine } from './pins.machine';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const child = createMachine({});
const m1 = message('m1', 'u2', 10);
const m2 = message('m2', 'me', 11);

type Snap = ReturnType<typeof pinsMachine.getInitialSnapshot>;
const ids = (s: Snap) => s.context.pins.map((m) => m.id).join();
/** One change per path: from no pins, or (the bar's jump, a deletion) from two. */
const from =
  (...lists: string[]) =>
  (s: Snap) =>
    lists.includes(ids(s)) && s.context.pinCursor === 0;

describeModel({
  name: 'pins',
  machine: pinsMachine.provide({ actors: { fetchPins: hang, pinning: child } as never }),
  inputs: [{ conversationId: 'c1' }],
  events: {
    'xstate.done.actor.fetch': (s) =>
      from('')(s) ? [{ type: 'xstate.done.actor.fetch', output: { pins: [m1, m2] } }] : [],
    'xstate.error.actor.fetch': (s) =>
      from('')(s) ? [{ type: 'xstate.error.actor.fetch', error: new Error('offline') }] : [],
    'pins.changed': (s) => (from('')(s) ? [{ type: 'pins.changed', pins: [m1, m2] }] : []),
    'pins.removed': (s) =>
      from('m1,m2')(s)
        ? [
            { type: 'pins.removed', messageId: 'm1' },
            { type: 'pins.removed', messageId: 'gone' },
          ]
        : [],
    // A shown message, a pin that is not loaded, and neither (dropped).
    'pins.pin': (s) =>
      from('', 'm1,m2')(s)
        ? [
            { type: 'pins.pin', messageId: 'm1', on: true, shown: true },
            { type: 'pins.pin', messageId: 'm2', on: false, shown: false },
            { type: 'pins.pin', messageId: 'gone', on: true, shown: false },
          ]
        : [],
    'pins.jump': (s) => (from('', 'm1,m2')(s) ? [{ type: 'pins.jump' }] : []),
    'queue.done': (s) =>
      from('')(s)
        ? [
            {
              type: 'queue.done',
              queue: 'pinning',
              request: { messageId: 'm1', on: true },
              output: { pins: [m1] },
              remaining: [],
            },
          ]
        : [],
  },
});

describe('the pin bar', () => {
  it('fetches the pins, pins through its queue, and tells its parent which pin a click goes to, round', async () => {
    const sent: PinChange[] = [];
    const pins = pinsMachine.provide({
      actors: {
        fetchPins: fromPromise(async () => ({ pins: [m2, m1] })),
        pinning: requestQueueMachine.provide({
          actors: {
            run: queueRun(async (change: PinChange) => {
              sent.push(change);
              return { pins: [m1] };
            }),
          },
        }),
      },
    });
    const jumps: string[] = [];
    const parent = setup({ actors: { pins } }).createMachine({
      invoke: { id: 'pins', src: 'pins', input: { conversationId: 'c1' } },
      on: {
        'pins.jumpTo': { actions: ({ event }) => jumps.push((event as unknown as { messageId: string }).messageId) },
      },
    });
    const actor = createActor(parent).start();
    const bar = () => actor.getSnapshot().children.pins!;
    await waitFor(bar(), (s) => s.context.pins.length === 2);
    bar().send({ type: 'pins.jump' });
    bar().send({ type: 'pins.jump' });
    bar().send({ type: 'pins.jump' });
    expect(jumps).toEqual(['m2', 'm1', 'm2']);
    bar().send({ type: 'pins.pin', messageId: 'm2', on: false, shown: false });
    bar().send({ type: 'pins.pin', messageId: 'gone', on: true, shown: false });
    await waitFor(bar(), (s) => s.context.pins.length === 1);
    expect(sent).toEqual([{ messageId: 'm2', on: false }]);
    expect(bar().getSnapshot().context).toMatchObject({ pins: [m1], pinCursor: 0 });
  });
});
