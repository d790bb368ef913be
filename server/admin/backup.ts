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
import { Header, Pack, ReadEntry, extract, list } from 'tar';
import { z } from 'zod';
import type { Config } from '../config';
import { isStorageKey } from '../uploads/file-names';
import { storagesFor } from '../uploads/storage-for';

export const BACKUP_FORMAT = 'beseda-backup';
/** Raised when the archive's layout or meaning changes; a restore refuses archives newer than it knows. */
export const BACKUP_FORMAT_VERSION = 1;

export const DATABASE_MEMBER = 'database.sqlite';
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

const VERSION: string = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

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
    // Members are added while the archive is written: a failure of either rejects the Promise.all below.
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
      const storages = storagesFor(config);
      const storage = storages.uploads;
      const spool = path.join(work, 'upload');
      let uploads = 0;
      let uploadBytes = 0;
      try {
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
      } finally {
        storages.close();
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
    await fs.promises.rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }).catch(() => {});
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
  // Exactly the size in the header (`end` is inclusive; an empty file reads nothing).
  const source = size > 0 ? fs.createReadStream(file, { end: size - 1 }) : [];
  for await (const chunk of source) {
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
    const manifest = verify(await scan(file));
    await checkFits(manifest, config);
    // Checked: now the files are written, beside DATA_DIR.
    const unpacked = path.join(work, 'archive');
    fs.mkdirSync(unpacked);
    await extract({ file, cwd: unpacked, strict: true, preserveOwner: false });

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
    const storages = storagesFor({ ...config, dataDir: staged });
    try {
      for (const m of manifest.members) {
        if (!m.path.startsWith(UPLOADS)) continue;
        const source = fs.createReadStream(path.join(unpacked, m.path));
        await storages.uploads.write(m.path.slice(UPLOADS.length), source);
      }
    } finally {
      storages.close();
    }
    if (fs.existsSync(dataDir)) fs.rmdirSync(dataDir); // empty, checked above; rmdir refuses if that changed
    await fs.promises.rename(staged, dataDir);
    done = true;
    return { dataDir, manifest };
  } finally {
    // Retried: a write of a failed extraction may still be landing; a leftover must not hide the real error.
    const clean = { recursive: true, force: true, maxRetries: 5, retryDelay: 50 };
    await fs.promises.rm(work, clean).catch(() => {});
    if (!done && madeParent) await fs.promises.rm(madeParent, clean).catch(() => {});
  }
}

export interface Scanned {
  /** Each regular file's size and sha256, by its path in the archive. */
  files: Map<string, { size: number; sha256: string }>;
  manifest: Buffer | null;
}

/**
 * Reads the whole archive once without writing anything: a damaged gzip or tar stream, a link or any other
 * non-file entry is refused here, and every file's checksum is taken on the way.
 */
export async function scan(file: string): Promise<Scanned> {
  const files = new Map<string, { size: number; sha256: string }>();
  let manifest: Buffer | null = null;
  let odd: string | null = null;
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        if (entry.type === 'Directory') return;
        if (entry.type !== 'File' && entry.type !== 'OldFile') {
          odd ??= entry.path;
          return;
        }
        const hash = createHash('sha256');
        const chunks: Buffer[] | null = entry.path === MANIFEST && entry.size <= MAX_MANIFEST_BYTES ? [] : null;
        let size = 0;
        entry.on('data', (c: Buffer) => {
          hash.update(c);
          size += c.length;
          chunks?.push(c);
        });
        entry.on('end', () => {
          if (files.has(entry.path)) odd ??= entry.path; // the same path twice: which one is the backup?
          files.set(entry.path, { size, sha256: hash.digest('hex') });
          if (chunks) manifest = Buffer.concat(chunks);
        });
      },
    });
  } catch (err) {
    throw new BackupRefused(
      `Архив повреждён или это не резервная копия Беседы (${(err as Error).message}). ${NOTHING}`,
    );
  }
  if (odd) throw new BackupRefused(`В архиве посторонний элемент «${odd}»: это не резервная копия Беседы. ${NOTHING}`);
  return { files, manifest };
}

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
export const NOTHING = 'Ничего не записано.';

/** The manifest and every member against it, before anything is written. */
export function verify({ files, manifest: bytes }: Scanned): Manifest {
  if (!bytes) {
    throw new BackupRefused(`В архиве нет manifest.json: он обрезан или это не резервная копия Беседы. ${NOTHING}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
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
    const found = files.get(m.path);
    if (!found) throw new BackupRefused(`В архиве нет ${m.path}: он обрезан или повреждён. ${NOTHING}`);
    if (found.size !== m.size || found.sha256 !== m.sha256) {
      throw new BackupRefused(`Контрольная сумма ${m.path} не сходится: архив повреждён. ${NOTHING}`);
    }
  }
  if (manifest.database.inArchive !== listed.has(DATABASE_MEMBER)) {
    throw new BackupRefused(`В архиве нет базы данных, которую обещает manifest.json. ${NOTHING}`);
  }
  for (const found of files.keys()) {
    if (found !== MANIFEST && !listed.has(found)) {
      throw new BackupRefused(`В архиве посторонний файл «${found}». ${NOTHING}`);
    }
  }
  return manifest;
}

/** Whether this server can take the archive: the same kind of database and a schema it knows. */
async function checkFits(manifest: Manifest, config: Config): Promise<void> {
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
  // Loaded here only: the migrations bring the search index's stemmers, which a backup has no use for.
  const { migrations } = await import('../db/migrations');
  if (level && !(level in migrations)) {
    throw new BackupRefused(
      `Схема базы в архиве (${level}) новее, чем знает этот сервер: обновите сервер и повторите. ${NOTHING}`,
    );
  }
  // The files without their database would start an empty server that no longer opens them: pg_restore comes first.
  if (kind === 'postgres' && !(await postgresHasSchema(config.databaseUrl as string))) {
    throw new BackupRefused(
      `База по DATABASE_URL пуста: сначала восстановите её (pg_restore --no-owner -d "$DATABASE_URL" messenger.dump), затем повторите. ${NOTHING}`,
    );
  }
}

async function postgresHasSchema(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const res = await client.query("select to_regclass('kysely_migration') is not null as present");
    return res.rows[0]?.present === true;
  } catch (err) {
    throw new BackupRefused(`Не удалось подключиться к DATABASE_URL: ${(err as Error).message}. ${NOTHING}`);
  } finally {
    await client.end().catch(() => {});
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

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} Б`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} КиБ`;
  return `${(n / 1024 / 1024).toFixed(1)} МиБ`;
}
