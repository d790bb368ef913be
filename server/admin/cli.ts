// `npm run admin -- <command>`: the server's administration from the shell, on the same data directory and
// database as `npm start` (DATA_DIR, DATABASE_URL, REDIS_URL). It builds the server without listening, so every
// change goes through the same rules as «Администрирование»; with Redis configured, the running processes hear
// ended sign-ins at once (without Redis, a running server notices at the latest when the access token expires).
// `backup` and `restore` work on the files and database directly, without building the server (backup.ts).
// Exit codes: 0 done, 1 refused or failed (the message says why), 2 wrong usage.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Server } from '../app';
import { type Config, loadConfig } from '../config';
import { ConfigError } from '../config-error';
import { HttpError } from '../http/errors';
import { archiveSource } from './archive-source';
import { BackupRefused, backup, describeBackup, describeRestore, restore } from './backup';
import { serverStats } from './stats';

type Options = Record<string, string | boolean | undefined>;

interface CommandShape {
  usage: string;
  about: string;
  options?: Record<string, { type: 'string' | 'boolean' }>;
  positionals: number;
}
interface ServerCommand extends CommandShape {
  run(server: Server, args: string[], opts: Options): Promise<string>;
}
/** Works on DATA_DIR and the database itself: no server is built (a backup runs beside the live one). */
interface FilesCommand extends CommandShape {
  run(config: Config, args: string[], opts: Options): Promise<string>;
}

async function userId(server: Server, username: string): Promise<string> {
  const row = await server.ctx.db
    .selectFrom('users')
    .select('id')
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
  if (!row) throw new HttpError(404, `Пользователь «${username}» не найден`);
  return row.id;
}

const COMMANDS: Record<string, ServerCommand> = {
  'create-user': {
    usage: 'create-user <username> <displayName> [--admin]  (the password is read from ADMIN_PASSWORD or stdin)',
    about: 'creates an account, whatever the registration mode',
    options: { admin: { type: 'boolean' } },
    positionals: 2,
    async run(server, [username, displayName], opts) {
      const password = process.env.ADMIN_PASSWORD ?? (await readStdin()).trim();
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { username, displayName, password },
        // The shell may create accounts on a closed server: the gate sees an invite it makes now.
        headers: { 'content-type': 'application/json' },
      });
      if (res.statusCode === 403) {
        const code = (await server.app.registration.create(null, { maxUses: 1, note: 'npm run admin -- create-user' }))
          .code;
        const again = await server.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { username, displayName, password, inviteCode: code },
        });
        return finishCreate(server, again, opts.admin === true);
      }
      return finishCreate(server, res, opts.admin === true);
    },
  },
  'reset-password': {
    usage: 'reset-password <username> [--base-url https://chat.example.org]',
    about: 'prints a one-time password-reset link (24 hours)',
    options: { 'base-url': { type: 'string' } },
    positionals: 1,
    async run(server, [username], opts) {
      const link = await server.app.accounts.resetLink(await userId(server, username), null);
      const base = typeof opts['base-url'] === 'string' ? opts['base-url'].replace(/\/$/, '') : '';
      return `${base}/reset/${link.token}\n(действует до ${link.expiresAt})`;
    },
  },
  deactivate: {
    usage: 'deactivate <username>',
    about: 'deactivates an account and ends its sign-ins',
    positionals: 1,
    async run(server, [username]) {
      await server.app.accounts.deactivate(await userId(server, username), null);
      return `Аккаунт «${username}» отключён`;
    },
  },
  reactivate: {
    usage: 'reactivate <username>',
    about: 'lets a deactivated account sign in again',
    positionals: 1,
    async run(server, [username]) {
      await server.app.accounts.reactivate(await userId(server, username));
      return `Аккаунт «${username}» включён`;
    },
  },
  promote: {
    usage: 'promote <username>',
    about: 'makes an account an administrator',
    positionals: 1,
    async run(server, [username]) {
      await server.app.accounts.setRole(await userId(server, username), 'admin');
      return `«${username}» — администратор`;
    },
  },
  demote: {
    usage: 'demote <username>',
    about: 'makes an administrator a member (never the last one)',
    positionals: 1,
    async run(server, [username]) {
      await server.app.accounts.setRole(await userId(server, username), 'member');
      return `«${username}» — участник`;
    },
  },
  invite: {
    usage: 'invite [--uses N] [--hours H] [--note text]',
    about: 'prints a registration invite code',
    options: { uses: { type: 'string' }, hours: { type: 'string' }, note: { type: 'string' } },
    positionals: 0,
    async run(server, _args, opts) {
      const num = (v: unknown, what: string) => {
        if (v === undefined) return null;
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new Usage(`${what}: нужно целое число больше нуля`);
        return n;
      };
      const invite = await server.app.registration.create(null, {
        maxUses: num(opts.uses, '--uses'),
        expiresInHours: num(opts.hours, '--hours'),
        note: typeof opts.note === 'string' ? opts.note.slice(0, 100) : null,
      });
      return invite.code;
    },
  },
  stats: {
    usage: 'stats',
    about: 'prints the server figures as JSON',
    positionals: 0,
    async run(server) {
      return JSON.stringify({ ...(await serverStats(server.ctx.db)), database: server.ctx.dialect }, null, 2);
    },
  },
};

const FILE_COMMANDS: Record<string, FilesCommand> = {
  backup: {
    usage: 'backup <file.tar.gz>',
    about:
      'writes one archive: an online snapshot of the SQLite database (on PostgreSQL use pg_dump), uploads, secrets.json and manifest.json; safe while the server runs',
    positionals: 1,
    async run(config, [file]) {
      return describeBackup(await backup(config, file as string));
    },
  },
  version: {
    usage: 'version',
    about: 'prints the release, the schema it brings and the schema the database is at (read without changing it)',
    positionals: 0,
    async run(config) {
      const { databaseSchema, SCHEMA_VERSION } = await import('../db/upgrade');
      const { describeVersion, RELEASE_VERSION, schemaNumber } = await import('../version');
      let database: string;
      try {
        const at = await databaseSchema(config);
        database = at === null ? 'пуста (схема появится при первом запуске)' : `схема ${schemaNumber(at)}`;
        if (at !== null && schemaNumber(at) !== SCHEMA_VERSION) {
          database +=
            (schemaNumber(at) as string) < SCHEMA_VERSION
              ? ' — обновится при запуске сервера'
              : ' — записана более новой версией, эта её не откроет';
        }
      } catch (err) {
        database = `не прочитана (${(err as Error).message})`;
      }
      return `${describeVersion(RELEASE_VERSION, SCHEMA_VERSION)}\nБаза: ${database}`;
    },
  },
  restore: {
    usage: 'restore <file.tar.gz | name in DATA_DIR/backups | S3 key>',
    about:
      'restores an archive into DATA_DIR, which must be empty or absent; the whole archive is checked before anything is written',
    positionals: 1,
    async run(config, [named]) {
      const source = await archiveSource(config, named as string);
      try {
        return describeRestore(await restore(config, source.file));
      } finally {
        await source.done();
      }
    },
  },
  'verify-backup': {
    usage: 'verify-backup <file.tar.gz | messenger.dump | name in DATA_DIR/backups | S3 key>',
    about:
      'checks an archive (or a pg_dump) in a scratch directory without touching DATA_DIR or the database: checksums, integrity, counts, one message read',
    positionals: 1,
    async run(config, [named]) {
      const { verifyBackup } = await import('./verify-backup');
      return verifyBackup(config, named as string);
    },
  },
};

class Usage extends Error {}

async function finishCreate(
  server: Server,
  res: { statusCode: number; json(): { message?: string; user?: { id: string; username: string } } },
  admin: boolean,
): Promise<string> {
  const body = res.json();
  if (res.statusCode !== 201 || !body.user) throw new HttpError(res.statusCode, body.message ?? 'Не удалось создать');
  if (admin) await server.app.accounts.setRole(body.user.id, 'admin');
  return `Создан «${body.user.username}»${admin ? ' (администратор)' : ''}`;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new Usage('Пароль: задайте ADMIN_PASSWORD или передайте его на вход');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function help(): string {
  const lines = Object.entries({ ...COMMANDS, ...FILE_COMMANDS }).map(([, c]) => `  ${c.usage}\n      ${c.about}`);
  return `npm run admin -- <command> [options]\n\n${lines.join('\n')}\n\nEach command takes --help.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    console.log(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name] ?? FILE_COMMANDS[name];
  if (!command) {
    console.error(`Неизвестная команда: ${name}\n\n${help()}`);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { help: { type: 'boolean' }, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    console.error(`${(err as Error).message}\nusage: npm run admin -- ${command.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(`usage: npm run admin -- ${command.usage}\n${command.about}`);
    return 0;
  }
  if (parsed.positionals.length !== command.positionals) {
    console.error(`usage: npm run admin -- ${command.usage}`);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig(process.env, { clientDir: null, logLevel: 'silent' });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`${err.message}.`);
    return 1;
  }
  const values = parsed.values as Options;
  const files = FILE_COMMANDS[name];
  if (files) {
    try {
      console.log(await files.run(config, parsed.positionals, values));
      return 0;
    } catch (err) {
      // A refusal names its reason; anything else (a full disk, no permission) still ends with code 1.
      console.error(err instanceof BackupRefused ? err.message : `Не удалось: ${(err as Error).message}`);
      return 1;
    }
  }
  // Loaded only here: backup and restore start without the whole server's code.
  const { createServer } = await import('../app');
  let server: Server;
  try {
    // A command's short-lived server never takes a scheduled backup: the running server does.
    server = await createServer({ ...config, backup: { ...config.backup, schedule: null } });
  } catch (err) {
    // A refused upgrade or an unreachable database: the same sentence `npm start` prints.
    const { startupProblem } = await import('../startup');
    const problem = startupProblem(err, config);
    if (!problem) throw err;
    console.error(problem);
    return 1;
  }
  try {
    console.log(await (command as ServerCommand).run(server, parsed.positionals, values));
    return 0;
  } catch (err) {
    if (err instanceof Usage) {
      console.error(err.message);
      return 2;
    }
    if (err instanceof HttpError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
