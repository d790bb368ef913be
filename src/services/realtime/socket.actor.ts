// The socket actor: owns one socket.io client for the realtime machine. It reports connection changes and
// every server event back to the machine, and carries out its commands: a fresh token for the next
// reconnection, and emits, with the server's acknowledgement when one is asked for.
import { fromCallback } from 'xstate';
import { SERVER_EVENT_NAMES } from '../../contract/event-names';
import type { Ack } from '../../contract/events';
import { isRecord } from '../../contract/shape';
import type { Socket } from 'socket.io-client';
import {
  ACK_TIMEOUT_MS,
  NO_ANSWER,
  type ServerEventMessage,
  type SocketCommand,
} from '../../machines/realtime/realtime/realtime.protocol';
import type { AppSocket } from './socket';

/**
 * Opens the socket for a token. It may answer later (a promise): the composition root loads socket.io-client on
 * demand, so it is not in the chats page's first bundle (bench/client measures it).
 */
export type SocketConnector = (token: string) => AppSocket | Promise<AppSocket>;

/** Points the next (re)connection at a fresh token; socket.io reads auth and query on every attempt. */
export function updateSocketToken(socket: AppSocket, token: string): void {
  socket.auth = { token };
  socket.io.opts.query = { ...(socket.io.opts.query as Record<string, string> | undefined), token };
}

/** The server's acknowledgement as the contract shapes it; anything else is a failure, not a success. */
function toAck(raw: unknown): Ack {
  const r = raw as { ok?: unknown; message?: unknown } | null;
  if (r && r.ok === true) return raw as Ack;
  const message = r && typeof r.message === 'string' && r.message ? r.message : NO_ANSWER;
  return { ...(r ?? {}), ok: false, message } as Ack;
}

export function socketActor(connect: SocketConnector) {
  return fromCallback<SocketCommand, { token: string }>(({ input, sendBack, receive }) => {
    let socket: AppSocket | null = null;
    let stopped = false;
    /** The newest token, for a socket that is still on its way. */
    let token = input.token;

    const attach = (opened: AppSocket) => {
      if (stopped) {
        opened.disconnect();
        return;
      }
      socket = opened;
      if (token !== input.token) updateSocketToken(opened, token);
      listen(opened);
    };

    const listen = (s: AppSocket) => {
      s.on('connect', () => sendBack({ type: 'socket.connected' }));
      s.on('disconnect', (reason) => sendBack({ type: 'socket.disconnected', reason }));
      s.on('connect_error', (err) => {
        // socket.active stays true for transport errors (socket.io retries); false means the server said no.
        if (!s.active) sendBack({ type: 'socket.rejected', message: err.message });
      });
      // Payloads are not parsed against the contract here (that would put zod in the bundle): our own server
      // sends them, and the server tests check every event it sends against the contract's schemas
      // (tests/server/socket-helpers.ts). Only a frame that is not an object at all is dropped, so garbage
      // cannot reach a machine that reads fields of it.
      for (const name of SERVER_EVENT_NAMES) {
        untyped(s).on(name, (payload) => {
          if (isRecord(payload)) sendBack({ type: 'server.event', name, payload } as ServerEventMessage);
          else console.warn(`realtime: ${name} payload is not an object; dropped`);
        });
      }
    };

    const opening = connect(input.token);
    if (opening instanceof Promise) {
      // The connector keeps trying until it has a socket; the machine waits in 'connecting' meanwhile.
      void opening.then(attach);
    } else {
      attach(opening);
    }

    receive((cmd) => {
      if (cmd.type === 'socket.auth') {
        token = cmd.token;
        if (socket) updateSocketToken(socket, token);
        return;
      }
      const { requestId } = cmd;
      // The machine emits only while connected, so a socket exists; without one an ask is still answered.
      if (!socket) {
        if (requestId !== undefined)
          sendBack({ type: 'socket.ack', requestId, ack: { ok: false, message: NO_ANSWER } });
        return;
      }
      if (requestId === undefined) {
        untyped(socket).emit(cmd.name, cmd.payload);
        return;
      }
      untyped(socket)
        .timeout(ACK_TIMEOUT_MS)
        .emit(cmd.name, cmd.payload, (err: Error | null, answer?: unknown) => {
          sendBack({ type: 'socket.ack', requestId, ack: err ? { ok: false, message: NO_ANSWER } : toAck(answer) });
        });
    });
    return () => {
      stopped = true;
      socket?.removeAllListeners();
      socket?.disconnect();
    };
  });
}

/** The socket without its event typing: one generic listener per contract event, emits by name. */
function untyped(socket: AppSocket): Socket {
  return socket as Socket;
}
