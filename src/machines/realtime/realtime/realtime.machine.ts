// The realtime connection (docs/behaviour.md §4 Realtime connection, §7 Realtime socket). It connects only once
// the session hands it an access token and only if not already connected; the socket actor owns the socket.io
// client (websocket only), which reconnects by the transport's defaults. A refreshed token is used for the next
// reconnection, and a live socket is handed it too (`session:renew`), so the server does not close it at the
// old token's expiry; the server's `session:expiring` asks the session for that refresh. A handshake the server
// refuses asks the session for a refresh and waits for its answer. A socket the server closes for good
// (`session:closed`: signed out elsewhere, too many tabs) stays closed, with the server's message for the user.
//
// Other actors use it in three ways (src/machines/README.md):
// - `realtime.emit` without requestId: fire and forget (typing); dropped while not connected, unless marked
//   `untilConnected` (a call's signals): then kept while the socket reconnects and sent once it is back.
// - `serverRequest` (server-request.ts): an emit the server acknowledges, answered with its Ack; while not
//   connected the answer is an immediate failure, never silence.
// - `listenToServer` (listen-to-server.ts): server events turned into the listener's own events.
import {
  type ActorRefFrom,
  assertEvent,
  assign,
  type EventObject,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  log,
  sendTo,
  setup,
} from 'xstate';
import type { ConnectivityEvent } from '../connectivity/connectivity.protocol';
import { requestRefresh, SESSION_ENDED_ELSEWHERE } from '../../session/session/session.protocol';
import { notWiredCallback } from '../../shared/not-wired';
import { present } from '../../shared/present';
import { systemActor } from '../../shared/system';
import type { RealtimeEffects, RealtimeEmit } from './realtime.protocol';
import { OFFLINE_MESSAGE, type RealtimeContext, type RealtimeEmitted, type RealtimeEvent } from './realtime.protocol';

export * from './realtime.protocol';

/** The session's token as this machine's events: the current one at once, then every `session.token`. */
export const sessionTokens = fromCallback<EventObject, void, RealtimeEvent>(({ system, sendBack }) => {
  const session = systemActor(system, 'session');
  if (!session) return;
  const tell = (token: string | null) =>
    sendBack(token ? { type: 'realtime.token', token } : { type: 'realtime.stop' });
  tell(session.getSnapshot().context.session?.accessToken ?? null);
  const sub = session.on('session.token', (e) => tell(e.accessToken));
  return () => sub.unsubscribe();
});

export const realtimeMachine = setup({
  types: {
    context: {} as RealtimeContext,
    events: {} as RealtimeEvent,
    emitted: {} as RealtimeEmitted,
  },
  actors: {
    sessionTokens,
    socket: notWiredCallback('realtime.socket') as RealtimeEffects['socket'],
    /** Asks the session (by systemId) for fresh tokens; resolves the new access token, or null. */
    renewToken: fromPromise<string | null>(async ({ system }) => {
      const session = systemActor(system, 'session');
      return session ? requestRefresh(session) : null;
    }),
  },
  guards: {
    serverClosed: ({ event }) => event.type === 'socket.disconnected' && event.reason === 'io server disconnect',
    sessionExpiring: ({ event }) => event.type === 'server.event' && event.name === 'session:expiring',
    sessionClosed: ({ event }) => event.type === 'server.event' && event.name === 'session:closed',
    newToken: ({ context, event }) => event.type === 'realtime.token' && event.token !== context.token,
    // Any token counts, even one equal to the last announced: that one may never have reached a handshake, and
    // two refreshes within one second can mint the same token.
    renewed: (_, token: string | null) => typeof token === 'string',
    refusedAgain: ({ context }) => context.rejections > 0,
    untilConnected: ({ event }) => event.type === 'realtime.emit' && event.untilConnected === true,
  },
  actions: {
    rememberToken: assign({
      token: ({ event }) => {
        assertEvent(event, 'realtime.token');
        return event.token;
      },
    }),
    noteDisconnect: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'socket.disconnected');
      enqueue.assign({ lastDisconnect: event.reason });
      enqueue(log(`realtime: disconnected (${event.reason})`));
    }),
    forgetToken: assign({ token: null, lastDisconnect: null, closedMessage: null, rejections: 0, held: [] }),
    // The same signal twice (two tabs' timers, a repeated click) is kept once.
    hold: assign({
      held: ({ context, event }) => {
        assertEvent(event, 'realtime.emit');
        const same = (e: RealtimeEmit) =>
          e.name === event.name && JSON.stringify(e.payload) === JSON.stringify(event.payload);
        return context.held.some(same) ? context.held : [...context.held, event];
      },
    }),
    dropHeld: assign({ held: [] }),
    countRejection: assign({ rejections: ({ context }) => context.rejections + 1 }),
    noteRefused: assign({
      closedMessage: ({ event }) => {
        assertEvent(event, 'socket.rejected');
        return event.message;
      },
    }),
    noteClosed: assign({
      closedMessage: ({ event }) => {
        assertEvent(event, 'server.event');
        return event.name === 'session:closed' ? event.payload.message : null;
      },
    }),
    // An administrator deactivated the account, or this sign-in was ended elsewhere (another device, «Завершить»,
    // an administrator): the session ends at once, saying why on the sign-in screen (a refresh would only be
    // refused). Too many tabs ends nothing but this socket.
    endClosedSession: enqueueActions(({ system, event, enqueue }) => {
      if (event.type !== 'server.event' || event.name !== 'session:closed') return;
      const { reason } = event.payload;
      if (reason === 'tooManyConnections') return;
      const message = reason === 'deactivated' ? event.payload.message : SESSION_ENDED_ELSEWHERE;
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.ended', message });
    }),
    // Fire and forget: the session announces the new token (realtime.token), which renews the live socket.
    askForRefresh: enqueueActions(({ system, enqueue }) => {
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.refresh' });
    }),
    renewLiveSocket: sendTo('socket', ({ event }) => {
      assertEvent(event, 'realtime.token');
      return { type: 'socket.emit' as const, name: 'session:renew' as const, payload: { token: event.token } };
    }),
    relay: emit(({ event }) => {
      assertEvent(event, 'server.event');
      return event;
    }),
    announceConnected: enqueueActions(({ context, system, enqueue }) => {
      // What waited for the socket goes first, in the order it was made.
      for (const e of context.held)
        enqueue.sendTo('socket', { type: 'socket.emit', name: e.name, payload: e.payload, requestId: e.requestId });
      enqueue.assign({ rejections: 0, held: [] });
      enqueue.emit({ type: 'realtime.connected' as const });
      // The link is up again: the indicator measures it now rather than at the next ping, up to 15 s away.
      const connectivity = systemActor(system, 'connectivity');
      if (connectivity) enqueue.sendTo(connectivity, { type: 'connectivity.check' } satisfies ConnectivityEvent);
    }),
    forwardAck: emit(({ event }) => {
      assertEvent(event, 'socket.ack');
      return { type: 'realtime.ack' as const, requestId: event.requestId, ack: event.ack };
    }),
    forwardEmit: sendTo('socket', ({ event }) => {
      assertEvent(event, 'realtime.emit');
      return { type: 'socket.emit' as const, name: event.name, payload: event.payload, requestId: event.requestId };
    }),
    // Not connected: a request gets an immediate failure; a fire-and-forget emit is dropped (the socket.io
    // buffer would deliver stale typing or joins later; listeners resynchronise on realtime.connected).
    refuseOffline: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'realtime.emit');
      const { requestId } = event;
      if (requestId !== undefined) {
        enqueue.emit({ type: 'realtime.ack', requestId, ack: { ok: false, message: OFFLINE_MESSAGE } });
      }
    }),
    passTokenToSocket: sendTo('socket', ({ event }) => {
      assertEvent(event, 'realtime.token');
      return { type: 'socket.auth' as const, token: event.token };
    }),
  },
}).createMachine({
  id: 'realtime',
  context: { token: null, lastDisconnect: null, closedMessage: null, rejections: 0, held: [] },
  invoke: { id: 'sessionTokens', src: 'sessionTokens' },
  initial: 'idle',
  on: { 'realtime.emit': { actions: 'refuseOffline' } },
  states: {
    idle: {
      on: { 'realtime.token': { target: 'online', actions: 'rememberToken' } },
    },
    online: {
      invoke: { id: 'socket', src: 'socket', input: ({ context }) => ({ token: present(context.token, 'token') }) },
      initial: 'connecting',
      on: {
        // Not connected yet (connected forwards): a call's signal waits for the socket.
        'realtime.emit': [{ guard: 'untilConnected', actions: 'hold' }, { actions: 'refuseOffline' }],
        'realtime.token': { guard: 'newToken', actions: ['rememberToken', 'passTokenToSocket'] },
        'realtime.stop': { target: 'idle', actions: 'forgetToken' },
        'socket.rejected': [
          // Refused again right after a refresh: a new token will not help (another site, a revoked sign-in).
          { guard: 'refusedAgain', target: 'closed', actions: 'noteRefused' },
          { target: 'rejected', actions: 'countRejection' },
        ],
        'server.event': [
          { guard: 'sessionExpiring', actions: ['relay', 'askForRefresh'] },
          // Signed out in another tab, or too many tabs: no reconnection. A sign-out elsewhere revoked the refresh
          // token, so asking for a refresh ends this tab's session as well.
          {
            guard: 'sessionClosed',
            target: 'closed',
            actions: ['relay', 'noteClosed', 'endClosedSession', 'askForRefresh'],
          },
          { actions: 'relay' },
        ],
        'socket.ack': { actions: 'forwardAck' },
      },
      states: {
        connecting: {
          on: { 'socket.connected': { target: 'connected', actions: 'announceConnected' } },
        },
        connected: {
          tags: ['live'],
          on: {
            'realtime.emit': { actions: 'forwardEmit' },
            'realtime.token': { guard: 'newToken', actions: ['rememberToken', 'passTokenToSocket', 'renewLiveSocket'] },
            // Only logged; socket.io reconnects by itself.
            'socket.disconnected': [
              // The server closed the socket on purpose: socket.io will not retry, so renew the token first.
              { guard: 'serverClosed', target: '#realtime.rejected', actions: 'noteDisconnect' },
              { target: 'reconnecting', actions: 'noteDisconnect' },
            ],
          },
        },
        reconnecting: {
          // The layout says so (the link was up and dropped: a restart, a network change).
          tags: ['reconnecting'],
          on: { 'socket.connected': { target: 'connected', actions: 'announceConnected' } },
        },
      },
    },
    closed: {
      // Closed for good: nothing held will be sent.
      entry: 'dropHeld',
      on: {
        'realtime.token': {
          guard: 'newToken',
          target: 'online',
          actions: ['rememberToken', assign({ closedMessage: null, rejections: 0 })],
        },
        'realtime.stop': { target: 'idle', actions: 'forgetToken' },
      },
    },
    rejected: {
      // The session answers every refresh request, also one that arrives while it is already refreshing.
      invoke: {
        id: 'renewToken',
        src: 'renewToken',
        onDone: [
          {
            guard: { type: 'renewed', params: ({ event }) => event.output },
            target: 'online',
            actions: assign({ token: ({ event }) => event.output }),
          },
          { target: 'idle', actions: 'forgetToken' },
        ],
        onError: { target: 'idle', actions: 'forgetToken' },
      },
      on: {
        'realtime.emit': [{ guard: 'untilConnected', actions: 'hold' }, { actions: 'refuseOffline' }],
        'realtime.token': { guard: 'newToken', target: 'online', actions: 'rememberToken' },
        'realtime.stop': { target: 'idle', actions: 'forgetToken' },
      },
    },
  },
});

export type RealtimeActorRef = ActorRefFrom<typeof realtimeMachine>;
