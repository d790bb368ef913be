// The realtime connection (spec points 4 and 7). It connects only once the session hands it an access token
// and only if not already connected; the socket actor owns the socket.io client (websocket only) and
// reconnects by the transport's defaults. A refreshed token is used for the next reconnection; a handshake
// the server refuses asks the session for a refresh and reconnects with the new token.
import { assign, emit, enqueueActions, fromCallback, log, sendTo, setup } from 'xstate';
import { type ClientEventName, type ServerEventName, serverEvents } from '../../contract/events';
import { type AppSocket, createSocket, updateSocketToken } from '../../services/socket';

export type ServerEventMessage = { type: 'server.event'; name: ServerEventName; payload: unknown };

/** What the socket actor reports to the machine. */
export type SocketReport =
  | { type: 'socket.connected' }
  | { type: 'socket.disconnected'; reason: string }
  /** The server refused the handshake (no automatic retry follows): usually an expired token. */
  | { type: 'socket.rejected'; message: string }
  | ServerEventMessage;

export type RealtimeEvent =
  | { type: 'realtime.token'; token: string }
  | { type: 'realtime.stop' }
  /** Something for the server (call:invite, conversation:join …), sent only while the socket exists. */
  | { type: 'realtime.emit'; name: ClientEventName; payload: unknown }
  | SocketReport;

export interface RealtimeContext {
  token: string | null;
  lastDisconnect: string | null;
}

/** Commands the machine gives its socket actor. */
export type SocketCommand =
  | { type: 'socket.auth'; token: string }
  | { type: 'socket.emit'; name: ClientEventName; payload: unknown };

export const socketActor = fromCallback<SocketCommand, { token: string }>(({ input, sendBack, receive }) => {
  const socket: AppSocket = createSocket(input.token);
  socket.on('connect', () => sendBack({ type: 'socket.connected' }));
  socket.on('disconnect', (reason) => sendBack({ type: 'socket.disconnected', reason }));
  socket.on('connect_error', (err) => {
    // socket.active stays true for transport errors (socket.io retries); false means the server said no.
    if (!socket.active) sendBack({ type: 'socket.rejected', message: err.message });
  });
  for (const name of Object.keys(serverEvents) as ServerEventName[]) {
    socket.on(name, ((payload: unknown) => sendBack({ type: 'server.event', name, payload })) as never);
  }
  receive((cmd) => {
    if (cmd.type === 'socket.auth') updateSocketToken(socket, cmd.token);
    else (socket.emit as (n: string, p: unknown) => void)(cmd.name, cmd.payload);
  });
  return () => {
    socket.removeAllListeners();
    socket.disconnect();
  };
});

export const realtimeMachine = setup({
  types: {
    context: {} as RealtimeContext,
    events: {} as RealtimeEvent,
    emitted: {} as ServerEventMessage,
  },
  actors: { socket: socketActor },
  guards: {
    serverClosed: ({ event }) => event.type === 'socket.disconnected' && event.reason === 'io server disconnect',
    newToken: ({ context, event }) => event.type === 'realtime.token' && event.token !== context.token,
  },
  actions: {
    rememberToken: assign({ token: ({ event }) => (event as { token: string }).token }),
    noteDisconnect: enqueueActions(({ event, enqueue }) => {
      const reason = (event as { reason: string }).reason;
      enqueue.assign({ lastDisconnect: reason });
      enqueue(log(`realtime: disconnected (${reason})`));
    }),
    forgetToken: assign({ token: null, lastDisconnect: null }),
    // Hands server events to whoever listens (later actors subscribe by systemId 'realtime').
    relay: emit(({ event }) => event as ServerEventMessage),
    askForRefresh: enqueueActions(({ system, enqueue }) => {
      const session = system.get('session');
      if (session) enqueue.sendTo(session, { type: 'session.refresh' });
    }),
  },
  delays: { rejectedRetry: 3_000 },
}).createMachine({
  id: 'realtime',
  context: { token: null, lastDisconnect: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'realtime.token': { target: 'online', actions: 'rememberToken' } },
    },
    online: {
      invoke: { id: 'socket', src: 'socket', input: ({ context }) => ({ token: context.token! }) },
      initial: 'connecting',
      on: {
        'realtime.token': {
          guard: 'newToken',
          actions: ['rememberToken', sendTo('socket', ({ event }) => ({ type: 'socket.auth' as const, token: event.token }))],
        },
        'realtime.stop': { target: 'idle', actions: 'forgetToken' },
        'socket.rejected': 'rejected',
        'server.event': { actions: 'relay' },
        'realtime.emit': {
          actions: sendTo('socket', ({ event }) => ({ type: 'socket.emit' as const, name: event.name, payload: event.payload })),
        },
      },
      states: {
        connecting: {
          on: { 'socket.connected': 'connected' },
        },
        connected: {
          on: {
            // Only logged; socket.io reconnects by itself.
            'socket.disconnected': [
              // The server closed the socket on purpose: socket.io will not retry, so renew the token first.
              { guard: 'serverClosed', target: '#realtime.rejected', actions: 'noteDisconnect' },
              { target: 'reconnecting', actions: 'noteDisconnect' },
            ],
          },
        },
        reconnecting: {
          on: { 'socket.connected': 'connected' },
        },
      },
    },
    rejected: {
      entry: 'askForRefresh',
      // The session ignores a refresh request while it is already refreshing or restoring; if no new token has
      // come by then, ask again rather than stay offline for good.
      after: { rejectedRetry: { target: 'rejected', reenter: true } },
      on: {
        'realtime.token': { guard: 'newToken', target: 'online', actions: 'rememberToken' },
        'realtime.stop': { target: 'idle', actions: 'forgetToken' },
      },
    },
  },
});
