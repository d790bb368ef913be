// The real server for bench:import in its own process (so its memory is measured alone): SQLite in a fresh data
// directory, registration open; prints its port as one JSON line, then serves until it is killed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../../server/app';
import { BACKUPS_OFF } from '../../server/backups/schedule';
import { loadConfig } from '../../server/config';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
const config = loadConfig(process.env, {
  dataDir,
  backup: BACKUPS_OFF,
  databaseUrl: process.env.BENCH_DATABASE_URL ?? null,
  port: 0,
  host: '127.0.0.1',
  clientDir: null,
  logLevel: 'warn',
});
const server = await createServer(config);
await server.app.listen({ port: 0, host: '127.0.0.1' });
const address = server.app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
const stop = async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
