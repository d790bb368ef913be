// The app under test: the real server (createServer, as `npm start` builds it, at the default log level) on
// a fresh SQLite file, or on PostgreSQL with BENCH_DATABASE_URL, seeded by seed-app.ts. Run by
// bench/messages/run.ts in a child process on its own core.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../../server/app';
import { BACKUPS_OFF } from '../../server/backups/schedule';
import { loadConfig } from '../../server/config';
import { queryCount } from '../../server/db/database';
import { answerRunner, type SeedSpec } from './fixture';
import { seedApp } from './seed-app';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-messages-'));
const config = loadConfig(process.env, {
  dataDir,
  backup: BACKUPS_OFF,
  databaseUrl: process.env.BENCH_DATABASE_URL || null,
  port: 0,
  host: '127.0.0.1',
  clientDir: null,
});
const server = await createServer(config);
await server.app.listen({ port: 0, host: '127.0.0.1' });
const seed = (spec: SeedSpec) => seedApp(server.ctx, spec);

const addr = server.app.server.address();
const defaultListCache = config.conversationListCache;
// For the list's "changed in one conversation" row: a change announced before each read, as a message would.
const lists = server.ctx.lists;
const readList = lists.read.bind(lists);
let changeEach: { userId: string; conversationId: string } | null = null;
lists.read = (userId) => {
  if (changeEach && userId === changeEach.userId) lists.changed([userId], changeEach.conversationId);
  return readList(userId);
};
answerRunner(
  typeof addr === 'object' && addr ? addr.port : 0,
  seed,
  async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  },
  undefined,
  (entries, change) => {
    server.ctx.lists.resize(entries < 0 ? defaultListCache : entries);
    changeEach = change;
  },
  () => queryCount(server.ctx.db),
);
