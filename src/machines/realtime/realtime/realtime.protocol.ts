// The realtime actor's protocol (systemId 'realtime'): what it accepts, what it emits to its listeners, and what
// its socket actor reports. Peers import this module (or use listen-to-server.ts / server-request.ts), never
// realtime.machine.ts.
import type { Ack, ClientEvent, ClientEventName, ServerEvent, ServerEventName } from '../../../contract/events';
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic } from 'xstate';

export const OFFLINE_MESSAGE = 'Нет соединения с сервером';

/** A client event the server acknowledges: its name with its payload (server-request.ts). */
export type ServerRequestInput = { [K in ClientEventName]: { name: K; payload: ClientEvent<K> } }[ClientEventName];

/** Server events as the realtime actor hands them on: one member per contract event, so narrowing on `name` types the payload. */
export type ServerEventMessage = {
  [K in ServerEventName]: { type: 'server.event'; name: K; payload: ServerEvent<K> };
}[ServerEventName];

/**
 * `untilConnected`: a fire-and-forget signal that must not be lost to a reconnection (a call's decline or hang-up):
 * kept while the socket is reconnecting and sent once it is back, instead of dropped.
 */
export type RealtimeEmit = {
  [K in ClientEventName]: {
    type: 'realtime.emit';
    name: K;
    payload: ClientEvent<K>;
    requestId?: string;
    untilConnected?: true;
  };
}[ClientEventName];

/** What the socket actor reports to the machine. */
export type SocketReport =
  | { type: 'socket.connected' }
  | { type: 'socket.disconnected'; reason: string }
  /** The server refused the handshake (no automatic retry follows): usually an expired token. */
  | { type: 'socket.rejected'; message: string }
  | { type: 'socket.ack'; requestId: string; ack: Ack }
  | ServerEventMessage;

export type RealtimeEvent =
  /** The session's access token (its `session.token`, heard through the sessionTokens actor). */
  { type: 'realtime.token'; token: string } | { type: 'realtime.stop' } | RealtimeEmit | SocketReport;

/** What the realtime actor emits to its listeners (`realtimeRef.on(type, …)`). */
export type RealtimeEmitted =
  | ServerEventMessage
  /** The answer to a `realtime.emit` that carried a requestId. */
  | { type: 'realtime.ack'; requestId: string; ack: Ack }
  /** Every (re)connection: listeners resynchronise (rejoin rooms, refetch, flush an outbox). */
  | { type: 'realtime.connected' };

export interface RealtimeContext {
  token: string | null;
  lastDisconnect: string | null;
  /** Why the server closed the socket for good (shown to the user), or null. */
  closedMessage: string | null;
  /** Handshakes refused since the last successful connection (a fresh token that is refused too ends retrying). */
  rejections: number;
  /** `untilConnected` emits made while the socket was reconnecting, sent when it connects. */
  held: RealtimeEmit[];
}

export type RealtimeRef = MachineRef<RealtimeContext, RealtimeEvent, RealtimeEmitted>;

/** The machine's port: the effects it leaves to its feature's services (src/services/realtime/realtime.effects.ts). */
export interface RealtimeEffects {
  socket: CallbackActorLogic<SocketCommand, { token: string }>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    realtime: RealtimeRef;
  }
}

/** How long an acknowledged emit waits for the server before it counts as failed. */
export const ACK_TIMEOUT_MS = 10_000;
export const NO_ANSWER = 'Сервер не ответил';

/** Commands the machine gives its socket actor (src/services/realtime/socket.actor.ts). */
export type SocketCommand =
  | { type: 'socket.auth'; token: string }
  | { type: 'socket.emit'; name: ClientEventName; payload: unknown; requestId?: string };
