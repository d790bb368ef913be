// Backups the server makes by itself (docs/administration.md «Резервные копии по расписанию»): at BACKUP_SCHEDULE's
// time every day, the archive of `npm run admin -- backup` into DATA_DIR/backups or the S3 bucket, then the older
// ones pruned by BACKUP_KEEP (and the copies taken before upgrades, to the last three). With several processes
// each arms the same timer; the run's row in `backup_runs`, unique per scheduled moment, is inserted by exactly one
// of them, and only that one makes the backup. Every run is recorded there, so the console and /metrics of any
// process show the last one, across restarts.
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import type { BackupStatus } from '../../src/contract/administration';
import { BackupRefused } from '../admin/backup';
import type { ClockTimer } from '../clock';
import type { Database } from '../db/database';
import { prunePreUpgradeCopies } from '../db/upgrade';
import { backupStore } from './backup-store';
import { backupName, backupsToKeep, backupTime, describeSchedule, nextSlot } from './schedule';

/** With a schedule on, no successful backup for this long is a warning. */
export const BACKUP_STALE_MS = 26 * 3600 * 1000;
/** A run still `running` after this long was cut short (its process stopped): it shows as failed. */
export const BACKUP_RUN_LEASE_MS = 6 * 3600 * 1000;

export const INTERRUPTED = 'Копия не завершилась: процесс сервера остановился во время неё';
export const STALE_WARNING = 'Больше 26 часов нет ни одной удачной резервной копии';

export interface Backups {
  /** Makes a backup now (not for a scheduled moment), records and prunes as a scheduled one does. */
  runNow(): Promise<BackupStatus['last']>;
  /** Resolves when no run is in progress in this process (tests, shutdown). */
  idle(): Promise<void>;
  status(): Promise<BackupStatus>;
}

declare module 'fastify' {
  interface FastifyInstance {
    backups: Backups;
  }
}

type Row = {
  started_at: string;
  finished_at: string | null;
  status: string;
  target: string;
  size_bytes: number | string | null;
  failure: string | null;
};

const iso = (ms: number) => new Date(ms).toISOString();

function asLast(row: Row | undefined, now: number): BackupStatus['last'] {
  if (!row) return null;
  const stale = row.status === 'running' && now - Date.parse(row.started_at) > BACKUP_RUN_LEASE_MS;
  return {
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: stale ? 'failed' : row.status === 'ok' ? 'ok' : row.status === 'failed' ? 'failed' : 'running',
    bytes: row.size_bytes === null ? null : Number(row.size_bytes),
    target: row.target,
    failure: stale ? INTERRUPTED : row.failure,
  };
}

/** The reason a run failed, in one Russian sentence (a refusal already is one). */
export function failureText(err: unknown): string {
  if (err instanceof BackupRefused) return err.message;
  const message = (err as Error)?.message ?? String(err);
  return `Не удалось сделать резервную копию: ${message}`;
}

async function readStatus(
  db: Database,
  o: { now: number; schedule: string | null; since: number; location: 'disk' | 's3'; place: string },
): Promise<BackupStatus & { lastEndedOk: boolean | null }> {
  const columns = ['started_at', 'finished_at', 'status', 'target', 'size_bytes', 'failure'] as const;
  const latest = await db.selectFrom('backup_runs').select(columns).orderBy('started_at', 'desc').limit(1).execute();
  const ok = await db
    .selectFrom('backup_runs')
    .select('finished_at')
    .where('status', '=', 'ok')
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  // A run in progress says nothing yet: the warning looks at the latest that ended (or was cut short).
  const ended = await db
    .selectFrom('backup_runs')
    .select(columns)
    .where((eb) => eb.or([eb('status', '!=', 'running'), eb('started_at', '<', iso(o.now - BACKUP_RUN_LEASE_MS))]))
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const last = asLast(latest[0], o.now);
  const lastEnded = asLast(ended, o.now);
  const lastOkAt = ok?.finished_at ?? null;
  let warning: string | null = null;
  if (lastEnded?.status === 'failed') {
    warning = `Последняя резервная копия не удалась (${when(lastEnded.startedAt)}): ${lastEnded.failure ?? ''}`;
  } else if (o.schedule) {
    // A server that never made one has had 26 hours since it started (its first scheduled time comes within a day).
    const from = lastOkAt ? Date.parse(lastOkAt) : o.since;
    if (o.now - from > BACKUP_STALE_MS) warning = STALE_WARNING;
  }
  const lastEndedOk = lastEnded ? lastEnded.status === 'ok' : null;
  return { schedule: o.schedule, location: o.location, place: o.place, last, lastOkAt, warning, lastEndedOk };
}

const when = (at: string) => at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

export const backupsPlugin = fp(
  async (app) => {
    const { clock, config, db, metrics } = app;
    const schedule = config.backup.schedule;
    const store = backupStore(config);
    const startedAt = clock.now();
    let timer: ClockTimer | null = null;
    let stopped = false;
    let chain: Promise<unknown> = Promise.resolve();

    const statusOf = () =>
      readStatus(db, {
        now: clock.now(),
        schedule: describeSchedule(schedule),
        since: startedAt,
        location: store.location,
        place: store.place,
      });

    /** The run for `slot` (a scheduled moment) or an unscheduled one (null); null when another process has it. */
    async function run(slot: number | null): Promise<BackupStatus['last']> {
      const at = slot ?? clock.now();
      const name = backupName(at);
      const id = randomUUID();
      const inserted = await db
        .insertInto('backup_runs')
        .values({
          id,
          slot: slot === null ? null : iso(slot),
          started_at: iso(clock.now()),
          status: 'running',
          location: store.location,
          target: store.target(name),
        })
        .onConflict((oc) => oc.column('slot').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return null;
      let bytes: number | null = null;
      let failure: string | null = null;
      try {
        bytes = await store.make(name);
      } catch (err) {
        failure = failureText(err);
        app.log.error({ err }, 'scheduled backup failed');
      }
      await db
        .updateTable('backup_runs')
        .set({ status: failure ? 'failed' : 'ok', finished_at: iso(clock.now()), size_bytes: bytes, failure })
        .where('id', '=', id)
        .execute();
      if (!failure) await prune(name).catch((err) => app.log.error({ err }, 'pruning backups failed'));
      const row = await db.selectFrom('backup_runs').selectAll().where('id', '=', id).executeTakeFirst();
      return asLast(row, clock.now());
    }

    async function prune(justMade: string) {
      const names = await store.names();
      const keep = backupsToKeep(names, config.backup.keep, clock.now(), justMade);
      for (const name of names) {
        if (backupTime(name) === null || keep.has(name)) continue;
        await store.remove(name);
      }
      prunePreUpgradeCopies(config.dataDir);
    }

    /** Runs one after another in this process: a slow backup never overlaps the next. */
    function enqueue(slot: number | null) {
      const next = chain.then(() => run(slot));
      chain = next.catch((err) => app.log.error({ err }, 'backup run failed'));
      return next;
    }

    function arm() {
      if (stopped || !schedule) return;
      const at = nextSlot(clock.now(), schedule);
      timer = clock.setTimeout(
        () => {
          timer = null;
          void enqueue(at);
          arm();
        },
        Math.max(0, at - clock.now()),
      );
      timer.unref();
    }

    app.decorate('backups', {
      runNow: () => enqueue(null),
      idle: async () => {
        await chain;
      },
      status: async () => {
        const { lastEndedOk: _, ...view } = await statusOf();
        return view;
      },
    } satisfies Backups);

    // Read when scraped; the four figures share one reading while it is under way.
    let reading: ReturnType<typeof statusOf> | null = null;
    const fresh = () => {
      reading ??= statusOf().finally(() => {
        reading = null;
      });
      return reading;
    };
    const registers = [metrics.registry];
    const gauge = (name: string, help: string, read: (s: Awaited<ReturnType<typeof statusOf>>) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(read(await fresh()));
        },
      });
    gauge(
      'beseda_backup_last_success_timestamp_seconds',
      'When the latest successful backup ended (Unix time; 0: none yet)',
      (s) => (s.lastOkAt ? Date.parse(s.lastOkAt) / 1000 : 0),
    );
    gauge('beseda_backup_last_ok', 'Whether the latest backup that ended succeeded (1) or failed (0)', (s) =>
      Number(s.lastEndedOk === true),
    );
    gauge('beseda_backup_last_size_bytes', 'Size of the latest successful backup archive', (s) =>
      s.last?.status === 'ok' ? (s.last.bytes ?? 0) : 0,
    );
    gauge(
      'beseda_backup_warning',
      'The console warns of backups (1): the latest failed, or none succeeded for 26 hours with a schedule on',
      (s) => Number(s.warning !== null),
    );

    app.addHook('onReady', async () => arm());
    app.addHook('onClose', async () => {
      stopped = true;
      clock.clearTimeout(timer);
      await chain;
      store.close();
    });
  },
  {
    name: 'backups',
    decorators: { fastify: ['clock', 'config', 'db', 'metrics'] },
    dependencies: ['base', 'metrics'],
  },
);
