// The socket actor: owns one socket.io client for the realtime machine. It reports connection changes and
// every server event back to the machine, and carries out its commands: a fresh token for the next
// reconnection, and emits, with the server's acknowledgement when one is asked for.
import { fromCallback } from 'xstate';
import { SERVER_EVENT_NAMES } from '../../contract/event-names';
import type { Ack, ClientEventName } from '../../contract/events';
import { isRecord } from '../../contract/shape';
import { type AppSocket, updateSocketToken } from '../../services/socket';
import type { ServerEventMessage } from './server-event';

/** How long an acknowledged emit waits for the server before it counts as failed. */
export const ACK_TIMEOUT_MS = 10_000;
export const NO_ANSWER = 'Сервер не ответил';

/** What the socket actor reports to the machine. */
export type SocketReport =
  | { type: 'socket.connected' }
  | { type: 'socket.disconnected'; reason: string }
  /** The server refused the handshake (no automatic retry follows): usually an expired token. */
  | { type: 'socket.rejected'; message: string }
  | { type: 'socket.ack'; requestId: string; ack: Ack }
  | ServerEventMessage;

/** Commands the machine gives its socket actor. */
export type SocketCommand =
  | { type: 'socket.auth'; token: string }
  | { type: 'socket.emit'; name: ClientEventName; payload: unknown; requestId?: string };

export type SocketConnector = (token: string) => AppSocket;

/** The server's acknowledgement as the contract shapes it; anything else is a failure, not a success. */
function toAck(raw: unknown): Ack {
  const r = raw as { ok?: unknown; message?: unknown } | null;
  if (r && r.ok === true) return raw as Ack;
  const message = r && typeof r.message === 'string' && r.message ? r.message : NO_ANSWER;
  return { ...(r ?? {}), ok: false, message } as Ack;
}

export function socketActor(connect: SocketConnector) {
  return fromCallback<SocketCommand, { token: string }>(({ input, sendBack, receive }) => {
    const socket = connect(input.token);
    socket.on('connect', () => sendBack({ type: 'socket.connected' }));
    socket.on('disconnect', (reason) => sendBack({ type: 'socket.disconnected', reason }));
    socket.on('connect_error', (err) => {
      // socket.active stays true for transport errors (socket.io retries); false means the server said no.
      if (!socket.active) sendBack({ type: 'socket.rejected', message: err.message });
    });
    // Untyped here on purpose: one generic listener per contract event.
    const untyped = socket as unknown as {
      on(name: string, listener: (payload: unknown) => void): void;
      emit(name: string, payload: unknown, ack?: (err: Error | null, answer?: unknown) => void): void;
      timeout(ms: number): { emit(name: string, payload: unknown, ack: (err: Error | null, answer?: unknown) => void): void };
    };
    // Payloads are not parsed against the contract here (that would put zod in the bundle): our own server
    // sends them, and the server tests check every event it sends against the contract's schemas
    // (tests/server/socket-helpers.ts). Only a frame that is not an object at all is dropped, so garbage cannot
    // reach a machine that reads fields of it.
    for (const name of SERVER_EVENT_NAMES) {
      untyped.on(name, (payload) => {
        if (isRecord(payload)) sendBack({ type: 'server.event', name, payload } as ServerEventMessage);
        else console.warn(`realtime: ${name} payload is not an object; dropped`);
      });
    }
    receive((cmd) => {
      if (cmd.type === 'socket.auth') {
        updateSocketToken(socket, cmd.token);
        return;
      }
      const { requestId } = cmd;
      if (requestId === undefined) {
        untyped.emit(cmd.name, cmd.payload);
        return;
      }
      untyped.timeout(ACK_TIMEOUT_MS).emit(cmd.name, cmd.payload, (err, answer) => {
        sendBack({ type: 'socket.ack', requestId, ack: err ? { ok: false, message: NO_ANSWER } : toAck(answer) });
      });
    });
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  });
}
