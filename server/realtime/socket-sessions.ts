// A socket lives no longer than the sign-in it was opened with: it is told before its access token expires,
// may be handed a fresh one (`session:renew`), and is closed when the token runs out, when that sign-in is
// signed out (on every server process: the rooms go through the Redis adapter when configured), or when the
// user holds too many sockets (the oldest go). The event semantics are written in src/contract/events.ts.
import type { Server, Socket } from 'socket.io';
import type { ServerEvent } from '../../src/contract/events';
import type { AccessClaims } from '../auth/access-tokens';
import { type Clock, type ClockTimer, systemClock } from '../clock';
import { userRoom } from './hub';

export const SOCKETS_PER_USER_MAX = 20;
/** How long before the token's expiry the client is asked for a fresh one (at most 90 % of its remaining life). */
export const EXPIRY_NOTICE_MS = 60_000;

export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export const CLOSED_MESSAGES: Record<ServerEvent<'session:closed'>['reason'], string> = {
  logout: 'Вы вышли из аккаунта',
  deactivated: 'Аккаунт отключён администратором',
  tooManyConnections: 'Слишком много открытых вкладок: эта закрыта. Обновите страницу, чтобы продолжить здесь.',
};

export interface SessionSockets {
  /** Closes every socket of that sign-in, on every server process, telling each client why. */
  close(sessionId: string, reason: 'logout' | 'deactivated'): Promise<void>;
}

interface Lifetime {
  userId: string;
  sessionId: string;
  expiresAt: number;
  notice?: ClockTimer;
  deadline?: ClockTimer;
}

const lifetimes = new WeakMap<Socket, Lifetime>();

export function createSocketSessions(io: Server, clock: Clock = systemClock) {
  const closeWith = (room: string, reason: ServerEvent<'session:closed'>['reason']) => {
    io.to(room).emit('session:closed', { reason, message: CLOSED_MESSAGES[reason] });
    // After the event: the adapter delivers both in order, and a socket flushes what it was sent before closing.
    io.in(room).disconnectSockets(true);
  };

  function schedule(socket: Socket, life: Lifetime): void {
    clock.clearTimeout(life.notice);
    clock.clearTimeout(life.deadline);
    const left = life.expiresAt - clock.now();
    const notify = () => socket.emit('session:expiring', { expiresAt: new Date(life.expiresAt).toISOString() });
    // 60 s ahead, but never at once for a token that still has most of its life: a client renewing with short
    // tokens (ACCESS_TOKEN_TTL of a few seconds) would otherwise be told again on every renewal, a refresh storm.
    const lead = Math.min(EXPIRY_NOTICE_MS, left * 0.9);
    if (left <= 0) notify();
    else life.notice = clock.setTimeout(notify, left - lead);
    life.deadline = clock.setTimeout(
      () => {
        socket.emit('session:expired', {});
        socket.disconnect(true);
      },
      Math.max(0, left),
    );
  }

  return {
    /** A newly connected socket: join its session's room and start counting down its token. */
    attach(socket: Socket, claims: AccessClaims): void {
      const life: Lifetime = { ...claims };
      lifetimes.set(socket, life);
      socket.data.connectedAt = clock.now();
      void socket.join(sessionRoom(claims.sessionId));
      schedule(socket, life);
      socket.on('disconnect', () => {
        clock.clearTimeout(life.notice);
        clock.clearTimeout(life.deadline);
      });
    },

    /** `session:renew`: the caller has verified the token; it must belong to the socket's user. */
    renew(socket: Socket, claims: AccessClaims): boolean {
      const life = lifetimes.get(socket);
      if (!life || claims.userId !== life.userId) return false;
      if (claims.sessionId !== life.sessionId) {
        // Signed in again in this tab: the socket now belongs to the new sign-in.
        void socket.leave(sessionRoom(life.sessionId));
        void socket.join(sessionRoom(claims.sessionId));
      }
      life.sessionId = claims.sessionId;
      life.expiresAt = claims.expiresAt;
      schedule(socket, life);
      return true;
    },

    /** Keeps the user's newest SOCKETS_PER_USER_MAX sockets (counted on every process) and closes the rest. */
    async capUser(userId: string): Promise<void> {
      const sockets = await io.in(userRoom(userId)).fetchSockets();
      if (sockets.length <= SOCKETS_PER_USER_MAX) return;
      // One total order (time, then id), so concurrent checks agree on which are the oldest.
      const order = (s: (typeof sockets)[number]) => [Number(s.data.connectedAt ?? 0), s.id] as const;
      sockets.sort((a, b) => {
        const [ta, ia] = order(a);
        const [tb, ib] = order(b);
        return ta - tb || (ia < ib ? -1 : ia > ib ? 1 : 0);
      });
      for (const s of sockets.slice(0, sockets.length - SOCKETS_PER_USER_MAX)) closeWith(s.id, 'tooManyConnections');
    },

    sessions: {
      close: async (sessionId: string, reason: 'logout' | 'deactivated') => closeWith(sessionRoom(sessionId), reason),
    } satisfies SessionSockets,
  };
}
