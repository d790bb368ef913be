import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { followedThreadsMachine } from './followedThreads.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;
const list = (unread: number) => ({ threads: [{ conversationId: 'g1', root: { id: 'r1' }, unread }] });

describeModel({
  name: 'followedThreads',
  machine: followedThreadsMachine.provide({ actors: { serverEvents: silent, load: hang } }),
  contextKey: (c) => `${c.threads.length}|${c.expanded}`,
  events: {
    'xstate.done.actor.load': () => [{ type: 'xstate.done.actor.load', output: list(2) }],
    'xstate.error.actor.load': () => [{ type: 'xstate.error.actor.load', error: new Error('offline') }],
  },
});

describe('followedThreads with a server', () => {
  it('loads again after a refresh that came during a load, and keeps the newest answer', async () => {
    let calls = 0;
    const actor = createActor(
      followedThreadsMachine.provide({
        actors: {
          serverEvents: silent,
          load: fromPromise(async () => list(++calls)) as never,
        },
      }),
    ).start();
    actor.send({ type: 'threads.refresh' });
    await waitFor(actor, (s) => s.value === 'ready');
    expect(calls).toBe(2);
    expect(actor.getSnapshot().context.threads[0]?.unread).toBe(2);
    actor.send({ type: 'threads.toggle' });
    expect(actor.getSnapshot().context.expanded).toBe(true);
  });
});
