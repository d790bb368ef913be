// `npm run bench:backup`: `npm run admin -- backup` and `restore` on a SQLite data directory of BENCH_MESSAGES
// (100,000) Russian messages over 1,000 conversations and BENCH_UPLOADS (100) uploads of 64 KiB. Seeds straight
// into the database (the server's own schema and search triggers), then times backup() and restore() in this
// process over BENCH_ROUNDS (3) rounds, and once each as the shell runs them (a new Node process with tsx, the
// figure an administrator sees). Baseline: system `tar -czf` of the same stopped directory (no snapshot, no
// checksums). Prints the data directory's size and the archive's, and times verify-backup on the archive.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { createServer } from '../../server/app';
import { backup, restore } from '../../server/admin/backup';
import { verifyBackup } from '../../server/admin/verify-backup';
import { BACKUPS_OFF } from '../../server/backups/schedule';
import { loadConfig } from '../../server/config';
import { sqliteHandle } from '../../server/db/database';
import { storagesFor } from '../../server/uploads/storage-for';
import { chatMessage, seeded } from '../search/russian-text';

const env = process.env;
const totalMessages = Number(env.BENCH_MESSAGES ?? 100_000);
const uploadCount = Number(env.BENCH_UPLOADS ?? 100);
const rounds = Number(env.BENCH_ROUNDS ?? 3);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-backup-'));
const dataDir = path.join(root, 'data');
const config = loadConfig({}, { dataDir, databaseUrl: null, clientDir: null, logLevel: 'warn', backup: BACKUPS_OFF });

function sizeOf(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((s, n) => s + sizeOf(path.join(p, n)), 0);
}
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function seed(): Promise<number> {
  const t0 = performance.now();
  const server = await createServer(config);
  const file = sqliteHandle(server.ctx.db);
  if (!file) throw new Error('bench:backup runs on SQLite');
  const rnd = seeded(11);
  const now = new Date().toISOString();
  const users = Array.from({ length: 200 }, () => randomUUID());
  const conversations = Array.from({ length: 1000 }, () => randomUUID());
  const members = conversations.map(() => {
    const people = new Set<string>();
    while (people.size < 2 + Math.floor(rnd() * 3)) people.add(users[Math.floor(rnd() * users.length)] as string);
    return [...people];
  });
  const insertUser = file.prepare(
    `INSERT INTO users (id, username, username_lower, display_name, password_hash, status, eblid, created_at) VALUES (?, ?, ?, ?, 'x', 'ONLINE', ?, ?)`,
  );
  const insertConversation = file.prepare(
    'INSERT INTO conversations (id, title, is_group, direct_key, created_by, created_at) VALUES (?, ?, 1, NULL, ?, ?)',
  );
  const insertMember = file.prepare(
    'INSERT INTO conversation_members (conversation_id, user_id, joined_at) VALUES (?, ?, ?)',
  );
  file.transaction(() => {
    for (const [i, id] of users.entries()) {
      insertUser.run(id, `b${i}`, `b${i}`, `Участник ${i}`, String(i).padStart(4, '0'), now);
    }
    conversations.forEach((id, i) => {
      insertConversation.run(id, `Беседа ${i}`, members[i]?.[0], now);
      for (const p of members[i] as string[]) insertMember.run(id, p, now);
    });
  })();
  const insertMessage = file.prepare(
    `INSERT INTO messages (id, conversation_id, sender_id, type, content, created_at) VALUES (?, ?, ?, 'TEXT', ?, ?)`,
  );
  const start = Date.now() - totalMessages * 1000;
  for (let from = 0; from < totalMessages; from += 5000) {
    file.transaction(() => {
      for (let i = from; i < Math.min(totalMessages, from + 5000); i++) {
        const c = Math.floor(rnd() * conversations.length);
        const people = members[c] as string[];
        const sender = people[Math.floor(rnd() * people.length)];
        insertMessage.run(
          randomUUID(),
          conversations[c],
          sender,
          chatMessage(rnd),
          new Date(start + i * 1000).toISOString(),
        );
      }
    })();
  }
  // Uploads through the storage, with their rows, as POST /api/upload leaves them.
  const storage = storagesFor(config).uploads;
  for (let i = 0; i < uploadCount; i++) {
    const key = randomBytes(16).toString('hex');
    const bytes = randomBytes(64 * 1024);
    await storage.write(key, Readable.from([bytes]));
    await server.ctx.db
      .insertInto('uploads')
      .values({
        id: randomUUID(),
        owner_id: users[i % users.length] as string,
        storage_key: key,
        url: `/uploads/${key}`,
        original_name: `файл-${i}.bin`,
        mime: 'application/octet-stream',
        size: bytes.length,
        kind: 'FILE',
        width: null,
        height: null,
        created_at: now,
      })
      .execute();
  }
  await server.close();
  return performance.now() - t0;
}

function cli(args: string[], dir: string): number {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args], {
    env: { ...env, DATA_DIR: dir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`admin ${args.join(' ')}: ${res.stderr}`);
  return performance.now() - t0;
}

const seedMs = await seed();
const dbBytes = sizeOf(path.join(dataDir, 'messenger.sqlite'));
const uploadsBytes = sizeOf(path.join(dataDir, 'uploads'));
const dirBytes = sizeOf(dataDir);
console.log(
  `seeded ${totalMessages.toLocaleString('en')} messages, ${uploadCount} uploads in ${secs(seedMs)}: data dir ${mib(dirBytes)} (database ${mib(dbBytes)}, uploads ${mib(uploadsBytes)})`,
);

const archive = path.join(root, 'backup.tar.gz');
const backupMs: number[] = [];
const restoreMs: number[] = [];
const verifyMs: number[] = [];
for (let r = 0; r < rounds; r++) {
  let t0 = performance.now();
  const made = await backup(config, archive);
  backupMs.push(performance.now() - t0);
  const target = path.join(root, `restored-${r}`);
  t0 = performance.now();
  const back = await restore({ ...config, dataDir: target }, archive);
  restoreMs.push(performance.now() - t0);
  if (back.manifest.counts.messages !== totalMessages) throw new Error('restored a different number of messages');
  fs.rmSync(target, { recursive: true });
  t0 = performance.now();
  const verdict = await verifyBackup(config, archive);
  verifyMs.push(performance.now() - t0);
  if (!verdict.includes('Резервная копия в порядке')) throw new Error('verify-backup did not pass the archive');
  if (r === 0)
    console.log(
      `archive ${mib(made.archiveBytes)} (${((made.archiveBytes / dirBytes) * 100).toFixed(0)} % of the data dir)`,
    );
}
const shellBackup = cli(['backup', archive], dataDir);
const shellRestore = cli(['restore', archive], path.join(root, 'restored-cli'));
const shellVerify = cli(['verify-backup', archive], dataDir);

const tarFile = path.join(root, 'plain.tar.gz');
let t0 = performance.now();
const tar = spawnSync('tar', ['-czf', tarFile, '-C', dataDir, '.']);
const tarMs = performance.now() - t0;
t0 = performance.now();
fs.mkdirSync(path.join(root, 'untar'));
spawnSync('tar', ['-xzf', tarFile, '-C', path.join(root, 'untar')]);
const untarMs = performance.now() - t0;

console.log(`\n| step | median of ${rounds} (in process) | rounds | as the shell runs it | baseline: system tar |`);
console.log('|---|---|---|---|---|');
console.log(
  `| backup | ${secs(median(backupMs))} | ${backupMs.map(secs).join(', ')} | ${secs(shellBackup)} | ${tar.status === 0 ? `${secs(tarMs)} (${mib(sizeOf(tarFile))})` : 'n/a'} |`,
);
console.log(
  `| restore | ${secs(median(restoreMs))} | ${restoreMs.map(secs).join(', ')} | ${secs(shellRestore)} | ${tar.status === 0 ? secs(untarMs) : 'n/a'} |`,
);
console.log(
  `| verify-backup | ${secs(median(verifyMs))} | ${verifyMs.map(secs).join(', ')} | ${secs(shellVerify)} | — |`,
);
fs.rmSync(root, { recursive: true, force: true });
