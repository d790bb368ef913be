// The plugin every other one builds on: the configuration, the clock, the database (closed last, after every
// plugin registered later has closed) and the secrets, as decorations of the root instance.
import fp from 'fastify-plugin';
import type { Clock } from './clock';
import type { Config } from './config';
import { type Database, type Dialect, openDatabase } from './db/database';
import { loadSecrets, type Secrets } from './secrets';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: Clock;
    db: Database;
    dialect: Dialect;
    secrets: Secrets;
  }
}

export const basePlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    const secrets = loadSecrets(config);
    const { db, dialect } = await openDatabase(config, { now: () => clock.now(), log: (line) => app.log.info(line) });
    app.decorate('config', config);
    app.decorate('clock', clock);
    app.decorate('db', db);
    app.decorate('dialect', dialect);
    app.decorate('secrets', secrets);
    // onClose hooks run in reverse order of registration: this one after every feature has stopped.
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'base' },
);
