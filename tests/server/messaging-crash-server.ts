// The real server in a process of its own, for messaging-durability.test.ts to kill -9: configuration from the
// environment (DATA_DIR, DATABASE_URL, SQLITE_SYNCHRONOUS), a free port, printed as "listening <port>".
import { createServer } from '../../server/app';
import { BACKUPS_OFF } from '../../server/backups/schedule';
import { loadConfig } from '../../server/config';

const config = loadConfig(process.env, {
  port: 0,
  host: '127.0.0.1',
  clientDir: null,
  logLevel: 'silent',
  backup: BACKUPS_OFF,
});
const server = await createServer(config);
await server.app.listen({ port: 0, host: '127.0.0.1' });
const addr = server.app.server.address();
process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
