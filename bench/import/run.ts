// `npm run bench:import`: a Telegram export of BENCH_MESSAGES (100,000) generated Russian messages imported into a
// new group through the real server (its own process, SQLite), from the upload to «done». Meanwhile another chat's
// sends are timed one after another; the same sends on the idle server before are the baseline. Prints the import's
// time, the server's resident memory growth (sampled every 50 ms from /proc, against the figure before the upload)
// and the sends' p50/p99 idle and during the import. Targets: under 60 s, under 200 MB, p99 within 2× of idle.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { chatMessage, seeded } from '../search/russian-text';

const env = process.env;
const total = Number(env.BENCH_MESSAGES ?? 100_000);
const idleSends = Number(env.BENCH_IDLE_SENDS ?? 400);
const here = path.dirname(fileURLToPath(import.meta.url));

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

async function startServer(): Promise<{ proc: ChildProcess; base: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server-child.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...env, REGISTRATION: 'open' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    proc.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n')[0];
      if (buf.includes('\n') && line) resolve(JSON.parse(line).port);
      // The server's own log lines after its port (warnings, errors) go to this terminal.
      if (buf.split('\n').length > 2) process.stderr.write(d);
    });
    proc.once('exit', (code) => reject(new Error(`server exited: ${code}`)));
  });
  return { proc, base: `http://127.0.0.1:${port}` };
}

async function call(base: string, method: string, p: string, body?: unknown, token?: string) {
  const res = await fetch(base + p, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => null);
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function user(base: string, name: string) {
  const username = `${name}${Date.now().toString(36)}`;
  const password = 'correct horse battery';
  await call(base, 'POST', '/api/auth/register', { username, displayName: name, password });
  return call(base, 'POST', '/api/auth/login', { username, password });
}

function telegramExport(n: number): Uint8Array {
  const rnd = seeded(7);
  const start = Date.UTC(2022, 0, 1) / 1000;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const at = start + i * 30;
    const who = i % 3;
    parts.push(
      JSON.stringify({
        id: i + 1,
        type: 'message',
        date: new Date(at * 1000).toISOString().slice(0, 19),
        date_unixtime: String(at),
        from: ['Анна', 'Борис', 'Ольга'][who],
        from_id: `user${who + 1}`,
        text: chatMessage(rnd),
        ...(i % 50 === 5 ? { reply_to_message_id: i - 2 } : {}),
      }),
    );
  }
  const json = `{"name":"Большой чат","type":"private_group","id":777,"messages":[${parts.join(',\n')}]}`;
  return zipSync({ 'ChatExport_2024-03-12/result.json': strToU8(json) }, { level: 6 });
}

async function sendTimes(base: string, token: string, conversationId: string, keepGoing: () => boolean) {
  const times: number[] = [];
  for (let i = 0; keepGoing(); i++) {
    const t0 = performance.now();
    await call(
      base,
      'POST',
      '/api/conversations/send',
      { conversationId, type: 'TEXT', content: `проверка ${i}` },
      token,
    );
    times.push(performance.now() - t0);
  }
  return times;
}

const zip = telegramExport(total);
console.log(`export: ${total} messages, ZIP ${mb(zip.length)}`);
const { proc, base } = await startServer();
try {
  const alice = await user(base, 'Алиса');
  const bob = await user(base, 'Борис');
  const add = await call(base, 'POST', '/api/contacts/add', { identifier: bob.user.eblid }, alice.accessToken);
  await call(base, 'POST', '/api/contacts/respond', { contactId: add.contact.id, action: 'accept' }, bob.accessToken);
  const direct = (await call(base, 'POST', '/api/conversations/with', { userId: bob.user.id }, alice.accessToken))
    .conversation.id;
  // Warm up, then the idle baseline.
  let n = 0;
  await sendTimes(base, bob.accessToken, direct, () => n++ < 100);
  n = 0;
  const idle = await sendTimes(base, bob.accessToken, direct, () => n++ < idleSends);

  const pid = proc.pid as number;
  const rssBefore = rssOf(pid);
  let rssMax = rssBefore;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, rssOf(pid));
  }, 50);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${alice.accessToken}`, 'content-type': 'application/zip' },
    body: Buffer.from(zip),
  });
  const job = ((await res.json()) as { job: { id: string } }).job;
  if (res.status !== 201) throw new Error(`upload: ${res.status}`);
  let status = 'analysing';
  while (status === 'analysing') {
    await new Promise((r) => setTimeout(r, 50));
    status = (await call(base, 'GET', `/api/imports/${job.id}`, undefined, alice.accessToken)).job.status;
  }
  const analysed = performance.now();
  if (status !== 'mapping') throw new Error(`analysis ended ${status}`);
  await call(base, 'POST', `/api/imports/${job.id}/start`, { mapping: { user2: bob.user.id } }, alice.accessToken);
  let running = true;
  const during = sendTimes(base, bob.accessToken, direct, () => running);
  let last: { status: string; done: number; imported: number } = { status: 'running', done: 0, imported: 0 };
  while (last.status === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    last = (await call(base, 'GET', `/api/imports/${job.id}`, undefined, alice.accessToken)).job;
  }
  const finished = performance.now();
  running = false;
  const duringTimes = await during;
  clearInterval(sampler);
  if (last.status !== 'done' || last.imported !== total) throw new Error(`import ended ${JSON.stringify(last)}`);

  const seconds = (finished - t0) / 1000;
  const growth = rssMax - rssBefore;
  const idleP99 = pct(idle, 99);
  const duringP99 = pct(duringTimes, 99);
  console.log(`upload + analysis: ${((analysed - t0) / 1000).toFixed(1)} s`);
  console.log(
    `import of ${total} messages: ${seconds.toFixed(1)} s (${Math.round(total / seconds)} messages/s) — target < 60 s`,
  );
  console.log(`server RSS: ${mb(rssBefore)} before, ${mb(rssMax)} at most, growth ${mb(growth)} — target < 200 MB`);
  console.log(
    `sends in another chat: idle p50 ${pct(idle, 50).toFixed(1)} ms p99 ${idleP99.toFixed(1)} ms (${idle.length}); during the import p50 ${pct(duringTimes, 50).toFixed(1)} ms p99 ${duringP99.toFixed(1)} ms (${duringTimes.length}); ratio ${(duringP99 / idleP99).toFixed(2)} — target ≤ 2`,
  );
  const ok = seconds < 60 && growth < 200 * 1024 * 1024 && duringP99 <= 2 * idleP99;
  console.log(ok ? 'all targets met' : 'TARGET MISSED');
  process.exitCode = ok ? 0 : 1;
} finally {
  proc.kill('SIGTERM');
}
