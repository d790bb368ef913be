// `npm start`: the whole product in one process on embedded defaults (serve.ts).
import { type Config, loadConfig } from './config';
import { ConfigError } from './config-error';
import { serve } from './serve';
import { startupProblem } from './startup';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  // A setting it cannot start with: which variable and what it wants, in one sentence.
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Беседа не запущена: ${err.message}.`);
  process.exit(1);
}
let served: Awaited<ReturnType<typeof serve>>;
try {
  served = await serve(config);
} catch (err) {
  // A known condition (no certificate, a port in use, a wrong DATABASE_URL, a full or read-only disk, a refused
  // schema upgrade): the reason and what to do in the operator's language, and no stack trace to read it from.
  const problem = startupProblem(err, config);
  if (problem) {
    console.error(`Беседа не запущена: ${problem}`);
    process.exit(1);
  }
  throw err;
}
// werift can reject promises nobody awaits when a peer vanishes mid-handshake, and socket.io's Redis adapter
// publishes without catching while Redis is down: one broken call or a Redis outage must not take every
// conversation down with the process (readiness reports Redis meanwhile).
process.on('unhandledRejection', (err) => served.server.app.log.error({ err }, 'unhandled rejection'));

const stop = async () => {
  await served.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
