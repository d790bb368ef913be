// Builds the upgrade fixtures (tests/fixtures/upgrade/<short sha>/): databases written by earlier releases' real
// servers, which tests/server/upgrade-fixtures.test.ts upgrades with the current server and reads back.
//
//   npm run fixtures:upgrade              every release below (about 20 s each on both databases)
//   npm run fixtures:upgrade -- 71f6aed3  one of them
//
// For each release: a `git worktree` of its commit in a temporary directory, with this checkout's node_modules linked
// in when every runtime dependency the release pins is installed here at that version (or differs only where the
// API did not change, COMPATIBLE below), else `npm ci --offline` from the npm cache. Its server (`server/main.ts`) is
// started twice: on a fresh DATA_DIR with SQLite, and on a scratch PostgreSQL database (TEST_PG_URL's server,
// postgres://postgres@127.0.0.1:5432/test unless set). tests/server/upgrade-fixtures-data.ts writes the data set over
// HTTP and socket.io and reads back what the upgraded server must answer (manifest.json). The server is stopped with
// SIGTERM, then saved: SQLite as data.tar.gz (messenger.sqlite checkpointed and vacuumed, secrets.json, uploads/),
// PostgreSQL as dump.sql.gz (pg_dump, plain SQL) and files.tar.gz (secrets.json, uploads/). docs/administration.md
// «Обновление» lists the releases and why each was chosen. Every one of them runs on Node 24 with this checkout's
// modules; a release that needs Node 22 would be built from a shell after `source scripts/use-node.sh 22` (the
// script starts each server with the Node it runs on).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { type Features, http, type Manifest, writeDataSet } from '../tests/server/upgrade-fixtures-data';

/** The releases fixtures are built from: the ends of the last three waves of work and the first with secret chats. */
export const RELEASES = [
  { commit: 'bb5c4068', why: 'the end of the 22–24 November wave (schema 010)' },
  { commit: 'd86abfc2', why: 'the first with secret chats on the server (schema 019)' },
  { commit: '71f6aed3', why: 'the end of the 24–26 November wave (schema 023)' },
  { commit: '933be1a0', why: 'the end of the 26–27 November wave (schema 037)' },
];

/** Dependencies whose installed version may differ from the release's pin: the API the release uses is the same. */
const COMPATIBLE: Record<string, string> = {
  // 13 is 12 built on Node-API (so one binary serves Node 22 and 24); the JavaScript API is unchanged.
  'better-sqlite3': '12.11.1',
};

const root = path.resolve(import.meta.dirname, '..');
const outRoot = path.join(root, 'tests/fixtures/upgrade');
const pgAdmin = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Links this checkout's node_modules into the worktree when the release's pins allow it; else installs offline. */
function provideModules(tree: string): 'linked' | 'installed' {
  const pkg = JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8'));
  const needed: Record<string, string> = { tsx: pkg.devDependencies?.tsx, ...pkg.dependencies };
  const mismatched = Object.entries(needed).filter(([name, pin]) => {
    const file = path.join(root, 'node_modules', name, 'package.json');
    if (!fs.existsSync(file)) return true;
    const installed = JSON.parse(fs.readFileSync(file, 'utf8')).version;
    return installed !== pin.replace(/^[\^~]/, '') && COMPATIBLE[name] !== pin;
  });
  if (mismatched.length === 0) {
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
    return 'linked';
  }
  console.log(`  ${mismatched.map(([n, v]) => `${n}@${v}`).join(', ')} differ: npm ci --offline`);
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'inherit' });
  return 'installed';
}

function featuresOf(tree: string): Features {
  // The table was one file (src/contract/routes.ts) until it was split per feature into src/contract/api/*.routes.ts.
  const split = path.join(tree, 'src/contract/api');
  const routes = [
    fs.readFileSync(path.join(tree, 'src/contract/routes.ts'), 'utf8'),
    ...(fs.existsSync(split) ? fs.readdirSync(split).filter((f) => f.endsWith('.routes.ts')) : []).map((f) =>
      fs.readFileSync(path.join(split, f), 'utf8'),
    ),
  ].join('\n');
  return {
    threads: routes.includes("'/threads/:id'"),
    polls: routes.includes("'/polls'"),
    secret: routes.includes("'/secret/devices'"),
    secretIdentity: routes.includes("'/secret/identity'"),
  };
}

interface Running {
  url: string;
  stop(): Promise<void>;
}

async function startRelease(tree: string, dataDir: string, databaseUrl: string | null): Promise<Running> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SFU_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: tree, env, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`the release's server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) console.log(`  the server exited with ${code}:\n${output}`);
    },
  };
}

async function pgQuery(url: string, query: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

const tarGz = (out: string, cwd: string, entries: string[]) =>
  execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--mtime=@0', '-czf', out, ...entries], { cwd });

async function buildOne(release: (typeof RELEASES)[number]) {
  const commit = git('rev-parse', release.commit);
  const short = commit.slice(0, 8);
  const date = git('log', '-1', '--format=%aI', commit);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `upgrade-fixture-${short}-`));
  const tree = path.join(tmp, 'tree');
  console.log(`${short} (${date}): ${release.why}`);
  git('worktree', 'add', '--quiet', '--detach', tree, commit);
  try {
    console.log(`  node_modules: ${provideModules(tree)}`);
    const features = featuresOf(tree);
    const migrations = fs.readdirSync(path.join(tree, 'server/db/migrations')).filter((f) => /^\d{3}_/.test(f));
    const schema = migrations.sort().at(-1)?.slice(0, 3) ?? '?';
    const statement = features.secretIdentity
      ? ((await import(path.join(tree, 'src/contract/secret-identity.ts'))).deviceStatement as (
          userId: string,
          key: string,
        ) => string)
      : null;
    const out = path.join(outRoot, short);
    fs.rmSync(out, { recursive: true, force: true });
    for (const database of ['sqlite', 'postgres'] as const) {
      const dataDir = path.join(tmp, `data-${database}`);
      fs.mkdirSync(dataDir);
      let dbUrl: string | null = null;
      const dbName = `upgrade_fixture_${short}_${randomBytes(3).toString('hex')}`;
      if (database === 'postgres') {
        await pgQuery(pgAdmin, `CREATE DATABASE ${dbName}`);
        const u = new URL(pgAdmin);
        u.pathname = `/${dbName}`;
        dbUrl = u.toString();
      }
      try {
        const started = Date.now();
        const server = await startRelease(tree, dataDir, dbUrl);
        let written: Awaited<ReturnType<typeof writeDataSet>>;
        try {
          written = await writeDataSet(http(server.url), features, statement);
        } finally {
          await server.stop();
        }
        const manifest: Manifest = { release: { commit: short, date, schema }, database, ...written };
        const dir = path.join(out, database);
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
        const files = ['secrets.json', 'uploads'].filter((f) => fs.existsSync(path.join(dataDir, f)));
        if (database === 'sqlite') {
          const file = new Sqlite(path.join(dataDir, 'messenger.sqlite'));
          file.pragma('wal_checkpoint(TRUNCATE)');
          file.exec('VACUUM');
          file.pragma('journal_mode = DELETE');
          file.close();
          tarGz(path.join(dir, 'data.tar.gz'), dataDir, ['messenger.sqlite', ...files]);
        } else {
          const sql = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--format=plain', dbUrl as string], {
            maxBuffer: 256 * 1024 * 1024,
          });
          fs.writeFileSync(path.join(dir, 'dump.sql.gz'), zlib.gzipSync(sql, { level: 9 }));
          tarGz(path.join(dir, 'files.tar.gz'), dataDir, files);
        }
        console.log(`  ${database}: written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      } finally {
        if (dbUrl) await pgQuery(pgAdmin, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      }
    }
  } finally {
    git('worktree', 'remove', '--force', tree);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const wanted = process.argv.slice(2);
const chosen = wanted.length ? RELEASES.filter((r) => wanted.some((w) => r.commit.startsWith(w))) : RELEASES;
if (chosen.length === 0) throw new Error(`no release among ${RELEASES.map((r) => r.commit).join(', ')}`);
for (const release of chosen) await buildOne(release);
