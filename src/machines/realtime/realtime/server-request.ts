// An emit the server acknowledges, as a promise actor: invoke it with `{ name, payload }` and get the server's
// Ack (`{ ok: true }` or `{ ok: false, message }`) as output. It never rejects and never hangs: a disconnected
// socket, a missing realtime actor or a server that does not answer all resolve `{ ok: false, message }`.
import { fromPromise } from 'xstate';
import type { Ack } from '../../../contract/events';
import { type AnySystem, systemActor } from '../../shared/system';
import { OFFLINE_MESSAGE, type RealtimeEmit, type ServerRequestInput } from './realtime.protocol';
import { ACK_TIMEOUT_MS, NO_ANSWER } from './realtime.protocol';

export type { ServerRequestInput };

let counter = 0;
const nextRequestId = () => `rq-${Date.now().toString(36)}-${(++counter).toString(36)}`;

export const serverRequest = fromPromise<Ack, ServerRequestInput>(({ input, system, signal }) =>
  requestServer(system, input, signal),
);

/** The same request from inside another effect (a wiring's actor that prepares the payload first). */
export function requestServer(system: AnySystem, input: ServerRequestInput, signal?: AbortSignal): Promise<Ack> {
  const realtime = systemActor(system, 'realtime');
  if (!realtime) return Promise.resolve({ ok: false, message: OFFLINE_MESSAGE });
  const requestId = nextRequestId();
  return new Promise<Ack>((resolve) => {
    // The socket actor times out first; this one covers a socket that went away with the request in flight.
    const timer = setTimeout(() => finish({ ok: false, message: NO_ANSWER }), ACK_TIMEOUT_MS + 1_000);
    const sub = realtime.on('realtime.ack', (e) => {
      if (e.requestId === requestId) finish(e.ack);
    });
    const onAbort = () => finish({ ok: false, message: NO_ANSWER });
    signal?.addEventListener('abort', onAbort);
    function finish(ack: Ack) {
      clearTimeout(timer);
      sub.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      resolve(ack);
    }
    realtime.send({ type: 'realtime.emit', name: input.name, payload: input.payload, requestId } as RealtimeEmit);
  });
}
