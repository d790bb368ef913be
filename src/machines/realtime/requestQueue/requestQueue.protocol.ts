// The request queue's protocol (a reusable child: deletions and reactions of the open conversation run on it; an
// outbox or a receipts poster can too). Its parent adds requests; each one is run by the effect the parent's
// wiring provides, one at a time in the order added, and its outcome is told back to the parent. Imports only
// machine-ref.ts, so parents and views name it without its machine file.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

/** Any request a queue may hold (its real type is the one the parent's protocol names for that queue). */
export type QueueRequest = object | string | number | boolean;

export interface RequestQueueInput {
  /** Put in every report: a parent with several queues tells them apart by it. */
  name: string;
  /** The message of a failure when the server sent none (Russian, for the user). */
  failed: string;
}

export interface RequestQueueContext extends RequestQueueInput {
  /** Requests not yet answered, in order; while the queue is busy the first one is being run. */
  pending: QueueRequest[];
}

/** A request to run after those already added (its type is the one the parent's protocol names for this queue). */
export type RequestQueueEvent<TRequest extends QueueRequest = QueueRequest> = { type: 'queue.add'; request: TRequest };

/**
 * What the queue tells its parent about each request, in the order the requests were added. `queue` is the name
 * the queue was made with, so a parent with several queues tells their reports apart; `remaining` are the
 * requests still waiting after this one (a later change of the same thing answers last).
 */
export type RequestQueueReport<TName extends string, TRequest extends QueueRequest, TOutput> =
  | { type: 'queue.done'; queue: TName; request: TRequest; output: TOutput; remaining: TRequest[] }
  /** `message` is the server's (Russian, for the user), or the queue's fallback when it sent none. */
  | { type: 'queue.failed'; queue: TName; request: TRequest; message: string; remaining: TRequest[] };

/** The queue as its parent addresses it: requests of one type. */
export type RequestQueueRef<TRequest extends QueueRequest> = MachineRef<
  RequestQueueContext,
  RequestQueueEvent<TRequest>
>;

/**
 * The machine's port: the effects it leaves to its feature's services (each owner's effects, e.g.
 * src/services/conversation/conversation.effects.ts).
 */
export interface RequestQueueEffects {
  run: PromiseActorLogic<unknown, QueueRequest>;
}
