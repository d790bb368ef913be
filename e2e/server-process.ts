// The app server in a process of its own, for specs that stop it as a restart does (SIGTERM: the graceful close
// `npm start` makes) or kill it (SIGKILL) and start it again on the same port and data (e2e/server.ts,
// `startRestartableServer`). Settings from the environment (PORT, DATA_DIR, CLIENT_DIR); E2E_CLOCK_AHEAD_MS runs the
// server's rules that far ahead of real time, so the access tokens an earlier run issued have expired. Prints
// "listening <port>" once it listens.
import type { Clock } from '../server/clock';
import { createServer } from '../server/app';
import { BACKUPS_OFF } from '../server/backups/schedule';
import { loadConfig } from '../server/config';

const ahead = Number(process.env.E2E_CLOCK_AHEAD_MS ?? 0);
const clock: Clock = {
  now: () => Date.now() + ahead,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};
const config = loadConfig(process.env, {
  host: '127.0.0.1',
  // Warnings reach the test's output (e2e/server.ts passes them on): a refused refresh says why there.
  logLevel: 'warn',
  databaseUrl: null,
  s3: null,
  backup: BACKUPS_OFF,
});
const server = await createServer(config, { clock });
await server.app.listen({ port: config.port, host: config.host });
const addr = server.app.server.address();
process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
