// The load generator's tools: a keep-alive JSON client on node:http, socket.io-client sockets that feed a
// DeliveryTracker, an open-loop sender (sends scheduled at a fixed rate, latency counted from the scheduled
// time so a slow server cannot hide its queue) and a closed-loop GET driver for requests per second.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { io, type Socket } from 'socket.io-client';
import type { DeliveredFrame, DeliveryTracker } from './delivery-tracker';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class JsonClient {
  private agent: http.Agent;
  constructor(
    private port: number,
    maxSockets = 512,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  request(
    method: 'GET' | 'POST',
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<{ status: number; text: string; bytes: number; encoding: string | undefined }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    // As a browser asks (over HTTPS or on localhost): the server may answer compressed.
    const headers: http.OutgoingHttpHeaders = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: this.port, method, path, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const encoding = res.headers['content-encoding'];
            // Decoded only when read: the closed loops count answers and never look inside.
            resolve({
              status: res.statusCode ?? 0,
              bytes: chunks.reduce((n, c) => n + c.length, 0),
              encoding,
              get text() {
                const body = Buffer.concat(chunks);
                const plain =
                  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
                return plain.toString('utf8');
              },
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A websocket-only socket.io connection like the app's client, authenticated with `token`. */
export function connectSocket(port: number, token: string): Promise<Socket> {
  const socket = io(`http://127.0.0.1:${port}`, {
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Connects `count` sockets with at most `parallel` handshakes at a time. */
export async function connectMany(port: number, tokens: string[], parallel = 50): Promise<Socket[]> {
  const out: Socket[] = new Array(tokens.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, tokens.length) }, async () => {
      while (next < tokens.length) {
        const i = next++;
        out[i] = await connectSocket(port, tokens[i] as string);
      }
    }),
  );
  return out;
}

export async function join(socket: Socket, conversationId: string): Promise<void> {
  const ack = (await socket.timeout(10_000).emitWithAck('conversation:join', { conversationId })) as {
    ok: boolean;
    message?: string;
  };
  if (!ack.ok) throw new Error(`conversation:join refused: ${ack.message}`);
}

/** Reports every message event `socket` receives as arriving at `receiver` (see DeliveryTracker.frame). */
export function listen(socket: Socket, receiver: string, onFrame: DeliveryTracker['frame']): void {
  for (const event of ['message:new', 'message:notify']) {
    socket.on(event, (p: { message: DeliveredFrame }) => onFrame(receiver, event, p.message, performance.now()));
  }
}

export interface Send {
  sender: { id: string; token: string };
  conversationId: string;
  receivers: string[];
  /** Sent formatted: the same text with three ranges (bold, italic, inline code), as a composer would send it. */
  formatted?: boolean;
}

/** The ranges of a formatted send's text `Привет, это сообщение <key>`: «это» bold, «сообщение» italic, the key code. */
export const formattedEntities = (key: string) => [
  { type: 'bold', offset: 8, length: 3 },
  { type: 'italic', offset: 12, length: 9 },
  { type: 'code', offset: 22, length: key.length },
];

/**
 * Sends at `rate` per second for `durationMs`, choosing the i-th send with `pick(i)`; each send carries a
 * unique clientMessageId the receivers' frames are matched by. At most `maxInFlight` requests are open:
 * past that the server is saturated and the schedule falls behind (the latency still counts from the
 * scheduled time). Resolves when the last scheduled send has been issued.
 */
export async function openLoop(opts: {
  client: JsonClient;
  tracker: DeliveryTracker;
  rate: number;
  durationMs: number;
  pick: (i: number) => Send;
  keyPrefix: string;
  maxInFlight?: number;
  /** Called once the send was answered (or failed), as a client stops its typing notice after sending. */
  answered?: (send: Send) => void;
}): Promise<{ issued: number }> {
  const { client, tracker, rate, durationMs, pick, keyPrefix } = opts;
  const maxInFlight = opts.maxInFlight ?? 2000;
  const total = Math.round((rate * durationMs) / 1000);
  const start = performance.now();
  let issued = 0;
  let open = 0;
  while (issued < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    while (issued < due && open < maxInFlight) {
      const i = issued++;
      const s = pick(i);
      const key = `${keyPrefix}${i}`;
      tracker.sent(key, s.sender.id, s.receivers, start + (i * 1000) / rate);
      open++;
      client
        .request('POST', '/api/conversations/send', s.sender.token, {
          conversationId: s.conversationId,
          type: 'TEXT',
          content: `Привет, это сообщение ${key}`,
          clientMessageId: key,
          ...(s.formatted ? { entities: formattedEntities(key) } : {}),
        })
        .then(
          (res) => {
            if (res.status === 200)
              tracker.acked(key, (JSON.parse(res.text) as { message: { id: string } }).message.id);
            else tracker.failed(key);
          },
          () => tracker.failed(key),
        )
        .finally(() => {
          open--;
          opts.answered?.(s);
        });
    }
    await sleep(1);
  }
  return { issued };
}

/** Waits until no send is in flight and every acknowledged delivery arrived, or `timeoutMs` passed. */
export async function drain(tracker: DeliveryTracker, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end && (tracker.inFlight() > 0 || tracker.missing() > 0)) await sleep(20);
}

/** `concurrency` loops of GET `path` for `durationMs`; counts 200 answers and failures. */
export async function closedLoop(
  client: JsonClient,
  path: string,
  token: string | null,
  concurrency: number,
  durationMs: number,
) {
  const end = performance.now() + durationMs;
  let ok = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const res = await client.request('GET', path, token).catch(() => ({ status: 0 }));
        if (res.status === 200) ok++;
        else failed++;
      }
    }),
  );
  return { ok, failed };
}
