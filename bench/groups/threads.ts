// `BENCH_THREADS=only npm run bench:groups` (or after the rounds of a whole run): the thread figures, on the app
// child of bench:messages (pinned to the server core; this runner on the load core) with its seeded group of 100.
//
// 1. Opening a thread of 500 replies against a history page of the same size, in the same group: the thread's
//    newest page (GET /api/threads/:id, the root with its summary and `limit` replies) against the history's newest
//    page (GET /api/conversations/:id/messages) of the same `limit`, and paging through all 500 of each (the page
//    limit is 200). Server CPU per request, medians of rounds that alternate the two. Target ≤ 1.2×.
// 2. A reply delivered to 100 followers: every member follows the thread and is connected (a fifth of them have the
//    group open), replies go at BENCH_GROUP_RATE per second; p50/p99 send → the last follower's thread:reply, and
//    server CPU per reply, against ordinary messages to the same 100 members in the same run (the group fan-out).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { type Child, median, settle } from '../messages/children';
import { quantile } from '../messages/delivery-tracker';
import fs from 'node:fs';
import path from 'node:path';
import { startChild } from '../messages/children';
import type { BenchUser, SeedSpec } from '../messages/fixture';
import { connectMany, JsonClient, join, sleep } from '../messages/load';

const env = process.env;
const REPLIES = Number(env.BENCH_THREAD_REPLIES ?? 500);
const PAGE = 200;
const ROUNDS = Number(env.BENCH_THREAD_ROUNDS ?? 5);
const REQUESTS = Number(env.BENCH_THREAD_REQUESTS ?? 40);
const rate = Number(env.BENCH_GROUP_RATE ?? 5);
const windowMs = Number(env.BENCH_THREAD_WINDOW_S ?? 10) * 1000;

async function ok(res: Promise<{ status: number; text: string }>) {
  const r = await res;
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text.slice(0, 200)}`);
  return JSON.parse(r.text);
}

/** Sends `count` messages (thread replies when `rootId`) from the members in turn, `parallel` at a time. */
async function fill(http: JsonClient, conversationId: string, members: BenchUser[], count: number, rootId?: string) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        const from = members[i % members.length] as BenchUser;
        await ok(
          http.request('POST', '/api/conversations/send', from.token, {
            conversationId,
            type: 'TEXT',
            content: `Сообщение ${i} для проверки страницы`,
            ...(rootId ? { threadRootId: rootId } : {}),
          }),
        );
      }
    }),
  );
}

/** Server CPU per request of `paths` asked one after another `REQUESTS` times (ms). */
async function cpuPerRequest(child: Child, http: JsonClient, token: string, paths: string[]) {
  await settle(child);
  const c0 = await child.cpuMs();
  for (let i = 0; i < REQUESTS; i++) for (const p of paths) await ok(http.request('GET', p, token));
  return ((await child.cpuMs()) - c0) / (REQUESTS * paths.length);
}

/** The paths that read all 500: the newest page, then pages back until the oldest. */
async function allPages(http: JsonClient, token: string, first: string, key: 'messages') {
  const paths = [`${first}?limit=${PAGE}`];
  let page = await ok(http.request('GET', paths[0] as string, token));
  while (page.hasMore) {
    const before = page[key][0].id as string;
    const p = `${first}?limit=${PAGE}&before=${before}`;
    paths.push(p);
    page = await ok(http.request('GET', p, token));
  }
  return paths;
}

interface Latency {
  p50: number;
  p99: number;
  cpuPerMessage: number;
  lost: number;
}

/** Sends at `rate` for the window and waits for every member's frame of each; latencies from the scheduled time. */
async function deliver(
  child: Child,
  http: JsonClient,
  sockets: Socket[],
  members: BenchUser[],
  conversationId: string,
  events: string[],
  viewers: number,
  rootId?: string,
): Promise<Latency> {
  // Every member gets each message once, but a sender whose group is not open: its own tabs elsewhere are not told.
  const arrived = new Map<string, { at: number; got: number; last: number; expected: number }>();
  const on = (p: { message: { content: string } }) => {
    const a = arrived.get(p.message.content);
    if (!a) return;
    a.got += 1;
    a.last = performance.now();
  };
  for (const s of sockets) for (const e of events) s.on(e, on);
  await settle(child);
  const c0 = await child.cpuMs();
  const start = performance.now();
  const count = Math.round((windowMs / 1000) * rate);
  const sends: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const at = start + (i * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 0) await sleep(wait);
    const tag = `${rootId ? 'reply' : 'main'}-${i}-${Math.random().toString(36).slice(2)}`;
    const sender = i % members.length;
    arrived.set(tag, { at, got: 0, last: 0, expected: members.length - (sender < viewers ? 0 : 1) });
    const from = members[sender] as BenchUser;
    sends.push(
      ok(
        http.request('POST', '/api/conversations/send', from.token, {
          conversationId,
          type: 'TEXT',
          content: tag,
          ...(rootId ? { threadRootId: rootId } : {}),
        }),
      ),
    );
  }
  await Promise.all(sends);
  const until = performance.now() + 10_000;
  while ([...arrived.values()].some((a) => a.got < a.expected) && performance.now() < until) await sleep(20);
  const cpu = (await child.cpuMs()) - c0;
  for (const s of sockets) for (const e of events) s.off(e, on);
  const done = [...arrived.values()];
  const latencies = Float64Array.from(done.filter((a) => a.got >= a.expected).map((a) => a.last - a.at)).sort();
  return {
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    cpuPerMessage: cpu / done.length,
    lost: done.reduce((n, a) => n + Math.max(0, a.expected - a.got), 0),
  };
}

export interface ThreadFigures {
  firstPage: { thread: number; history: number; ratio: number };
  all500: { thread: number; history: number; ratio: number };
  followers: number;
  thread: Latency;
  main: Latency;
}

export async function threadFigures(
  child: Child,
  http: JsonClient,
  group: { conversationId: string; members: BenchUser[] },
): Promise<ThreadFigures> {
  const { conversationId, members } = group;
  const reader = members[1] as BenchUser;
  // History: REPLIES ordinary messages; the thread: a root and REPLIES replies in the same group.
  await fill(http, conversationId, members, REPLIES);
  const root = (await ok(
    http.request('POST', '/api/conversations/send', (members[0] as BenchUser).token, {
      conversationId,
      type: 'TEXT',
      content: 'Корень обсуждения',
    }),
  )) as { message: { id: string } };
  const rootId = root.message.id;
  await fill(http, conversationId, members, REPLIES, rootId);

  const history = `/api/conversations/${conversationId}/messages`;
  const thread = `/api/threads/${rootId}`;
  const historyAll = await allPages(http, reader.token, history, 'messages');
  const threadAll = await allPages(http, reader.token, thread, 'messages');
  const first = { thread: [] as number[], history: [] as number[] };
  const all = { thread: [] as number[], history: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    first.history.push(await cpuPerRequest(child, http, reader.token, [`${history}?limit=${PAGE}`]));
    first.thread.push(await cpuPerRequest(child, http, reader.token, [`${thread}?limit=${PAGE}`]));
    all.history.push(await cpuPerRequest(child, http, reader.token, historyAll));
    all.thread.push(await cpuPerRequest(child, http, reader.token, threadAll));
  }
  // Per request × requests: what opening (one page) or reading all of it (every page) costs.
  const figures = (x: { thread: number[]; history: number[] }, threadPages: number, historyPages: number) => {
    const t = median(x.thread) * threadPages;
    const h = median(x.history) * historyPages;
    return { thread: t, history: h, ratio: t / h };
  };

  // Everyone follows the thread; everyone is connected, a fifth with the group open.
  await Promise.all(
    members.map((m) => ok(http.request('POST', '/api/threads/follow', m.token, { rootId, follow: true }))),
  );
  const sockets = await connectMany(
    child.port,
    members.map((m) => m.token),
  );
  const viewers = sockets.slice(0, Math.max(2, Math.round(members.length * 0.2)));
  for (const s of viewers) await join(s, conversationId);
  const open = viewers.length;
  const mainLatency = await deliver(
    child,
    http,
    sockets,
    members,
    conversationId,
    ['message:new', 'message:notify'],
    open,
  );
  const threadLatency = await deliver(child, http, sockets, members, conversationId, ['thread:reply'], open, rootId);
  for (const s of sockets) s.disconnect();
  return {
    firstPage: figures(first, 1, 1),
    all500: figures(all, threadAll.length, historyAll.length),
    followers: members.length,
    thread: threadLatency,
    main: mainLatency,
  };
}

export function printThreadFigures(f: ThreadFigures): void {
  const ms = (x: number) => x.toFixed(2);
  console.log(`\nThreads (group of ${f.followers}, ${REPLIES} replies; load average ${os.loadavg()[0]?.toFixed(1)}):`);
  console.log(
    `  open a thread (newest ${PAGE}) vs a history page of ${PAGE}: ${ms(f.firstPage.thread)} / ${ms(f.firstPage.history)} ms CPU per request = ${f.firstPage.ratio.toFixed(2)}× (target ≤ 1.2×) ${f.firstPage.ratio <= 1.2 ? '✓' : '✗'}`,
  );
  console.log(
    `  all ${REPLIES} replies vs ${REPLIES} history messages (pages of ${PAGE}): ${ms(f.all500.thread)} / ${ms(f.all500.history)} ms CPU = ${f.all500.ratio.toFixed(2)}× ${f.all500.ratio <= 1.2 ? '✓' : '✗'}`,
  );
  console.log(
    `  a reply to ${f.followers} followers at ${rate}/s: p50 ${f.thread.p50.toFixed(0)} ms, p99 ${f.thread.p99.toFixed(0)} ms, ${ms(f.thread.cpuPerMessage)} ms CPU per reply, ${f.thread.lost} lost`,
  );
  console.log(
    `  an ordinary message to the same ${f.followers} members:   p50 ${f.main.p50.toFixed(0)} ms, p99 ${f.main.p99.toFixed(0)} ms, ${ms(f.main.cpuPerMessage)} ms CPU per message, ${f.main.lost} lost`,
  );
}

/** The thread figures on a fresh app child with one group of 100 (BENCH_THREADS=only, or after a whole run). */
export async function runThreads(): Promise<ThreadFigures> {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-threads-logs-'));
  const child = await startChild('app', path.join(logDir, 'app.log'));
  const http = new JsonClient(child.port);
  try {
    const spec: SeedSpec = {
      pairs: 0,
      groups: 1,
      groupSize: 0,
      groupSizes: [Number(env.BENCH_THREAD_GROUP ?? 100)],
      listConversations: 0,
      listMessagesEach: 0,
      idleUsers: 0,
    };
    const fixture = (await child.ask<'seed'>({ type: 'seed', spec })).fixture;
    const group = fixture.groups[0];
    if (!group) throw new Error('no group seeded');
    const f = await threadFigures(child, http, group);
    printThreadFigures(f);
    return f;
  } finally {
    http.close();
    await child.ask<'stop'>({ type: 'stop' }).catch(() => {});
    fs.rmSync(logDir, { recursive: true, force: true });
  }
}
