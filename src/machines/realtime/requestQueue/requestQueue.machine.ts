// A serial request queue: requests added by the parent (`queue.add`) are run one at a time, in order, through the
// effect `run` (provided by the parent's wiring, like every effect: `queueRun`); each outcome goes back to the
// parent as `queue.done` (with the effect's output) or `queue.failed` (with the server's Russian message, else the
// fallback the parent gave). Nothing added is dropped: requests added while one runs wait their turn, and a
// failure moves on to the next one. What a failure means (ignore it, refetch, retry later) is the parent's call.
//
// One logic for every kind of request: XState cannot type a machine made generic by a function (the invoke's
// done event of a generic actor does not resolve), so requests and outputs are `unknown` here and typed at the
// two ends that know them: the parent's protocol declares the reports it hears (RequestQueueReport<name,
// request, output>), and the wiring gives `run` through `queueRun<TRequest, TOutput>`.
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import type {
  QueueRequest,
  RequestQueueContext,
  RequestQueueEffects,
  RequestQueueEvent,
  RequestQueueInput,
} from './requestQueue.protocol';

export * from './requestQueue.protocol';

/**
 * The queue's effect from a function of its own request type. The queue runs exactly the requests its parent
 * added, in the type the parent's protocol declares for this queue, so the wiring that knows both ends names it.
 */
export function queueRun<TRequest extends QueueRequest, TOutput>(run: (request: TRequest) => Promise<TOutput>) {
  return fromPromise<unknown, QueueRequest>(({ input }) => run(input as TRequest));
}

export const requestQueueMachine = setup({
  types: {
    context: {} as RequestQueueContext,
    events: {} as RequestQueueEvent,
    input: {} as RequestQueueInput,
  },
  actors: { run: notWired('requestQueue.run') as RequestQueueEffects['run'] },
  guards: { hasWork: ({ context }) => context.pending.length > 0 },
  actions: {
    add: assign({ pending: ({ context, event }) => [...context.pending, event.request] }),
    // To the parent only when there is one: a graph test runs this machine alone.
    done: enqueueActions(({ context, self, enqueue }, { output }: { output: unknown }) => {
      const [request, ...remaining] = context.pending;
      enqueue.assign({ pending: remaining });
      if (self._parent) enqueue.sendParent({ type: 'queue.done', queue: context.name, request, output, remaining });
    }),
    failed: enqueueActions(({ context, self, enqueue }, { error }: { error: unknown }) => {
      const [request, ...remaining] = context.pending;
      enqueue.assign({ pending: remaining });
      const message = failureMessage(error, context.failed);
      if (self._parent) enqueue.sendParent({ type: 'queue.failed', queue: context.name, request, message, remaining });
    }),
  },
}).createMachine({
  id: 'requestQueue',
  context: ({ input }) => ({ name: input.name, failed: input.failed, pending: [] }),
  on: { 'queue.add': { actions: 'add' } },
  initial: 'idle',
  states: {
    idle: {
      always: { guard: 'hasWork', target: 'running' },
    },
    running: {
      tags: ['busy'],
      invoke: {
        id: 'run',
        src: 'run',
        // `hasWork` let the queue in here: the first request is there.
        input: ({ context }) => context.pending[0],
        onDone: { target: 'idle', actions: { type: 'done', params: ({ event }) => ({ output: event.output }) } },
        onError: { target: 'idle', actions: { type: 'failed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});

export type RequestQueueActorRef = import('xstate').ActorRefFrom<typeof requestQueueMachine>;
