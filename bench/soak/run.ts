// `npm run soak`: the real server (bench/messages/app-server.ts: createServer on a fresh SQLite file, or
// PostgreSQL with DATABASE_URL) in a child process, driven from this process over HTTP and socket.io as about
// 50 people would for SOAK_S seconds (600): direct chats and groups, SOAK_RATE sends/s (50) with typing before
// each and read receipts after, reactions, edits, history pages, list reads, searches and an upload a second.
// Every minute and at the end it prints what would show a leak or a slow drift: the server's RSS and V8 heap
// (its /metrics), open fds (/proc/<pid>/fd), the WAL file, p99 send → delivered, errors and lost deliveries.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { pinLoadGenerator, startChild } from '../messages/children';
import { DeliveryTracker, quantile } from '../messages/delivery-tracker';
import type { BenchUser } from '../messages/fixture';
import { connectMany, JsonClient, join, listen, sleep } from '../messages/load';

const env = process.env;
const durationS = Number(env.SOAK_S ?? 600);
const rate = Number(env.SOAK_RATE ?? 50);
const minuteMs = Number(env.SOAK_MINUTE_MS ?? 60_000);
/** A delivery not seen this long after its send was acknowledged counts as lost in the per-minute line. */
const lateMs = 10_000;

if (env.DATABASE_URL) env.BENCH_DATABASE_URL = env.DATABASE_URL;
// The seeded people sign in once: their access tokens (15 minutes by default) must outlive the run, or every
// request and socket would end with them. Refreshing and reconnecting are not part of this run.
env.ACCESS_TOKEN_TTL ??= String(durationS + 600);
pinLoadGenerator();
const logFile = path.join(os.tmpdir(), `soak-server-${process.pid}.log`);
const app = await startChild('app', logFile);
const pid = app.proc.pid as number;
// 20 direct chats and 2 groups of 5: the 50 people who talk. The list user (50 chats) reads the long list.
const fixture = (
  await app.ask<'seed'>({
    type: 'seed',
    spec: { pairs: 20, groups: 2, groupSize: 5, listConversations: 50, listMessagesEach: 20, idleUsers: 0 },
  })
).fixture;

interface Chat {
  conversationId: string;
  members: BenchUser[];
}
const chats: Chat[] = [
  ...fixture.pairs.map((p) => ({ conversationId: p.conversationId, members: [p.a, p.b] })),
  ...fixture.groups.map((g) => ({ conversationId: g.conversationId, members: g.members })),
];
const people = chats.flatMap((c) => c.members.map((u) => ({ user: u, chat: c })));
// At most 64 connections, as 50 browsers' few each would keep: the server's fds then follow the server, not
// the load generator's peak concurrency.
const client = new JsonClient(app.port, 64);
const tracker = new DeliveryTracker();
const sockets = new Map<string, Socket>();
const connected = await connectMany(
  app.port,
  people.map((p) => p.user.token),
);
await Promise.all(
  people.map(async (p, i) => {
    const s = connected[i] as Socket;
    sockets.set(p.user.id, s);
    await join(s, p.chat.conversationId);
  }),
);

// Each direct chat's first message, from the one who did not create it (the creator's first message would ask
// the other's «Кто может мне писать», which the seeded people, strangers, do not allow); before any is counted.
for (const p of fixture.pairs) {
  const res = await client.request('POST', '/api/conversations/send', p.b.token, {
    conversationId: p.conversationId,
    type: 'TEXT',
    content: 'Привет!',
  });
  if (res.status !== 200) throw new Error(`first message refused: ${res.status} ${res.text}`);
}
await sleep(500);

// What each person has received and not yet marked read (sent as one receipts request a second, as the client
// batches them), and messages to react to or edit later.
const unread = new Map<string, string[]>();
const received: { userId: string; messageId: string }[] = [];
const ownMessages: { userId: string; token: string; messageId: string }[] = [];
for (const p of people) {
  listen(sockets.get(p.user.id) as Socket, p.user.id, (receiver, event, message, now) => {
    tracker.frame(receiver, event, message, now);
    if (event !== 'message:new') return;
    const list = unread.get(receiver) ?? [];
    list.push(message.id);
    unread.set(receiver, list);
    if (received.length < 1000) received.push({ userId: receiver, messageId: message.id });
    else received[Math.floor(Math.random() * 1000)] = { userId: receiver, messageId: message.id };
  });
}
const tokenOf = new Map(people.map((p) => [p.user.id, p.user.token]));

// Errors by kind of request (status or network failure), so one bad route shows by name.
const errors = new Map<string, number>();
const firstErrors: string[] = [];
const requests = new Map<string, number>();
async function call(kind: string, method: 'GET' | 'POST', url: string, token: string, body?: unknown) {
  requests.set(kind, (requests.get(kind) ?? 0) + 1);
  try {
    const res = await client.request(method, url, token, body);
    if (res.status >= 200 && res.status < 300) return res;
    errors.set(kind, (errors.get(kind) ?? 0) + 1);
    if (firstErrors.length < 10) firstErrors.push(`${kind} ${res.status} ${res.text.slice(0, 200)}`);
  } catch (e) {
    errors.set(kind, (errors.get(kind) ?? 0) + 1);
    if (firstErrors.length < 10) firstErrors.push(`${kind} ${(e as Error).message}`);
  }
  return null;
}

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
const start = performance.now();
const endAt = start + durationS * 1000;
let sent = 0;

/** Runs `fn` `perSecond` times a second until the end (open loop: a slow answer does not slow the schedule). */
async function every(perSecond: number, fn: (i: number) => Promise<unknown>) {
  let i = 0;
  const t0 = performance.now();
  while (performance.now() < endAt) {
    const due = Math.floor(((performance.now() - t0) * perSecond) / 1000) + 1;
    while (i < due) void fn(i++);
    await sleep(Math.max(1, Math.min(50, 1000 / perSecond)));
  }
}

async function send(i: number) {
  const chat = chats[i % chats.length] as Chat;
  const sender = pick(chat.members);
  const receivers = chat.members.filter((m) => m !== sender).map((m) => m.id);
  const key = `soak-${i}`;
  const socket = sockets.get(sender.id) as Socket;
  socket.emit('conversation:typing', { conversationId: chat.conversationId, typing: true });
  tracker.sent(key, sender.id, receivers, performance.now());
  sent++;
  const res = await call('send', 'POST', '/api/conversations/send', sender.token, {
    conversationId: chat.conversationId,
    type: 'TEXT',
    content: `Привет, это сообщение ${i}: как дела у собаки?`,
    clientMessageId: key,
  });
  if (!res) return tracker.failed(key);
  const id = (JSON.parse(res.text) as { message: { id: string } }).message.id;
  tracker.acked(key, id);
  if (ownMessages.length < 500) ownMessages.push({ userId: sender.id, token: sender.token, messageId: id });
  else ownMessages[i % 500] = { userId: sender.id, token: sender.token, messageId: id };
}

async function receipts() {
  for (const [userId, ids] of unread) {
    if (ids.length === 0) continue;
    unread.set(userId, []);
    for (let k = 0; k < ids.length; k += 100)
      void call('receipts', 'POST', '/api/messages/receipts', tokenOf.get(userId) as string, {
        messageIds: ids.slice(k, k + 100),
        status: 'READ',
      });
  }
}

async function react(i: number) {
  const r = received.length ? pick(received) : null;
  if (!r) return;
  await call('react', 'POST', '/api/messages/react', tokenOf.get(r.userId) as string, {
    messageId: r.messageId,
    emoji: ['👍', '❤️', '😂'][i % 3],
    on: i % 4 !== 3,
  });
}

async function edit(i: number) {
  const m = ownMessages.length ? pick(ownMessages) : null;
  if (!m) return;
  await call('edit', 'POST', '/api/messages/edit', m.token, { messageId: m.messageId, content: `Исправлено ${i}` });
}

async function history() {
  const p = pick(people);
  await call('history', 'GET', `/api/conversations/${p.chat.conversationId}/messages?limit=50`, p.user.token);
}

async function list(i: number) {
  // Everyone's list every 20 s (the client's refresh); one read in ten is the list user's 50 chats.
  const token = i % 10 === 0 ? fixture.listUser.token : pick(people).user.token;
  await call('list', 'GET', '/api/conversations', token);
}

const words = ['собака', 'дела', 'привет', 'сообщение', 'исправлено'];
async function search(i: number) {
  const q = encodeURIComponent(words[i % words.length] as string);
  await call('search', 'GET', `/api/search?q=${q}`, pick(people).user.token);
}

const blob = new Uint8Array(16 * 1024).map((_, k) => (k * 31 + 7) & 0xff);
async function upload(i: number) {
  const p = pick(people);
  requests.set('upload', (requests.get('upload') ?? 0) + 1);
  const form = new FormData();
  form.append('file', new Blob([blob, String(i)]), `файл-${i}.bin`);
  try {
    const res = await fetch(`http://127.0.0.1:${app.port}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.user.token}` },
      body: form,
    });
    const text = await res.text();
    if (res.ok) return;
    errors.set('upload', (errors.get('upload') ?? 0) + 1);
    if (firstErrors.length < 10) firstErrors.push(`upload ${res.status} ${text.slice(0, 200)}`);
  } catch (e) {
    errors.set('upload', (errors.get('upload') ?? 0) + 1);
    if (firstErrors.length < 10) firstErrors.push(`upload ${(e as Error).message}`);
  }
}

// --- what the server holds, read from outside ---
interface Sample {
  t: number;
  rssMb: number;
  heapMb: number;
  /** V8 heap (used + external) after two full collections: what live objects hold. */
  liveMb: number;
  fds: number;
  /** Of them, sockets (TCP connections, the database's, Redis'). */
  sockets: number;
  walMb: number;
  p99: number;
  deliveries: number;
}
const samples: Sample[] = [];

function fdsAndWal(): { fds: number; sockets: number; walMb: number } {
  let fds = 0;
  let sockets = 0;
  let walMb = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    fds++;
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('socket:')) sockets++;
      if (target.endsWith('.sqlite-wal')) walMb = fs.statSync(target).size / 2 ** 20;
    } catch {
      // closed meanwhile
    }
  }
  // PostgreSQL keeps its log in its own process: no WAL file of the server's.
  return { fds, sockets, walMb: env.DATABASE_URL ? Number.NaN : walMb };
}

async function metrics(): Promise<{ rssMb: number; heapMb: number }> {
  const res = await client.request('GET', '/metrics', null);
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(res.text)?.[1] ?? Number.NaN);
  return {
    rssMb: value('process_resident_memory_bytes') / 2 ** 20,
    heapMb: value('nodejs_heap_size_used_bytes') / 2 ** 20,
  };
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');
let lastMinute = start;
let lostLine = 0;

async function sample(final = false) {
  const now = performance.now();
  const { deliveries, latencies } = tracker.window(lastMinute, now);
  lastMinute = now;
  const m = await metrics();
  const live = await app.ask<'memory'>({ type: 'memory' });
  const s: Sample = {
    t: (now - start) / 60_000,
    ...m,
    liveMb: live.heap / 2 ** 20,
    ...fdsAndWal(),
    p99: quantile(latencies, 0.99),
    deliveries,
  };
  samples.push(s);
  const late = tracker.lateSince(now - lateMs);
  lostLine = late;
  const errs = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(
    `${final ? 'end ' : ''}min ${fmt(s.t)}: rss ${fmt(s.rssMb)} MB, heap ${fmt(s.heapMb)} MB (after GC ${fmt(s.liveMb)}), fds ${s.fds} (${s.sockets} sockets), ` +
      `wal ${fmt(s.walMb, 2)} MB, deliveries ${deliveries}, p99 ${fmt(s.p99)} ms, sent ${sent}, ` +
      `errors ${errs}, undelivered > ${lateMs / 1000} s ${late}`,
  );
}

/** Least-squares slope of y over t (per minute) of the samples in the second half of the run. */
function slope(pickY: (s: Sample) => number): number {
  const half = samples.filter((s) => s.t >= durationS / 60 / 2);
  const n = half.length;
  if (n < 2) return Number.NaN;
  const mt = half.reduce((a, s) => a + s.t, 0) / n;
  const my = half.reduce((a, s) => a + pickY(s), 0) / n;
  const num = half.reduce((a, s) => a + (s.t - mt) * (pickY(s) - my), 0);
  const den = half.reduce((a, s) => a + (s.t - mt) ** 2, 0);
  return num / den;
}

console.log(
  `soak: ${durationS} s, ${rate} sends/s, ${people.length} people in ${chats.length} chats, server pid ${pid} ` +
    `(${env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}), log ${logFile}`,
);
await sample();
const sampler = setInterval(() => void sample(), minuteMs);
await Promise.all([
  every(rate, send),
  every(1, () => receipts()),
  every(5, react),
  every(2, edit),
  every(2, () => history()),
  every(people.length / 20, list),
  every(1, search),
  every(1, upload),
]);
clearInterval(sampler);
// Let the last sends land, then the last figures.
const drainUntil = performance.now() + 15_000;
while (performance.now() < drainUntil && (tracker.inFlight() > 0 || tracker.missing() > 0)) await sleep(50);
await sample(true);

const totals = tracker.totals();
const firstMin = tracker.window(start, start + 60_000).latencies;
const lastMin = tracker.window(endAt - 60_000, endAt + 15_000).latencies;
console.log('');
console.log(
  `RSS slope over the second half: ${fmt(
    slope((s) => s.rssMb),
    3,
  )} MB/min (least squares)`,
);
console.log(
  `V8 heap slope over the second half: ${fmt(
    slope((s) => s.heapMb),
    3,
  )} MB/min; after GC ${fmt(
    slope((s) => s.liveMb),
    3,
  )} MB/min`,
);
console.log(
  `open fds: ${samples[0]?.fds} → ${samples.at(-1)?.fds} (sockets ${samples[0]?.sockets} → ${samples.at(-1)?.sockets}); WAL: max ${fmt(Math.max(...samples.map((s) => s.walMb)), 2)} MB`,
);
console.log(
  `p99 send → delivered: first minute ${fmt(quantile(firstMin, 0.99))} ms, last minute ${fmt(quantile(lastMin, 0.99))} ms`,
);
console.log(
  `sends ${totals.sent}, acknowledged ${totals.acked}, failed ${totals.failed}; deliveries ${totals.deliveries}, ` +
    `lost ${totals.lost}, duplicated ${totals.duplicates}, misdelivered ${totals.misdelivered}`,
);
console.log(
  `requests: ${[...requests].map(([k, n]) => `${k} ${n}`).join(', ')}; errors: ${
    [...errors].map(([k, n]) => `${k} ${n}`).join(', ') || '0'
  }`,
);
for (const e of firstErrors) console.log(`  ${e}`);
for (const s of sockets.values()) s.close();
client.close();
await app.ask<'stop'>({ type: 'stop' });
process.exit(totals.lost + totals.duplicates + totals.misdelivered > 0 || lostLine > 0 ? 1 : 0);
