// `npm run admin -- backup <file>` / `restore <file>`: one gzip'd tar of the database (SQLite: an online snapshot
// through SQLite's backup API, consistent while the server writes), every upload (read through UploadStorage, so an
// S3 store is backed up the same way), secrets.json and manifest.json (versions, counts, sha256 of each member).
// On PostgreSQL the database is not in the archive: pg_dump / pg_restore do that (docs/administration.md).
// Neither builds the server: the backup reads the files beside the running process, the restore writes into an
// empty DATA_DIR only after the whole archive has been checked.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Header, Pack, ReadEntry, extract } from 'tar';
import { z } from 'zod';
import type { Config } from '../config';
import { migrations } from '../db/migrations';
import { isStorageKey } from '../uploads/file-names';
import { storagesFor } from '../uploads/storage-for';
import { VERSION } from './admin.routes';

export const BACKUP_FORMAT = 'beseda-backup';
/** Raised when the archive's layout or meaning changes; a restore refuses archives newer than it knows. */
export const BACKUP_FORMAT_VERSION = 1;

const DATABASE_MEMBER = 'database.sqlite';
const SECRETS_MEMBER = 'secrets.json';
const MANIFEST = 'manifest.json';
const UPLOADS = 'uploads/';

/** A refusal the administrator can act on (exit code 1); nothing was written. */
export class BackupRefused extends Error {}

const memberSchema = z.object({
  path: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
type Member = z.infer<typeof memberSchema>;

const countsSchema = z.object({
  users: z.number().int().nonnegative(),
  conversations: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  uploads: z.number().int().nonnegative(),
  uploadBytes: z.number().int().nonnegative(),
});

// Only what a restore needs to read is checked strictly; later format versions are refused before this parse.
const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().positive(),
  appVersion: z.string(),
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    inArchive: z.boolean(),
    migration: z.string().nullable(),
    note: z.string().optional(),
  }),
  counts: countsSchema,
  members: z.array(memberSchema),
});
export type Manifest = z.infer<typeof manifestSchema>;

const PG_NOTE =
  'База PostgreSQL не входит в архив: сохраните её командой pg_dump -Fc и восстановите pg_restore (docs/administration.md)';

// ---------------------------------------------------------------------------------------------------------------
// Backup

export interface BackupResult {
  file: string;
  manifest: Manifest;
  archiveBytes: number;
}

export async function backup(config: Config, target: string): Promise<BackupResult> {
  const file = path.resolve(target);
  const dir = path.dirname(file);
  if (!isDirectory(dir)) throw new BackupRefused(`Каталог ${dir} не найден: архиву некуда лечь`);
  if (isDirectory(file)) throw new BackupRefused(`${file} — каталог; укажите имя файла архива`);
  if (!isDirectory(config.dataDir)) throw new BackupRefused(`Каталог данных ${config.dataDir} не найден (DATA_DIR)`);
  const postgres = Boolean(config.databaseUrl);
  const sqliteFile = path.join(config.dataDir, 'messenger.sqlite');
  if (!postgres && !fs.existsSync(sqliteFile)) {
    throw new BackupRefused(`В каталоге данных ${config.dataDir} нет базы messenger.sqlite (DATA_DIR)`);
  }

  // Everything in progress lives in one directory beside the target: a failure removes it, leaving no half archive.
  const work = await fs.promises.mkdtemp(path.join(dir, `.${path.basename(file)}.partial-`));
  try {
    const partial = path.join(work, 'archive.tar.gz');
    const pack = new Pack({ gzip: true, portable: true });
    const out = fs.createWriteStream(partial, { mode: 0o600 });
    const written = new Promise<void>((resolve, reject) => {
      pack.on('error', reject);
      out.on('error', reject);
      out.on('close', resolve);
    });
    pack.pipe(out);
    // An error of the stream is raised by `written`; until then the members below would wait for it forever.
    const members: Member[] = [];
    const adding = (async () => {
      let database: Manifest['database'];
      let counts: Omit<Manifest['counts'], 'uploads' | 'uploadBytes'>;
      if (postgres) {
        ({ database, counts } = await postgresFacts(config.databaseUrl as string));
      } else {
        const snapshot = path.join(work, DATABASE_MEMBER);
        ({ database, counts } = await sqliteSnapshot(sqliteFile, snapshot));
        members.push(await addFile(pack, DATABASE_MEMBER, snapshot));
        await fs.promises.rm(snapshot);
      }
      const secrets = path.join(config.dataDir, 'secrets.json');
      if (fs.existsSync(secrets)) members.push(await addFile(pack, SECRETS_MEMBER, secrets));

      // Uploads after the database: one that a message in the snapshot names was written before that message.
      const storage = storagesFor(config).uploads;
      const spool = path.join(work, 'upload');
      let uploads = 0;
      let uploadBytes = 0;
      for await (const key of storage.keys()) {
        if (!isStorageKey(key)) continue;
        const source = await storage.read(key);
        if (!source) continue; // removed since it was listed
        await pipeline(source, fs.createWriteStream(spool, { mode: 0o600 }));
        const member = await addFile(pack, UPLOADS + key, spool);
        members.push(member);
        uploads++;
        uploadBytes += member.size;
      }
      await fs.promises.rm(spool, { force: true });

      const manifest: Manifest = {
        format: BACKUP_FORMAT,
        formatVersion: BACKUP_FORMAT_VERSION,
        appVersion: VERSION,
        createdAt: new Date().toISOString(),
        database,
        counts: { ...counts, uploads, uploadBytes },
        members,
      };
      // Last, as it holds every member's checksum; the restore reads it before it writes anything.
      await addBuffer(pack, MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      pack.end();
      return manifest;
    })();
    // A failed member leaves the stream open: close it so the partial file can be removed.
    adding.catch(() => out.destroy());
    const [manifest] = await Promise.all([adding, written]);
    const handle = await fs.promises.open(partial, 'r');
    await handle.sync();
    await handle.close();
    await fs.promises.rename(partial, file);
    return { file, manifest, archiveBytes: fs.statSync(file).size };
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/**
 * A consistent copy of a database another process may be writing: SQLite's online backup, all pages in one step
 * (one read transaction, so a write cannot restart it; in WAL mode the server keeps writing meanwhile).
 */
async function sqliteSnapshot(source: string, target: string) {
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(target, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    const count = (table: string) =>
      Number((copy.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n);
    const last = copy.prepare('select name from kysely_migration order by name desc limit 1').get() as
      | { name: string }
      | undefined;
    return {
      database: { kind: 'sqlite' as const, inArchive: true, migration: last?.name ?? null },
      counts: { users: count('users'), conversations: count('conversations'), messages: count('messages') },
    };
  } finally {
    copy.close();
  }
}

/** What the manifest says of a PostgreSQL database it does not hold: its migration and figures at the time. */
async function postgresFacts(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const count = async (table: string) => Number((await client.query(`select count(*) as n from ${table}`)).rows[0].n);
    const last = await client.query('select name from kysely_migration order by name desc limit 1');
    return {
      database: {
        kind: 'postgres' as const,
        inArchive: false,
        migration: (last.rows[0]?.name as string | undefined) ?? null,
        note: PG_NOTE,
      },
      counts: {
        users: await count('users'),
        conversations: await count('conversations'),
        messages: await count('messages'),
      },
    };
  } finally {
    await client.end();
  }
}

/** Streams a file into the archive under `name`, hashing what goes in; resolves once the archive has taken it. */
async function addFile(pack: Pack, name: string, file: string): Promise<Member> {
  const { size } = await fs.promises.stat(file);
  const entry = new ReadEntry(new Header({ path: name, type: 'File', size, mode: 0o600, mtime: new Date() }));
  const taken = once(entry, 'end');
  pack.add(entry);
  const hash = createHash('sha256');
  let seen = 0;
  for await (const chunk of fs.createReadStream(file, { end: size - 1 })) {
    hash.update(chunk as Buffer);
    seen += (chunk as Buffer).length;
    if (!entry.write(chunk as Buffer)) await once(entry, 'drain');
  }
  if (seen !== size) throw new Error(`${name}: размер изменился во время копирования`);
  entry.end();
  await taken;
  return { path: name, size, sha256: hash.digest('hex') };
}

async function addBuffer(pack: Pack, name: string, data: Buffer): Promise<void> {
  const entry = new ReadEntry(
    new Header({ path: name, type: 'File', size: data.length, mode: 0o600, mtime: new Date() }),
  );
  const taken = once(entry, 'end');
  pack.add(entry);
  entry.end(data);
  await taken;
}

// ---------------------------------------------------------------------------------------------------------------
// Restore

export interface RestoreResult {
  dataDir: string;
  manifest: Manifest;
}

export async function restore(config: Config, archive: string): Promise<RestoreResult> {
  const file = path.resolve(archive);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new BackupRefused(`Архив ${file} не найден`);
  const dataDir = config.dataDir;
  if (fs.existsSync(dataDir)) {
    if (!isDirectory(dataDir)) throw new BackupRefused(`${dataDir} — не каталог (DATA_DIR)`);
    if (fs.readdirSync(dataDir).length > 0) {
      throw new BackupRefused(
        `Каталог данных ${dataDir} не пуст: восстановление пишет только в пустой или несуществующий каталог. Ничего не изменено.`,
      );
    }
  }
  const parent = path.dirname(dataDir);
  const madeParent = fs.mkdirSync(parent, { recursive: true });
  const work = await fs.promises.mkdtemp(path.join(parent, `.${path.basename(dataDir)}.restore-`));
  let done = false;
  try {
    const unpacked = path.join(work, 'archive');
    fs.mkdirSync(unpacked);
    await unpack(file, unpacked);
    const manifest = await verify(unpacked);
    checkFits(manifest, config);

    // The new data directory is built beside DATA_DIR and renamed into place: a failure leaves no half of it.
    const staged = path.join(work, 'data');
    fs.mkdirSync(staged, { mode: 0o700 });
    if (manifest.database.inArchive) {
      await fs.promises.rename(path.join(unpacked, DATABASE_MEMBER), path.join(staged, 'messenger.sqlite'));
    }
    if (manifest.members.some((m) => m.path === SECRETS_MEMBER)) {
      await fs.promises.rename(path.join(unpacked, SECRETS_MEMBER), path.join(staged, 'secrets.json'));
      await fs.promises.chmod(path.join(staged, 'secrets.json'), 0o600);
    }
    // Through the storage the configuration picks: local disk lands in the staged directory, S3 in its bucket.
    const storage = storagesFor({ ...config, dataDir: staged }).uploads;
    for (const m of manifest.members) {
      if (!m.path.startsWith(UPLOADS)) continue;
      await storage.write(m.path.slice(UPLOADS.length), fs.createReadStream(path.join(unpacked, m.path)));
    }
    if (fs.existsSync(dataDir)) fs.rmdirSync(dataDir); // empty, checked above; rmdir refuses if that changed
    await fs.promises.rename(staged, dataDir);
    done = true;
    return { dataDir, manifest };
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
    if (!done && madeParent) fs.rmSync(madeParent, { recursive: true, force: true });
  }
}

/** Extracts regular files only (no links, no paths outside `into`); a damaged gzip or tar stream is refused. */
async function unpack(file: string, into: string): Promise<void> {
  let odd: string | null = null;
  try {
    await extract({
      file,
      cwd: into,
      strict: true,
      preserveOwner: false,
      filter: (p, entry) => {
        const type = 'type' in entry ? entry.type : null;
        if (type === 'File' || type === 'OldFile' || type === 'Directory') return true;
        odd = p;
        return false;
      },
    });
  } catch (err) {
    throw new BackupRefused(
      `Архив повреждён или это не резервная копия Беседы (${(err as Error).message}). ${NOTHING}`,
    );
  }
  if (odd) throw new BackupRefused(`В архиве посторонний элемент «${odd}»: это не резервная копия Беседы. ${NOTHING}`);
}

const NOTHING = 'Ничего не записано.';

/** The manifest and every member against it, before anything is written. */
async function verify(dir: string): Promise<Manifest> {
  const manifestFile = path.join(dir, MANIFEST);
  if (!fs.existsSync(manifestFile)) {
    throw new BackupRefused(`В архиве нет manifest.json: он обрезан или это не резервная копия Беседы. ${NOTHING}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch {
    throw new BackupRefused(`manifest.json в архиве не читается. ${NOTHING}`);
  }
  const head = raw as { format?: unknown; formatVersion?: unknown };
  if (head?.format !== BACKUP_FORMAT) throw new BackupRefused(`Это не резервная копия Беседы. ${NOTHING}`);
  if (typeof head.formatVersion === 'number' && head.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupRefused(
      `Архив сделан более новой версией сервера (формат ${head.formatVersion}, эта версия читает до ${BACKUP_FORMAT_VERSION}): обновите сервер. ${NOTHING}`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw new BackupRefused(`manifest.json в архиве не такой, как нужно. ${NOTHING}`);
  const manifest = parsed.data;

  const listed = new Set<string>();
  for (const m of manifest.members) {
    const known =
      m.path === DATABASE_MEMBER ||
      m.path === SECRETS_MEMBER ||
      (m.path.startsWith(UPLOADS) && isStorageKey(m.path.slice(UPLOADS.length)));
    if (!known || listed.has(m.path)) throw new BackupRefused(`manifest.json называет лишнее: «${m.path}». ${NOTHING}`);
    listed.add(m.path);
    const file = path.join(dir, m.path);
    if (!fs.existsSync(file)) throw new BackupRefused(`В архиве нет ${m.path}: он обрезан или повреждён. ${NOTHING}`);
    if (fs.statSync(file).size !== m.size || (await sha256Of(file)) !== m.sha256) {
      throw new BackupRefused(`Контрольная сумма ${m.path} не сходится: архив повреждён. ${NOTHING}`);
    }
  }
  if (manifest.database.inArchive !== listed.has(DATABASE_MEMBER)) {
    throw new BackupRefused(`В архиве нет базы данных, которую обещает manifest.json. ${NOTHING}`);
  }
  for (const found of walk(dir)) {
    if (found !== MANIFEST && !listed.has(found)) {
      throw new BackupRefused(`В архиве посторонний файл «${found}». ${NOTHING}`);
    }
  }
  return manifest;
}

/** Whether this server can take the archive: the same kind of database and a schema it knows. */
function checkFits(manifest: Manifest, config: Config): void {
  const kind = manifest.database.kind;
  if (kind === 'sqlite' && config.databaseUrl) {
    throw new BackupRefused(
      `Архив с базой SQLite, а задан DATABASE_URL: восстановите без DATABASE_URL (или перенесите данные иначе). ${NOTHING}`,
    );
  }
  if (kind === 'postgres' && !config.databaseUrl) {
    throw new BackupRefused(
      `Архив сервера с PostgreSQL: задайте DATABASE_URL базы, восстановленной pg_restore, и повторите. ${NOTHING}`,
    );
  }
  const level = manifest.database.migration;
  if (level && !(level in migrations)) {
    throw new BackupRefused(
      `Схема базы в архиве (${level}) новее, чем знает этот сервер: обновите сервер и повторите. ${NOTHING}`,
    );
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function* walk(root: string, rel = ''): Generator<string> {
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(root, p);
    else yield p;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The lines the shell prints after a backup. */
export function describeBackup(r: BackupResult): string {
  const { counts, database } = r.manifest;
  const lines = [
    `Резервная копия: ${r.file} (${formatBytes(r.archiveBytes)})`,
    `База: ${database.kind === 'sqlite' ? `SQLite, в архиве (схема ${database.migration})` : 'PostgreSQL, НЕ в архиве'}`,
    `Пользователей ${counts.users}, бесед ${counts.conversations}, сообщений ${counts.messages}, файлов ${counts.uploads} (${formatBytes(counts.uploadBytes)})`,
  ];
  if (!database.inArchive) lines.push(`${PG_NOTE}:`, `  pg_dump -Fc -f messenger.dump "$DATABASE_URL"`);
  if (!r.manifest.members.some((m) => m.path === SECRETS_MEMBER)) {
    lines.push('Файла secrets.json нет: секреты заданы переменными окружения, сохраните их сами');
  }
  return lines.join('\n');
}

export function describeRestore(r: RestoreResult): string {
  const { counts, database, createdAt } = r.manifest;
  const lines = [
    `Восстановлено в ${r.dataDir} из копии от ${createdAt}`,
    `Пользователей ${counts.users}, бесед ${counts.conversations}, сообщений ${counts.messages}, файлов ${counts.uploads} (${formatBytes(counts.uploadBytes)})`,
  ];
  if (!database.inArchive) {
    lines.push(
      'База PostgreSQL не была в архиве: восстановите её сами, если ещё не сделали:',
      '  pg_restore --no-owner -d "$DATABASE_URL" messenger.dump',
    );
  }
  return lines.join('\n');
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} Б`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} КиБ`;
  return `${(n / 1024 / 1024).toFixed(1)} МиБ`;
}
