// The socket.io gateway on the server's own HTTP server: websocket transport only, frames up to 64 KB, signed-in
// users only (handshake.ts), one room per user, presence from socket counts (presence.ts). Features add their
// client events through `onClientEvent` (conversations/conversation-rooms.ts, calls/call-relay.ts) while the
// server is being built. With REDIS_URL set, events reach sockets on every server process through the Redis
// adapter. realtime.plugin.ts creates it and closes it with the server.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { ClientEvent, ClientEventName, ServerEvent, ServerEventName } from '../../src/contract/events';
import { GUEST_NAMESPACE, type GuestServerEvent, type GuestServerEventName } from '../../src/contract/guests';
import { LIMITS } from '../../src/contract/limits';
import type { Config } from '../config';
import { HttpError } from '../http/errors';
import { clientAddress, connectionOf, proxyTrust } from '../net/client-address';
import { onClientEvent, refuseUnknownEvents } from './client-events';
import { claimsOf, type HandshakeDeps, renewSession, requireSignIn } from './handshake';
import { conversationRoom, type RealtimeHub, userRoom } from './hub';
import { originAllowed } from './origin';
import { createPeerChannel, type PeerChannel } from './peers';
import { createPresence } from './presence';
import { createSocketSessions, type SessionSockets } from './socket-sessions';
import { createTypingRelay } from './typing-relay';

/** One connected socket, as a feature's client-event handler sees it. */
export interface SocketClient {
  readonly userId: string;
  /** This socket's id (unique across server processes). */
  readonly socketId: string;
  join(room: string): Promise<void> | void;
  leave(room: string): Promise<void> | void;
  /** The user's other sockets (other tabs), on every server process. */
  toOwnOtherSockets<K extends ServerEventName>(event: K, payload: ServerEvent<K>): void;
  /** Runs once when this socket's connection ends (closed, or its connection died). */
  onDisconnect(handler: () => void): void;
}

/** Throws an HttpError to refuse the event: its message becomes the acknowledgement {ok:false, message}. */
export type ClientEventHandler<K extends ClientEventName> = (
  data: ClientEvent<K>,
  client: SocketClient,
) => Promise<void> | void;

/**
 * The guests' namespace (GUEST_NAMESPACE): people without an account waiting at a call's door (server/guests). Its
 * sockets hear only their own knock's events and send only what the feature takes (`onGuestEvent`); the feature
 * decides who may connect.
 */
export interface GuestSockets {
  /** Who may open a guest socket: the knock's id for a valid handshake `auth`, else null (set while building). */
  authorize(check: (auth: unknown) => Promise<string | null>): void;
  /** Called for each guest socket once it has joined its knock's room (to tell it where it stands). */
  onConnect(handler: (knockId: string) => void): void;
  /** The one event a guest socket may send (a refusal, thrown as HttpError, becomes its `{ok:false, message}`). */
  onKeyRequest(handler: (knockId: string) => Promise<void>): void;
  /** The knock's sockets, on every server process. */
  toGuest<K extends GuestServerEventName>(knockId: string, event: K, payload: GuestServerEvent<K>): void;
  /** Closes the knock's sockets on every server process. */
  close(knockId: string): void;
  /** Guest sockets connected to this process (metrics). */
  localSockets(): number;
}

export interface Realtime extends RealtimeHub {
  guests: GuestSockets;
  /** Closes a sign-in's sockets (logout). */
  sessions: SessionSockets;
  /** Null on a single process. */
  peers: PeerChannel | null;
  /** Handles a client event on every socket; registered while the server is being built, before it listens. */
  onClientEvent<K extends ClientEventName>(name: K, handler: ClientEventHandler<K>): void;
  /** Called when what users see of others' presence changed (null: anyone's may have). */
  onPresenceChanged(handler: (userIds: readonly string[] | null) => void): void;
  /** Sockets connected to this process (metrics). */
  localSockets(): number;
  /** Pings Redis when it is configured (readiness); resolves false without Redis, rejects when it fails. */
  pingRedis(): Promise<boolean>;
}

export interface Gateway {
  realtime: Realtime;
  /** The server is ready: ask the other processes which users they hold. */
  started(): void;
  /** Before the HTTP server closes: an open websocket would keep it open. */
  stop(): void;
  /** Lets presence writes finish and closes Redis (before the database goes). */
  close(): Promise<void>;
}

class Client implements SocketClient {
  constructor(
    private readonly socket: Socket,
    readonly userId: string,
  ) {}

  join(room: string) {
    return this.socket.join(room);
  }

  leave(room: string) {
    return this.socket.leave(room);
  }

  get socketId() {
    return this.socket.id;
  }

  toOwnOtherSockets<K extends ServerEventName>(event: K, payload: ServerEvent<K>): void {
    this.socket.to(userRoom(this.userId)).emit(event, payload);
  }

  onDisconnect(handler: () => void): void {
    this.socket.once('disconnect', handler);
  }
}

type AnyHandler = (data: unknown, client: SocketClient) => Promise<void> | void;

export function createGateway(httpServer: http.Server, config: Config, deps: HandshakeDeps): Gateway {
  const trust = proxyTrust(config.trustProxy);
  const io = new Server(httpServer, {
    transports: ['websocket'],
    maxHttpBufferSize: LIMITS.socketFrameMaxBytes,
    serveClient: false,
    // A page on another site must not open a socket with a token it got hold of (see origin.ts).
    allowRequest: (req, done) => done(null, originAllowed(connectionOf(req), config.allowedOrigins, trust)),
  });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : null;
  const redisSub = redis?.duplicate() ?? null;
  const serverId = randomUUID();
  const logError = (what: string) => (err: unknown) => {
    if (config.logLevel !== 'silent') console.error(what, err);
  };
  if (redis && redisSub) {
    // ioredis reconnects by itself; an unhandled 'error' event would crash the process instead.
    for (const r of [redis, redisSub]) r.on('error', logError('redis'));
    io.adapter(createAdapter(redis, redisSub, { key: config.redisPrefix }));
  }

  /** Whether a socket in `rooms` is not in `room` (this process's sockets). */
  const anyOutside = (rooms: readonly string[], room: string) => {
    const local = io.sockets.adapter.rooms;
    const inside = local.get(room);
    for (const r of rooms) for (const id of local.get(r) ?? []) if (!inside?.has(id)) return true;
    return false;
  };
  const emitTo = <K extends ServerEventName>(rooms: string[], event: K, payload: ServerEvent<K>) => {
    if (rooms.length) io.to(rooms).emit(event, payload);
  };
  const toUsers: RealtimeHub['toUsers'] = (userIds, event, payload) =>
    emitTo([...new Set(userIds)].map(userRoom), event, payload);

  const typing = createTypingRelay(
    (conversationId, userId, on) =>
      io
        .to(conversationRoom(conversationId))
        .except(userRoom(userId))
        .emit('conversation:typing', { conversationId, userId, typing: on }),
    { clock: deps.clock },
  );

  const presenceListeners: ((userIds: readonly string[] | null) => void)[] = [];
  const lifetimes = createSocketSessions(io, deps.clock);
  const presence = createPresence({
    db: deps.db,
    toUsers,
    changed: (userIds) => {
      for (const listener of presenceListeners) listener(userIds);
    },
    publish: redis ? (userId, online) => io.serverSideEmit('presence', serverId, userId, online) : undefined,
    log: logError('presence update failed'),
  });
  if (redis) {
    // Other processes report their users' first and last sockets, and answer a newcomer's sync request.
    io.on('presence', (from: string, userId: string, online: boolean) => presence.remote(from, userId, online));
    io.on('presence:sync', () => io.serverSideEmit('presence:hello', serverId, presence.localUsers()));
    io.on('presence:hello', (from: string, userIds: string[]) => presence.replaceRemote(from, userIds));
    io.on('presence:bye', (from: string) => presence.replaceRemote(from, []));
  }

  const handlers: { name: ClientEventName; handler: AnyHandler }[] = [];
  let listening = false;
  const log = logError('socket handler failed');

  // The client's address as HTTP reads it (X-Forwarded-For only from a TRUST_PROXY proxy), for whatever limits a
  // socket by where it comes from.
  const noteAddress = (socket: { request: http.IncomingMessage; data: Record<string, unknown> }) => {
    socket.data.clientAddress = clientAddress(connectionOf(socket.request), trust);
  };
  io.use((socket, next) => {
    noteAddress(socket);
    next();
  });
  io.use(requireSignIn(deps, logError('socket handshake failed')));
  io.on('connection', (socket) => {
    const claims = claimsOf(socket);
    const userId = claims.userId;
    void socket.join(userRoom(userId));
    lifetimes.attach(socket, claims);
    presence.connected(userId);
    socket.on('disconnect', () => presence.disconnected(userId));
    refuseUnknownEvents(socket);
    lifetimes.capUser(userId).catch(logError('socket limit check failed'));
    onClientEvent(
      socket,
      'session:renew',
      ({ token }) => renewSession(deps, token, (fresh) => lifetimes.renew(socket, fresh)),
      log,
    );
    const client = new Client(socket, userId);
    for (const { name, handler } of handlers) onClientEvent(socket, name, (data) => handler(data, client), log);
  });

  // Guests: a namespace of its own, so that no user event (rooms per user and conversation) can ever reach them.
  const guestNs = io.of(GUEST_NAMESPACE);
  const knockRoom = (knockId: string) => `knock:${knockId}`;
  let authorizeGuest: ((auth: unknown) => Promise<string | null>) | null = null;
  const guestConnected: ((knockId: string) => void)[] = [];
  let guestKeyRequest: ((knockId: string) => Promise<void>) | null = null;
  guestNs.use(async (socket, next) => {
    noteAddress(socket);
    try {
      const knockId = authorizeGuest ? await authorizeGuest(socket.handshake.auth) : null;
      if (!knockId) return next(new Error('Ссылка недействительна'));
      socket.data.knockId = knockId;
      next();
    } catch (err) {
      logError('guest handshake failed')(err);
      next(new Error('Внутренняя ошибка сервера'));
    }
  });
  guestNs.on('connection', (socket) => {
    const knockId = socket.data.knockId as string;
    void socket.join(knockRoom(knockId));
    socket.onAny((event: string, ...args: unknown[]) => {
      const ack = args.at(-1);
      const answer = typeof ack === 'function' ? (ack as (a: unknown) => void) : () => {};
      if (event !== 'guest:key-request' || !guestKeyRequest)
        return answer({ ok: false, message: 'Гость ничего не отправляет' });
      guestKeyRequest(knockId).then(
        () => answer({ ok: true }),
        (err: unknown) => {
          if (err instanceof HttpError) return answer({ ok: false, message: err.message });
          logError('guest key request failed')(err);
          answer({ ok: false, message: 'Внутренняя ошибка сервера' });
        },
      );
    });
    for (const handler of guestConnected) handler(knockId);
  });

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    typing.close();
    if (redis) io.serverSideEmit('presence:bye', serverId);
    io.disconnectSockets(true);
    guestNs.disconnectSockets(true);
    // Not io.close(): it would close the HTTP server that Fastify closes itself.
    io.engine.close();
  };

  return {
    realtime: {
      toUser: (userId, event, payload) => emitTo([userRoom(userId)], event, payload),
      toUsers,
      toConversation: (conversationId, event, payload) => emitTo([conversationRoom(conversationId)], event, payload),
      toUsersOutside: (userIds, conversationId, event, payload) => {
        if (!userIds.length) return;
        const rooms = [...new Set(userIds)].map(userRoom);
        // On one process every socket is known here: when each of theirs has the conversation open (the usual
        // case of a message in a chat both have open), nothing is encoded for nobody. With Redis, other
        // processes' sockets are not, so it always goes out.
        if (!redis && !anyOutside(rooms, conversationRoom(conversationId))) return;
        io.to(rooms).except(conversationRoom(conversationId)).emit(event, payload);
      },
      relayTyping: (conversationId, userId, on) => typing.typed(conversationId, userId, on),
      typingEnded: (conversationId, userId) => typing.sent(conversationId, userId),
      toUserExcept: (userId, exceptSocketId, event, payload) => {
        const to = io.to(userRoom(userId));
        (exceptSocketId ? to.except(exceptSocketId) : to).emit(event, payload);
      },
      leaveConversation: (userIds, conversationId) => {
        // Published to the other processes (Redis adapter) before the caller answers.
        if (userIds.length) io.in([...new Set(userIds)].map(userRoom)).socketsLeave(conversationRoom(conversationId));
      },
      isOnline: (userId) => presence.isOnline(userId),
      sessions: lifetimes.sessions,
      guests: {
        authorize(check) {
          authorizeGuest = check;
        },
        onConnect(handler) {
          guestConnected.push(handler);
        },
        onKeyRequest(handler) {
          guestKeyRequest = handler;
        },
        toGuest: (knockId, event, payload) => {
          guestNs.to(knockRoom(knockId)).emit(event, payload);
        },
        close: (knockId) => {
          guestNs.in(knockRoom(knockId)).disconnectSockets(true);
        },
        localSockets: () => guestNs.sockets.size,
      },
      peers: redis && redisSub ? createPeerChannel(io, redisSub) : null,
      onClientEvent(name, handler) {
        // A socket gets its handlers when it connects: one added later would be missing on open sockets.
        if (listening) throw new Error(`client event ${name} registered after the server started`);
        handlers.push({ name, handler: handler as AnyHandler });
      },
      onPresenceChanged(listener) {
        presenceListeners.push(listener);
      },
      localSockets: () => io.of('/').sockets.size,
      async pingRedis() {
        if (!redis) return false;
        await redis.ping();
        return true;
      },
    },
    started() {
      listening = true;
      if (redis) io.serverSideEmit('presence:sync', serverId);
    },
    stop,
    async close() {
      stop();
      // Closing sockets starts presence writes and broadcasts: let them finish before Redis and the DB go.
      await presence.settle();
      if (redis && redisSub) {
        // Unsubscribe the adapter first, so no command is left to fail on a closed connection.
        (io.of('/').adapter as unknown as { close(): void }).close();
        (guestNs.adapter as unknown as { close(): void }).close();
        await Promise.allSettled([redis.quit(), redisSub.quit()]);
      }
    },
  };
}
