// «Экспорт данных» jobs (docs/accounts.md): asking makes a row and queues the build on this process; the row is
// what any process answers the status from. Builds run one at a time per process, so an export never competes with
// another for the disk and the event loop. A ready archive is kept for EXPORT.keepMs, then the sweep deletes it.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Writable } from 'node:stream';
import { ZipArchive } from 'archiver';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { ExportStatus } from '../../src/contract/api';
import { EXPORT } from '../../src/contract/limits';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import type { ExportsTable } from '../db/schema';
import type { UploadStorage } from '../uploads/storage';
import { fillExport } from './export-archive';

export type ExportRow = Selectable<ExportsTable>;
type Status = z.input<typeof ExportStatus>;

/** A building row not moved for this long belonged to a process that stopped: it is failed. */
export const STALE_BUILD_MS = 60_000;
/** How often a running build moves its row (well inside STALE_BUILD_MS). */
const HEARTBEAT_MS = 10_000;
/** Progress is written when it moved at least this much (or on the heartbeat). */
const PROGRESS_STEP = 0.02;

export interface ExportDeps {
  db: Database;
  clock: Clock;
  /** Where uploads are kept (one's own go into the archive). */
  uploads: UploadStorage;
  /** Where the archives are kept, under their export id. */
  archives: UploadStorage;
  /** Signs download links. */
  secret: Uint8Array;
  log: { warn(obj: object, msg: string): void };
}

export function createExports({ db, clock, uploads, archives, secret, log }: ExportDeps) {
  const iso = (ms = clock.now()) => new Date(ms).toISOString();
  let queue: Promise<void> = Promise.resolve();

  const sign = (id: string, exp: number, sessionId: string) =>
    createHmac('sha256', secret).update(`export-download\n${id}\n${exp}\n${sessionId}`).digest('base64url');

  /**
   * A link that downloads the archive without a bearer token, for EXPORT.linkMs, bound to the sign-in it was handed
   * to: it stops with that sign-in (export.routes.ts), as the sign-in's access tokens do.
   */
  function downloadLink(id: string, sessionId: string): string {
    const exp = clock.now() + EXPORT.linkMs;
    return `/api/export/${encodeURIComponent(id)}/download?token=${exp}.${sessionId}.${sign(id, exp, sessionId)}`;
  }

  /** The sign-in an unexpired, untampered link for this export was handed to, or null. */
  function linkSession(id: string, token: string): string | null {
    const m = /^(\d{1,15})\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return null;
    const exp = Number(m[1]);
    const sessionId = m[2] as string;
    if (exp < clock.now()) return null;
    const want = Buffer.from(sign(id, exp, sessionId));
    const got = Buffer.from(m[3] as string);
    return want.length === got.length && timingSafeEqual(want, got) ? sessionId : null;
  }

  /** Whether `token` is an unexpired link for this export (whatever became of its sign-in). */
  const linkValid = (id: string, token: string): boolean => linkSession(id, token) !== null;

  const stale = (row: ExportRow) =>
    row.status === 'building' && Date.parse(row.updated_at) < clock.now() - STALE_BUILD_MS;

  /** building, ready or failed (a stale build is failed). */
  const statusOf = (row: ExportRow): Status['status'] => (stale(row) ? 'failed' : (row.status as Status['status']));

  /**
   * The row as the contract has it (a stale build is failed; a ready one carries a fresh download link, for the
   * sign-in asking).
   */
  function view(row: ExportRow, sessionId: string): Status {
    const status = statusOf(row);
    return {
      id: row.id,
      status,
      progress: status === 'ready' ? 1 : Math.max(0, Math.min(1, Number(row.progress))),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      size: row.size === null ? null : Number(row.size),
      downloadUrl: status === 'ready' ? downloadLink(row.id, sessionId) : null,
    };
  }

  const live = () => db.selectFrom('exports').selectAll().where('expires_at', '>', iso());

  async function build(row: ExportRow): Promise<void> {
    let written = 0;
    const move = async (progress: number) => {
      written = progress;
      await db
        .updateTable('exports')
        .set({ progress, updated_at: iso() })
        .where('id', '=', row.id)
        .where('status', '=', 'building')
        .execute();
    };
    const heartbeat = setInterval(() => {
      move(written).catch(() => {});
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const zip = new ZipArchive({ zlib: { level: 6 } });
    try {
      const stored = archives.write(row.id, zip);
      const filled = fillExport({ db, uploads }, row.user_id, zip, (done) => {
        if (done - written >= PROGRESS_STEP && done < 1) move(done).catch(() => {});
      });
      // Either side failing stops both: a broken archive is never kept.
      await Promise.all([stored, filled.catch((err) => (zip.abort(), Promise.reject(err)))]);
      await db
        .updateTable('exports')
        .set({ status: 'ready', progress: 1, size: zip.pointer(), updated_at: iso() })
        .where('id', '=', row.id)
        .execute();
    } catch (err) {
      log.warn({ err, exportId: row.id }, 'export failed');
      (zip as unknown as Writable).destroy();
      await archives.remove(row.id).catch(() => {});
      await db
        .updateTable('exports')
        .set({ status: 'failed', updated_at: iso() })
        .where('id', '=', row.id)
        .execute()
        .catch(() => {});
    } finally {
      clearInterval(heartbeat);
    }
  }

  return {
    view,
    statusOf,
    linkValid,
    linkSession,

    /** Starts an archive, or answers the one already being built for this user. */
    async start(userId: string, sessionId: string): Promise<Status> {
      const building = await live()
        .where('user_id', '=', userId)
        .where('status', '=', 'building')
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (building && !stale(building)) return view(building, sessionId);
      const now = clock.now();
      const row: ExportRow = {
        id: randomUUID(),
        user_id: userId,
        status: 'building',
        progress: 0,
        size: null,
        created_at: iso(now),
        updated_at: iso(now),
        expires_at: iso(now + EXPORT.keepMs),
      };
      await db.insertInto('exports').values(row).execute();
      queue = queue.then(() => build(row));
      return view(row, sessionId);
    },

    /** The user's export by id (someone else's, or an expired one, is null). */
    async find(userId: string, id: string): Promise<ExportRow | null> {
      return (await live().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()) ?? null;
    },

    /** Any live export by id (for a signed link, which names no user). */
    async byId(id: string): Promise<ExportRow | null> {
      return (await live().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    async latest(userId: string): Promise<ExportRow | null> {
      return (await live().where('user_id', '=', userId).orderBy('created_at', 'desc').executeTakeFirst()) ?? null;
    },

    /** The stored ZIP of a ready export. */
    read: (id: string) => archives.read(id),

    /** Deletes expired archives and their rows. */
    async sweep(): Promise<number> {
      const expired = await db.selectFrom('exports').select('id').where('expires_at', '<=', iso()).execute();
      for (const { id } of expired) {
        await archives.remove(id);
        await db.deleteFrom('exports').where('id', '=', id).execute();
      }
      return expired.length;
    },

    /** Waits for the builds queued so far (tests, shutdown). */
    idle: () => queue,
  };
}

export type Exports = ReturnType<typeof createExports>;
