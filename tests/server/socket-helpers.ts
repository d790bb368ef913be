// Real socket.io-client connections for the gateway tests, and small helpers to wait for an event or
// to prove that none arrives. Every event such a socket receives is checked against the contract's schemas: the
// browser trusts what our server sends (it loads no zod), so these tests are where a payload that breaks the
// contract is caught. A mismatch fails the test that was running.
import { isDeepStrictEqual } from 'node:util';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach } from 'vitest';
import { type ServerEventName, serverEvents } from '../../src/contract/events';
import type { client } from './harness';

export type Api = ReturnType<typeof client>;
export type TestUser = Awaited<ReturnType<Api['user']>>;

const opened: Socket[] = [];

/**
 * Why `payload` is not what the contract says `event` carries, or null. Exact: a missing or mistyped field, and
 * also a field the contract does not declare (socket payloads are not shaped by a serializer, so a stray private
 * column would travel as is).
 */
export function contractMismatch(event: string, payload: unknown): string | null {
  if (!Object.hasOwn(serverEvents, event)) return `${event}: not a server event of the contract`;
  const parsed = serverEvents[event as ServerEventName].safeParse(payload);
  if (!parsed.success) {
    return `${event}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'} ${i.message}`).join('; ')}`;
  }
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), payload))
    return `${event}: fields the contract does not declare`;
  return null;
}

const mismatches: string[] = [];
/** Takes the contract mismatches seen since the last call (a test that provokes one on purpose takes it here). */
export function takeContractMismatches(): string[] {
  return mismatches.splice(0);
}
/** Throws (failing the test) when events broke the contract since the last check; runs after every test. */
export function failOnMismatches(): void {
  const seen = takeContractMismatches();
  if (seen.length)
    throw new Error(`server events that break the contract (src/contract/events.ts):\n${seen.join('\n')}`);
}
afterEach(failOnMismatches);
afterAll(failOnMismatches);

export function connect(
  url: string,
  token: string | null,
  /** onEvent sees every event, also those sent right after the handshake (before this resolves). */
  opts: {
    via?: 'auth' | 'query';
    headers?: Record<string, string>;
    onEvent?: (event: string, payload: unknown) => void;
  } = {},
): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: opts.headers,
    ...(opts.via === 'query' ? { query: token ? { token } : {} } : { auth: token ? { token } : {} }),
  });
  opened.push(socket);
  socket.onAny((event: string, payload: unknown) => {
    const mismatch = contractMismatch(event, payload);
    if (mismatch) mismatches.push(mismatch);
  });
  if (opts.onEvent) socket.onAny(opts.onEvent);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

export function closeAll(): void {
  for (const s of opened.splice(0)) s.disconnect();
}

/** Resolves with the next `event` (matching `where`), or rejects after `ms`. */
export function next<T = any>(
  socket: Socket,
  event: string,
  where: (p: T) => boolean = () => true,
  ms = 3000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, on);
      reject(new Error(`no ${event} within ${ms} ms`));
    }, ms);
    const on = (p: T) => {
      if (!where(p)) return;
      clearTimeout(timer);
      socket.off(event, on);
      resolve(p);
    };
    socket.on(event, on);
  });
}

/** Records every event a socket receives, to check later that some never arrived. */
export function recorder(socket: Socket) {
  const seen: { event: string; payload: unknown }[] = [];
  socket.onAny((event, payload) => seen.push({ event, payload }));
  return { seen, events: () => seen.map((s) => s.event) };
}

export function ack<T = any>(socket: Socket, event: string, ...args: unknown[]): Promise<T> {
  return socket.timeout(3000).emitWithAck(event, ...args) as Promise<T>;
}

/**
 * An acknowledged round trip through the server on this socket, in place of waiting a while to see that nothing
 * arrives: one connection keeps its order, so every event the server sent the socket before it answered is in
 * when this resolves. Rejects (after 3 s) when the socket was closed. The payload is one the contract refuses,
 * so the server does nothing but answer.
 */
export async function roundTrip(socket: Socket): Promise<void> {
  const answer = await ack<{ ok: boolean }>(socket, 'session:renew', {});
  if (answer.ok) throw new Error('the round trip was taken as a session renewal');
}

/** Makes a and b accepted friends. */
export async function befriend(api: Api, a: TestUser, b: TestUser): Promise<void> {
  const add = await api.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
  if (add.status !== 200) throw new Error(`add failed: ${add.status} ${JSON.stringify(add.body)}`);
  const res = await api.post(
    '/api/contacts/respond',
    { contactId: add.body.contact.id, action: 'accept' },
    b.accessToken,
  );
  if (res.status !== 200) throw new Error(`respond failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Follows a test server's presence work (server/realtime/presence.ts, `changed`): `changed(userId)`, asked for
 * before the change is made, resolves when the server has told the lists (and, in the same step, the users who see
 * it) of a presence change of that user's.
 */
export function presenceWatch(realtime: {
  onPresenceChanged(listener: (userIds: readonly string[] | null) => void): void;
}): { changed(userId: string): Promise<void> } {
  const waiters = new Set<(userIds: readonly string[] | null) => void>();
  realtime.onPresenceChanged((userIds) => {
    for (const waiter of [...waiters]) waiter(userIds);
  });
  return {
    changed: (userId) =>
      new Promise<void>((resolve) => {
        const waiter = (userIds: readonly string[] | null) => {
          if (userIds && !userIds.includes(userId)) return;
          waiters.delete(waiter);
          resolve();
        };
        waiters.add(waiter);
      }),
  };
}
