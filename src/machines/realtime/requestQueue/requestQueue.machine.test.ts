import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, sendTo, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { type QueueRequest, queueRun, type RequestQueueReport, requestQueueMachine } from './requestQueue.machine';

const hang = fromPromise<unknown, QueueRequest>(() => new Promise<never>(() => {}));
const input = { name: 'test', failed: 'Не получилось' };

describeModel({
  name: 'requestQueue',
  machine: requestQueueMachine.provide({ actors: { run: hang } }),
  inputs: [input],
  events: {
    // One more while idle or while one runs (at most three, so the walk ends).
    'queue.add': (s) =>
      s.context.pending.length < 3 ? [{ type: 'queue.add', request: `r${s.context.pending.length}` }] : [],
    'xstate.done.actor.run': () => [{ type: 'xstate.done.actor.run', output: { ok: true } }],
    'xstate.error.actor.run': () => [{ type: 'xstate.error.actor.run', error: new RequestFailure(403, 'Нельзя') }],
  },
});

type Report = RequestQueueReport<'test', string, string>;

/** A parent that adds what it is told to its queue and keeps the queue's reports. */
function withParent(run: (request: string) => Promise<string>) {
  const reports: Report[] = [];
  const queue = requestQueueMachine.provide({ actors: { run: queueRun(run) } });
  const parent = createMachine({
    types: {} as { events: { type: 'add'; request: string } | Report },
    invoke: { id: 'queue', src: queue, input },
    on: {
      add: {
        actions: sendTo('queue', ({ event }) => ({
          type: 'queue.add' as const,
          request: (event as { request: string }).request,
        })),
      },
      'queue.done': { actions: ({ event }) => reports.push(event as Report) },
      'queue.failed': { actions: ({ event }) => reports.push(event as Report) },
    },
  });
  const actor = createActor(parent).start();
  return { actor, reports, add: (request: string) => actor.send({ type: 'add', request }) };
}

describe('requestQueue', () => {
  it('runs requests one at a time in the order added and reports each with what was still waiting', async () => {
    const running: string[] = [];
    const answers: Array<() => void> = [];
    const { reports, add } = withParent(
      (r) =>
        new Promise((resolve) => {
          running.push(r);
          answers.push(() => resolve(`ok ${r}`));
        }),
    );
    add('a');
    add('b');
    add('c');
    expect(running).toEqual(['a']); // b and c wait
    answers[0]();
    await new Promise((r) => setTimeout(r, 0));
    expect(running).toEqual(['a', 'b']);
    answers[1]();
    await new Promise((r) => setTimeout(r, 0));
    answers[2]();
    await new Promise((r) => setTimeout(r, 0));
    expect(reports).toEqual([
      { type: 'queue.done', queue: 'test', request: 'a', output: 'ok a', remaining: ['b', 'c'] },
      { type: 'queue.done', queue: 'test', request: 'b', output: 'ok b', remaining: ['c'] },
      { type: 'queue.done', queue: 'test', request: 'c', output: 'ok c', remaining: [] },
    ]);
  });

  it("reports a failure with the server's message (else its own) and goes on with the next request", async () => {
    const { actor, reports, add } = withParent(async (r) => {
      if (r === 'refused') throw new RequestFailure(403, 'Это сообщение нельзя удалить');
      if (r === 'lost') throw new RequestFailure(null, null);
      return 'ok';
    });
    add('refused');
    add('lost');
    add('fine');
    await waitFor(actor, () => reports.length === 3);
    expect(reports.map((r) => (r.type === 'queue.failed' ? r.message : r.output))).toEqual([
      'Это сообщение нельзя удалить',
      'Не получилось',
      'ok',
    ]);
    expect(reports.map((r) => r.request)).toEqual(['refused', 'lost', 'fine']);
  });

  it('runs alone (no parent) without telling anyone', async () => {
    const ran: unknown[] = [];
    const actor = createActor(
      requestQueueMachine.provide({ actors: { run: queueRun(async (r: number) => ran.push(r)) } }),
      {
        input,
      },
    ).start();
    actor.send({ type: 'queue.add', request: 1 });
    actor.send({ type: 'queue.add', request: 2 });
    await waitFor(actor, (s) => s.matches('idle') && s.context.pending.length === 0);
    expect(ran).toEqual([1, 2]);
  });
});
