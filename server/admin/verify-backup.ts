// `npm run admin -- verify-backup <archive>`: the restore drill without the restore. The archive is read into a
// scratch directory under the system's temporary one (the live DATA_DIR and database are never opened): every member
// against manifest.json's checksums, then the SQLite database in it opened read-only — PRAGMA integrity_check, the
// figures of its main tables against the manifest's, one message read through. A PostgreSQL dump (pg_dump -Fc) is
// read by pg_restore --list; with DATABASE_URL set it is also restored into a scratch database beside that one
// (created and dropped here) and checked the same way. Every problem is one Russian sentence (exit code 1).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { extract } from 'tar';
import type { Config } from '../config';
import { archiveSource } from './archive-source';
import { BackupRefused, DATABASE_MEMBER, formatBytes, NOTHING, type Manifest, scan, verify } from './backup';

const run = promisify(execFile);

/** The tables whose rows are counted, with the names the report gives them. */
const MAIN_TABLES: [string, string][] = [
  ['users', 'пользователей'],
  ['conversations', 'бесед'],
  ['conversation_members', 'участий в беседах'],
  ['messages', 'сообщений'],
  ['uploads', 'файлов в базе'],
  ['contacts', 'контактов'],
];

/** The first bytes of pg_dump's custom format. */
const PG_DUMP_MAGIC = Buffer.from('PGDMP');

export const VERIFIED = 'Резервная копия в порядке';

/** A verify-backup refusal, without the restore's «nothing written» (nothing ever is here). */
const refuse = (message: string) => new BackupRefused(message.replace(` ${NOTHING}`, ''));

export async function verifyBackup(config: Config, named: string): Promise<string> {
  const source = await archiveSource(config, named);
  const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'beseda-verify-'));
  try {
    if (isPgDump(source.file)) return await verifyPgDump(config, source.file, source.label);
    let manifest: Manifest;
    try {
      manifest = verify(await scan(source.file));
    } catch (err) {
      if (err instanceof BackupRefused) throw refuse(err.message);
      throw err;
    }
    const lines = [
      `Архив: ${source.label} (${formatBytes(fs.statSync(source.file).size)}), сделан ${manifest.createdAt}`,
    ];
    lines.push(`Контрольные суммы сходятся (файлов по manifest.json: ${manifest.members.length})`);
    if (manifest.database.inArchive) {
      await extract({ file: source.file, cwd: scratch, strict: true, preserveOwner: false }, [DATABASE_MEMBER]);
      lines.push(...checkSqlite(path.join(scratch, DATABASE_MEMBER), manifest));
    } else {
      lines.push(
        'База PostgreSQL в архив не входит: проверьте её дамп той же командой (у копий по расписанию он лежит рядом, с окончанием .dump)',
      );
    }
    const { uploads, uploadBytes } = manifest.counts;
    lines.push(`Загруженных файлов в архиве: ${uploads} (${formatBytes(uploadBytes)})`);
    return `${lines.join('\n')}\n${VERIFIED}: её можно восстановить (npm run admin -- restore).`;
  } finally {
    await fs.promises.rm(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }).catch(() => {});
    await source.done();
  }
}

function isPgDump(file: string): boolean {
  const head = Buffer.alloc(PG_DUMP_MAGIC.length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head.equals(PG_DUMP_MAGIC);
}

/** What SQLite says of a file that is no database or a damaged one, in a sentence of ours. */
function sqliteProblem(err: unknown): BackupRefused {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return refuse(`База в архиве повреждена: SQLite не может её прочитать (${(err as Error).message})`);
  }
  return refuse(`База в архиве не читается: ${(err as Error).message}`);
}

function checkSqlite(file: string, manifest: Manifest): string[] {
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw sqliteProblem(err);
  }
  try {
    let problems: string[];
    try {
      problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    } catch (err) {
      throw sqliteProblem(err);
    }
    if (!(problems.length === 1 && problems[0] === 'ok')) {
      const shown = problems.slice(0, 3).join('; ');
      throw refuse(`База в архиве повреждена: проверка целостности нашла ошибки (${problems.length}): ${shown}`);
    }
    const lines = ['База SQLite: проверка целостности пройдена'];
    try {
      const counts = countTables((sql) => db.prepare(sql).get() as Record<string, unknown> | undefined);
      lines.push(...checkCounts(counts, manifest));
      lines.push(readOneMessage(db.prepare(ONE_MESSAGE).get() as MessageRow | undefined));
    } catch (err) {
      if (err instanceof BackupRefused) throw err;
      throw sqliteProblem(err);
    }
    return lines;
  } finally {
    db.close();
  }
}

const ONE_MESSAGE =
  'select id, type, content, created_at from messages where deleted_at is null order by created_at desc limit 1';
type MessageRow = { id: string; type: string; content: unknown; created_at: string };

function countTables(get: (sql: string) => Record<string, unknown> | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [table] of MAIN_TABLES) counts.set(table, Number(get(`select count(*) as n from ${table}`)?.n ?? 0));
  return counts;
}

function checkCounts(counts: Map<string, number>, manifest: Manifest): string[] {
  for (const table of ['users', 'conversations', 'messages'] as const) {
    const found = counts.get(table) ?? 0;
    if (found !== manifest.counts[table]) {
      throw refuse(
        `В базе архива ${found} строк в ${table}, а manifest.json обещает ${manifest.counts[table]}: архив собран неправильно`,
      );
    }
  }
  return [`Записей: ${MAIN_TABLES.map(([table, name]) => `${name} ${counts.get(table) ?? 0}`).join(', ')}`];
}

function readOneMessage(row: MessageRow | undefined): string {
  if (!row) return 'Сообщений нет: читать нечего';
  if (typeof row.content !== 'string') {
    throw refuse(`Сообщение ${row.id} в базе архива не читается: его текст не строка`);
  }
  return `Последнее сообщение (${row.id}, ${row.created_at}) читается: ${[...row.content].length} символов`;
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL dumps

async function pgRestore(args: string[]): Promise<string> {
  try {
    const { stdout } = await run('pg_restore', args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { code?: unknown; stderr?: string; message: string };
    if (e.code === 'ENOENT') {
      throw refuse(
        'pg_restore не найден: установите клиент PostgreSQL (пакет postgresql-client), чтобы проверить дамп',
      );
    }
    const said = (e.stderr ?? e.message).trim().split('\n')[0] ?? '';
    throw refuse(`Дамп PostgreSQL не читается: ${said.replace(/^pg_restore: (error: )?/, '')}`);
  }
}

async function verifyPgDump(config: Config, file: string, label: string): Promise<string> {
  const listing = await pgRestore(['--list', file]);
  const tables = listing.split('\n').filter((l) => / TABLE DATA public /.test(l)).length;
  if (!/ TABLE DATA public messages /.test(listing)) {
    throw refuse('Дамп PostgreSQL читается, но в нём нет таблицы messages: это не база Беседы');
  }
  const lines = [`Дамп PostgreSQL: ${label} (${formatBytes(fs.statSync(file).size)}), таблиц с данными: ${tables}`];
  if (!config.databaseUrl) {
    lines.push('Структура дампа прочитана; задайте DATABASE_URL, чтобы проверить и восстановление в пробную базу');
    return `${lines.join('\n')}\n${VERIFIED}.`;
  }
  const name = `beseda_verify_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: config.databaseUrl });
  try {
    await admin.connect();
  } catch (err) {
    throw refuse(`Не удалось подключиться к DATABASE_URL: ${(err as Error).message}`);
  }
  try {
    try {
      await admin.query(`create database ${name}`);
    } catch (err) {
      throw refuse(
        `Пробную базу для проверки создать не удалось (${(err as Error).message}): дайте пользователю DATABASE_URL право CREATEDB или проверьте без DATABASE_URL`,
      );
    }
    const url = new URL(config.databaseUrl);
    url.pathname = `/${name}`;
    try {
      await pgRestore(['--no-owner', '--no-privileges', '--exit-on-error', '-d', url.toString(), file]);
      const scratch = new pg.Client({ connectionString: url.toString() });
      await scratch.connect();
      try {
        const counts = new Map<string, number>();
        for (const [table] of MAIN_TABLES) {
          counts.set(table, Number((await scratch.query(`select count(*) as n from ${table}`)).rows[0].n));
        }
        lines.push(
          'Дамп восстановлен в пробную базу',
          `Записей: ${MAIN_TABLES.map(([t, n]) => `${n} ${counts.get(t) ?? 0}`).join(', ')}`,
          readOneMessage((await scratch.query(ONE_MESSAGE)).rows[0] as MessageRow | undefined),
        );
      } finally {
        await scratch.end();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    }
  } finally {
    await admin.end().catch(() => {});
  }
  return `${lines.join('\n')}\n${VERIFIED}: пробная база удалена.`;
}
