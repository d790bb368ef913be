// The socket.io gateway on the server's own HTTP server: websocket transport only, frames up to 64 KB,
// the access token checked in the handshake, one room per user and one per joined conversation.
// With REDIS_URL set, events reach sockets on every server process through the Redis adapter.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { ServerEvent, ServerEventName } from '../../src/contract/events';
import { LIMITS } from '../../src/contract/limits';
import type { AccessClaims } from '../auth/access-tokens';
import { isSessionActive } from '../auth/refresh-tokens';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { membersFor, requireMember } from '../conversations/membership';
import { HttpError, notFound } from '../http/errors';
import { onClientEvent, refuseUnknownEvents } from './client-events';
import { conversationRoom, type RealtimeHub, userRoom } from './hub';
import { originAllowed } from './origin';
import { createPresence } from './presence';
import { createSocketSessions, type SessionSockets } from './socket-sessions';

/** Notices between the server processes of one deployment (over Redis, beside the socket adapter). */
export interface PeerChannel {
  emit(event: string, ...args: unknown[]): void;
  on(event: string, handler: (...args: unknown[]) => void): void;
  /** After the subscription was re-established: notices sent meanwhile may be lost. */
  onResubscribed(handler: () => void): void;
}

export interface Gateway {
  io: Server;
  /** Null on a single process. */
  peers: PeerChannel | null;
  hub: RealtimeHub;
  /** Closes a sign-in's sockets (logout). */
  sessions: SessionSockets;
  /** Starts accepting sockets; called once the context (database, tokens) exists. */
  start(ctx: AppContext): void;
  close(): Promise<void>;
}

const idOf = (ref: string | { conversationId: string }) => (typeof ref === 'string' ? ref : ref.conversationId);

export function createGateway(httpServer: http.Server, config: Config): Gateway {
  const io = new Server(httpServer, {
    transports: ['websocket'],
    maxHttpBufferSize: LIMITS.socketFrameMaxBytes,
    serveClient: false,
    // A page on another site must not open a socket with a token it got hold of (see origin.ts).
    allowRequest: (req, done) => done(null, originAllowed(req.headers, config.allowedOrigins)),
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
    io.adapter(createAdapter(redis, redisSub));
  }

  let ctx: AppContext | null = null;
  const lifetimes = createSocketSessions(io);
  const presence = createPresence(() => ctx as AppContext, {
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

  const emitTo = <K extends ServerEventName>(rooms: string[], event: K, payload: ServerEvent<K>) => {
    if (rooms.length) io.to(rooms).emit(event, payload);
  };
  const hub: RealtimeHub = {
    toUser: (userId, event, payload) => emitTo([userRoom(userId)], event, payload),
    toUsers: (userIds, event, payload) => emitTo([...new Set(userIds)].map(userRoom), event, payload),
    toConversation: (conversationId, event, payload) => emitTo([conversationRoom(conversationId)], event, payload),
    toUsersOutside: (userIds, conversationId, event, payload) => {
      if (userIds.length) io.to([...new Set(userIds)].map(userRoom)).except(conversationRoom(conversationId)).emit(event, payload);
    },
    isOnline: (userId) => presence.isOnline(userId),
  };

  function handleSocket(app: AppContext, socket: Socket): void {
    const claims = socket.data.claims as AccessClaims;
    const userId = claims.userId;
    const log = logError('socket handler failed');
    void socket.join(userRoom(userId));
    lifetimes.attach(socket, claims);
    presence.connected(userId);
    socket.on('disconnect', () => presence.disconnected(userId));
    refuseUnknownEvents(socket);
    lifetimes.capUser(userId).catch(logError('socket limit check failed'));

    onClientEvent(
      socket,
      'session:renew',
      async ({ token }) => {
        const fresh = await app.accessTokens.claims(token);
        const ok = fresh && (await isSessionActive(app.db, fresh.sessionId)) && lifetimes.renew(socket, fresh);
        if (!ok) throw new HttpError(401, 'Токен недействителен или выдан другому пользователю');
      },
      log,
    );

    const others = async (conversationId: string) =>
      (await membersFor(app.db, conversationId, userId)).filter((id) => id !== userId);
    const me = async () => {
      const u = await app.db.selectFrom('users').select(['id', 'display_name']).where('id', '=', userId).executeTakeFirst();
      if (!u) throw notFound('Пользователь не найден');
      return { id: u.id, name: u.display_name };
    };

    onClientEvent(
      socket,
      'conversation:join',
      async (ref) => {
        await requireMember(app.db, idOf(ref), userId);
        await socket.join(conversationRoom(idOf(ref)));
      },
      log,
    );
    onClientEvent(socket, 'conversation:leave', (ref) => socket.leave(conversationRoom(idOf(ref))), log);
    onClientEvent(
      socket,
      'conversation:typing',
      async ({ conversationId, typing }) => {
        // To members' user rooms, so a member sees it whether or not the conversation is joined.
        hub.toUsers(await others(conversationId), 'conversation:typing', { conversationId, userId, typing });
      },
      log,
    );

    onClientEvent(
      socket,
      'call:invite',
      async ({ conversationId, video }) => {
        const to = await others(conversationId);
        // Nobody to ring: the caller is told at once instead of waiting for an answer that cannot come.
        if (!to.some((id) => hub.isOnline(id))) {
          throw new HttpError(409, to.length > 1 ? 'Никого из участников беседы нет в сети' : 'Собеседник не в сети');
        }
        hub.toUsers(to, 'call:incoming', { conversationId, from: await me(), video });
      },
      log,
    );
    onClientEvent(
      socket,
      'call:accept',
      async ({ conversationId, video }) => {
        const to = await others(conversationId);
        const payload = { conversationId, from: await me(), video };
        hub.toUsers(to, 'call:accepted', payload);
        // The user's other tabs stop ringing (everything else in call:* goes to the other members only).
        socket.to(userRoom(userId)).emit('call:accepted', payload);
      },
      log,
    );
    onClientEvent(
      socket,
      'call:decline',
      async ({ conversationId }) => {
        const to = await others(conversationId);
        const payload = { conversationId, from: await me() };
        hub.toUsers(to, 'call:declined', payload);
        socket.to(userRoom(userId)).emit('call:declined', payload);
      },
      log,
    );
    onClientEvent(
      socket,
      'call:end',
      async ({ conversationId }) => {
        const to = await others(conversationId);
        hub.toUsers(to, 'call:ended', { conversationId, from: await me() });
      },
      log,
    );
  }

  const peers: PeerChannel | null =
    redis && redisSub
      ? {
          emit: (event, ...args) => io.serverSideEmit(event, ...args),
          on: (event, handler) => io.on(event, handler),
          onResubscribed: (handler) => {
            let first = true;
            redisSub.on('ready', () => {
              if (!first) handler();
              first = false;
            });
          },
        }
      : null;

  return {
    io,
    peers,
    hub,
    sessions: lifetimes.sessions,
    start(app) {
      ctx = app;
      if (redis) io.serverSideEmit('presence:sync', serverId);
      io.use(async (socket, next) => {
        const auth = socket.handshake.auth as { token?: unknown } | undefined;
        const query = socket.handshake.query?.token;
        const token = typeof auth?.token === 'string' ? auth.token : typeof query === 'string' ? query : null;
        try {
          const claims = await app.accessTokens.claims(token);
          // A token outlives its sign-in by up to its TTL: a signed-out session opens no new socket.
          if (!claims || !(await isSessionActive(app.db, claims.sessionId))) return next(new Error('Требуется вход'));
          socket.data.claims = claims;
          socket.data.userId = claims.userId;
          next();
        } catch (err) {
          logError('socket handshake failed')(err);
          next(new Error('Внутренняя ошибка сервера'));
        }
      });
      io.on('connection', (socket) => handleSocket(app, socket));
    },
    async close() {
      if (redis) io.serverSideEmit('presence:bye', serverId);
      io.disconnectSockets(true);
      // Not io.close(): it would close the HTTP server that Fastify closes itself.
      io.engine.close();
      // Closing sockets starts presence writes and broadcasts: let them finish before Redis and the DB go.
      await presence.settle();
      if (redis && redisSub) {
        // Unsubscribe the adapter first, so no command is left to fail on a closed connection.
        (io.of('/').adapter as unknown as { close(): void }).close();
        await Promise.allSettled([redis.quit(), redisSub.quit()]);
      }
    },
  };
}
