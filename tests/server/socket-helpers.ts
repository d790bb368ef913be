// Real socket.io-client connections for the gateway tests, and small helpers to wait for an event or
// to prove that none arrives.
import { io, type Socket } from 'socket.io-client';
import type { client } from './harness';

export type Api = ReturnType<typeof client>;
export type TestUser = Awaited<ReturnType<Api['user']>>;

const opened: Socket[] = [];

export function connect(
  url: string,
  token: string | null,
  /** onEvent sees every event, also those sent right after the handshake (before this resolves). */
  opts: { via?: 'auth' | 'query'; headers?: Record<string, string>; onEvent?: (event: string, payload: unknown) => void } = {},
): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: opts.headers,
    ...(opts.via === 'query' ? { query: token ? { token } : {} } : { auth: token ? { token } : {} }),
  });
  opened.push(socket);
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
export function next<T = any>(socket: Socket, event: string, where: (p: T) => boolean = () => true, ms = 3000): Promise<T> {
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Makes a and b accepted friends. */
export async function befriend(api: Api, a: TestUser, b: TestUser): Promise<void> {
  const add = await api.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
  if (add.status !== 200) throw new Error(`add failed: ${add.status} ${JSON.stringify(add.body)}`);
  const res = await api.post('/api/contacts/respond', { contactId: add.body.contact.id, action: 'accept' }, b.accessToken);
  if (res.status !== 200) throw new Error(`respond failed: ${res.status} ${JSON.stringify(res.body)}`);
}
