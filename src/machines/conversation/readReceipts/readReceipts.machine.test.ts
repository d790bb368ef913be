import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { readReceiptsMachine } from './readReceipts.machine';

const hang = fromPromise<unknown, { messageIds: string[] }>(() => new Promise<never>(() => {}));
const quiet = fromCallback(() => () => {}) as never; // a listener that hears nothing
const input = { conversationId: 'c1' };

describeModel({
  name: 'readReceipts',
  machine: readReceiptsMachine.provide({ actors: { windowFocus: quiet, postReceipts: hang } }),
  inputs: [input],
  events: {
    'receipts.visible': () => [
      { type: 'receipts.visible', messageIds: ['m1', 'm2'] },
      { type: 'receipts.visible', messageIds: ['m3'] },
    ],
    'receipts.focus': (s) => [{ type: 'receipts.focus', focused: !s.context.focused }],
    'xstate.done.actor.postReceipts': () => [{ type: 'xstate.done.actor.postReceipts', output: { ok: true } }],
    'xstate.error.actor.postReceipts': () => [{ type: 'xstate.error.actor.postReceipts', error: new Error('offline') }],
  },
});

describe('readReceipts batching', () => {
  function start(post: (ids: string[]) => Promise<unknown>) {
    vi.useFakeTimers();
    const actor = createActor(
      readReceiptsMachine.provide({
        actors: { windowFocus: quiet, postReceipts: fromPromise(({ input }) => post(input.messageIds)) },
      }),
      { input },
    ).start();
    return actor;
  }

  it('posts what became visible within 250 ms as one batch, only while the window has focus', async () => {
    const posts: string[][] = [];
    const actor = start(async (ids) => posts.push(ids));
    actor.send({ type: 'receipts.visible', messageIds: ['m1'] });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(posts).toEqual([]); // no focus yet
    actor.send({ type: 'receipts.focus', focused: true });
    await vi.advanceTimersByTimeAsync(100);
    actor.send({ type: 'receipts.visible', messageIds: ['m1', 'm2'] });
    await vi.advanceTimersByTimeAsync(149);
    expect(posts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts).toEqual([['m1', 'm2']]);
    // Already posted ids are not posted again.
    actor.send({ type: 'receipts.visible', messageIds: ['m2', 'm3'] });
    await vi.advanceTimersByTimeAsync(250);
    expect(posts).toEqual([['m1', 'm2'], ['m3']]);
    actor.stop();
    vi.useRealTimers();
  });

  it('re-queues a failed post and tries again', async () => {
    const posts: string[][] = [];
    let fail = true;
    const actor = start(async (ids) => {
      posts.push(ids);
      if (fail) throw new Error('offline');
    });
    actor.send({ type: 'receipts.focus', focused: true });
    actor.send({ type: 'receipts.visible', messageIds: ['m1'] });
    await vi.advanceTimersByTimeAsync(250);
    expect(posts).toEqual([['m1']]);
    expect(actor.getSnapshot().context.queue).toEqual(['m1']);
    fail = false;
    actor.send({ type: 'receipts.visible', messageIds: ['m1', 'm2'] });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(posts).toEqual([['m1'], ['m1', 'm2']]);
    expect(actor.getSnapshot().context).toMatchObject({ queue: [], inFlight: [], done: ['m1', 'm2'] });
    actor.stop();
    vi.useRealTimers();
  });
});
