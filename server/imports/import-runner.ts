// Runs history imports in the background (docs/behaviour.md §10.38): analyses an uploaded export, then, once the
// importer has matched the authors, writes its messages in batches. Survives restarts and several processes:
// - a process takes a job with one conditional UPDATE of its lease (`claimed_at`), as the scheduler does
//   (server/scheduled/scheduler.ts), and only a job whose export is on its own disk; each committed batch renews it;
// - every batch is one transaction that also moves the job's `done` on, and only while the job is still 'running':
//   a cancelled job's next batch writes nothing, and a restarted process resumes after the last committed batch;
// - each message is unique by (conversation, the export's identity, its id in the export): a batch that is written
//   again, or the same export imported a second time, stores nothing twice.
// Imported messages take the seqs reserved for the job below zero: before the chat's own messages, never unread,
// and the chat keeps its place in every list (its newest message is still its own).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import { type Insertable, sql } from 'kysely';
import {
  analyseExport,
  type ExportFiles,
  type ImportedMessage,
  ImportFormatError,
  readExportMessages,
  zipExportFiles,
} from '../../src/contract/history-import';
import { importDividerText, SOURCE_NAMES } from '../../src/contract/history-import/texts';
import type { ImportJob } from '../../src/contract/imports';
import type { Clock, ClockTimer } from '../clock';
import type { ConversationListCache } from '../conversations/list-cache';
import { memberIds } from '../conversations/membership';
import { type Database, sqliteHandle } from '../db/database';
import type { MessagesTable } from '../db/schema';
import { newMessageId } from '../messages/message-id';
import type { Realtime } from '../realtime/gateway';
import { tsVector } from '../search/index-syntax';
import { noteDays } from '../search/message-days';
import { audioType } from '../uploads/audio';
import { cleanFileName } from '../uploads/file-names';
import { cleanImage } from '../uploads/images';
import type { UploadStorage } from '../uploads/storage';
import { BatchCancelled, type BatchWorker, startBatchWorker } from './batch-worker';
import { exportPath, fileSource, friendsOf, type ImportJobRow, suggestAuthors, toImportJob } from './import-jobs';

export const IMPORT_TIMINGS = {
  /** Messages per transaction: small enough that a send waiting behind one is not held long. */
  batch: 100,
  /**
   * SQLite: messages per transaction of the batch worker (batch-worker.ts). A statement of the app (a send) waits
   * at most one such commit for its turn: a few milliseconds, where the whole batch with its search entries took ten.
   */
  commitSize: 20,
  /**
   * After each batch the job rests this share of the time the batch took (its reading, stemming and commits), so on a
   * machine short of CPU the import takes at most 1 / (1 + rest) of the time and sends keep the rest.
   */
  rest: 0.25,
  /**
   * Before each piece of its work the job waits until no request is being answered (yield-to-requests.ts), at most
   * this long: sends in other chats find the event loop and the database free.
   */
  yieldMaxMs: 20,
  /** A job whose process has not renewed its lease for this long is taken over. */
  leaseMs: 60_000,
  /** How often a process looks for jobs it was not told of (another process's, or left by a crash). */
  pollMs: 5_000,
  /** At most one progress event per job per this long. */
  progressMs: 500,
};

const RASTER_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** What a failure the export is not to blame for says (the details go to the log). */
export const IMPORT_FAILED = 'Импорт не удался из-за ошибки на сервере. Попробуйте ещё раз.';

class Cancelled extends Error {}

export interface ImportRunnerDeps {
  db: Database;
  clock: Clock;
  storage: UploadStorage;
  /** Where uploaded exports wait (this process's disk). */
  dir: string;
  realtime: Pick<Realtime, 'toUsers'>;
  lists: Pick<ConversationListCache, 'changed'>;
  /** The largest attachment stored (the ordinary upload limit): a bigger file becomes a line saying so. */
  fileLimitBytes: number;
  log: { error(obj: unknown, msg: string): void };
  /** Resolves when the server is answering no request (yield-to-requests.ts); absent, the job never waits. */
  quiet?: () => Promise<void>;
}

export interface ImportRunner {
  /** Something changed (a job uploaded, started): look now. */
  kick(): void;
  /** Tell the importer's tabs, at most every IMPORT_TIMINGS.progressMs unless `now`. */
  announce(job: ImportJob, userId: string, now?: boolean): void;
  /** Deletes what a job stored (a cancelled job leaves nothing). */
  removeStored(jobId: string): Promise<void>;
  /** Deletes a job's uploaded export. */
  removeExport(jobId: string): Promise<void>;
  /** Resolves when no pass is running (tests, shutdown). */
  idle(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Storage keys and upload ids of a job's files are derived from the job and the message: a retry overwrites. */
const fileKey = (jobId: string, sourceId: string) =>
  createHash('sha256').update(`${jobId}\u0000${sourceId}`).digest('hex').slice(0, 32);

const MESSAGE_COLUMNS = [
  'id',
  'seq',
  'conversation_id',
  'sender_id',
  'type',
  'content',
  'reply_to_id',
  'client_message_id',
  'created_at',
  'edited_at',
  'deleted_at',
  'system_info',
  'import_key',
  'import_source_id',
  'import_job_id',
  'imported_author',
  'imported_from',
  'entities',
] as const;

export function createImportRunner(deps: ImportRunnerDeps): ImportRunner {
  const { db, clock, storage, dir, realtime, lists, log } = deps;
  const quiet = deps.quiet ?? (() => Promise.resolve());
  let timer: ClockTimer | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  const lastSent = new Map<string, number>();
  // A worker thread (batch-worker.ts), started with the first batch: it stems the imported text for the search index
  // on either database and, on SQLite, writes the batches through a connection of its own.
  let worker: BatchWorker | null = null;
  const workerOf = (): BatchWorker => {
    const file = sqliteHandle(db);
    worker ??= startBatchWorker({
      sqlite: file
        ? {
            file: file.name,
            busyTimeoutMs: Number(file.pragma('busy_timeout', { simple: true })),
            synchronous: String(file.pragma('synchronous', { simple: true })),
          }
        : null,
      columns: MESSAGE_COLUMNS,
    });
    return worker;
  };

  function announce(job: ImportJob, userId: string, now = false) {
    const at = clock.now();
    const last = lastSent.get(job.id) ?? 0;
    const final = job.status !== 'running' && job.status !== 'analysing';
    if (!now && !final && at - last < IMPORT_TIMINGS.progressMs) return;
    lastSent.set(job.id, at);
    if (final) lastSent.delete(job.id);
    realtime.toUsers([userId], 'import:updated', { job });
  }

  async function reload(id: string): Promise<ImportJobRow> {
    return db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function claim(row: ImportJobRow): Promise<boolean> {
    const now = clock.now();
    const r = await db
      .updateTable('import_jobs')
      .set({ claimed_at: iso(now) })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', iso(now - IMPORT_TIMINGS.leaseMs))]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async function fail(row: ImportJobRow, error: string) {
    await db
      .updateTable('import_jobs')
      .set({ status: 'failed', error, claimed_at: null, updated_at: iso(clock.now()) })
      .where('id', '=', row.id)
      .where('status', 'in', ['analysing', 'running'])
      .execute();
    await removeExport(row.id);
    // What a failed run had stored goes too: a failed import leaves nothing half-done.
    await removeStored(row.id);
    const fresh = await reload(row.id);
    announce(toImportJob(fresh), row.user_id, true);
  }

  async function removeExport(jobId: string) {
    await fs.promises.rm(exportPath(dir, jobId), { force: true });
  }

  /** Deletes what a job stored: its messages (their attachments and search entries go with them) and its files. */
  async function removeStored(jobId: string) {
    for (;;) {
      const ids = await db.selectFrom('messages').select('id').where('import_job_id', '=', jobId).limit(1000).execute();
      if (ids.length === 0) break;
      await db
        .deleteFrom('messages')
        .where(
          'id',
          'in',
          ids.map((r) => r.id),
        )
        .execute();
    }
    const uploads = await db
      .selectFrom('uploads')
      .select(['id', 'storage_key'])
      .where('id', 'like', `imp-${jobId}-%`)
      .execute();
    for (const u of uploads) await storage.remove(u.storage_key);
    if (uploads.length) await db.deleteFrom('uploads').where('id', 'like', `imp-${jobId}-%`).execute();
  }

  async function withExport<T>(row: ImportJobRow, work: (files: ExportFiles) => Promise<T>): Promise<T> {
    const src = await fileSource(exportPath(dir, row.id));
    try {
      return await work(await zipExportFiles(src));
    } finally {
      await src.close();
    }
  }

  /** Who the authors may be matched to: the chat's members, or for a new group the importer and their friends. */
  async function people(row: ImportJobRow): Promise<string[]> {
    if (row.conversation_id && !row.new_group) return [...(await memberIds(db, row.conversation_id))];
    return [row.user_id, ...(await friendsOf(db, row.user_id))];
  }

  async function analyse(row: ImportJobRow) {
    const summary = await withExport(row, (files) =>
      analyseExport(files, { chatId: row.chat_id ?? undefined, now: clock.now() }),
    );
    const chat = summary.chats.find((c) => c.id === row.chat_id) ?? summary.chats[0];
    const authors = await suggestAuthors(db, summary.authors, await people(row));
    // The export's identity: the same chat exported again (another ZIP of the same history) is the same export.
    const identity = createHash('sha256')
      .update(JSON.stringify([summary.source, chat?.id ?? '', chat?.name ?? '', summary.firstDate]))
      .digest('hex');
    await db
      .updateTable('import_jobs')
      .set({
        status: 'mapping',
        source: summary.source,
        chat_name: chat?.name ?? null,
        chat_id: row.chat_id ?? chat?.id ?? null,
        chats: JSON.stringify(summary.chats),
        authors: JSON.stringify(authors),
        total: summary.messageCount,
        file_hash: identity,
        claimed_at: null,
        updated_at: iso(clock.now()),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'analysing')
      .execute();
    announce(toImportJob(await reload(row.id)), row.user_id, true);
  }

  /** Stores one message's file; null when it cannot be (absent, too big): the message then says what it was. */
  async function storeMedia(
    row: ImportJobRow,
    files: ExportFiles,
    m: ImportedMessage,
  ): Promise<{ uploadId: string; kind: string; name: string } | null> {
    if (!m.media) return null;
    const listed = (await files.list()).find((f) => f.path === m.media?.path);
    if (!listed || listed.size === 0 || listed.size > deps.fileLimitBytes) return null;
    let key = fileKey(row.id, m.sourceId);
    let head = Buffer.alloc(0);
    let size = 0;
    const sniff = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (head.length < 4100) head = Buffer.concat([head, chunk.subarray(0, 4100 - head.length)]);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const path = m.media.path;
    await pipeline(Readable.from(files.open(path)), sniff, async (source) => storage.write(key, Readable.from(source)));
    const detected = await fileTypeFromBuffer(head);
    const audio = audioType(detected?.mime ?? m.media.mime, head);
    let kind = detected && RASTER_IMAGES.has(detected.mime) ? 'IMAGE' : audio ? 'AUDIO' : 'FILE';
    let width: number | null = null;
    let height: number | null = null;
    if (detected && kind === 'IMAGE') {
      const clean = await cleanImage(storage, key, detected.mime).catch(() => null);
      if (!clean) kind = 'FILE';
      else ({ key, size, width, height } = clean);
    }
    const uploadId = `imp-${row.id}-${m.sourceId}`;
    const name = cleanFileName(m.media.name);
    await db
      .insertInto('uploads')
      .values({
        id: uploadId,
        owner_id: row.user_id,
        storage_key: key,
        url: `/uploads/${key}`,
        original_name: name,
        mime: audio ?? detected?.mime ?? m.media.mime ?? 'application/octet-stream',
        size,
        kind,
        width,
        height,
        created_at: iso(clock.now()),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return { uploadId, kind, name };
  }

  const MEDIA_WORDS: Record<string, string> = {
    image: 'Фото',
    voice: 'Голосовое сообщение',
    video: 'Видео',
    file: 'Файл',
  };

  /** Writes one batch (messages `first` … of the export) in one transaction with the job's progress. */
  async function writeBatch(row: ImportJobRow, files: ExportFiles, batch: ImportedMessage[], first: number) {
    const conversationId = row.conversation_id as string;
    const importKey = row.file_hash as string;
    const mapping = (row.mapping ? JSON.parse(row.mapping) : {}) as Record<string, string | null>;
    const source = row.source === 'whatsapp' ? 'whatsapp' : 'telegram';
    const present = new Set(
      (
        await db
          .selectFrom('messages')
          .select('import_source_id')
          .where('conversation_id', '=', conversationId)
          .where('import_key', '=', importKey)
          .where(
            'import_source_id',
            'in',
            batch.map((m) => m.sourceId),
          )
          .execute()
      ).map((r) => r.import_source_id),
    );
    // Quoted messages: earlier in this batch, or stored by an earlier one.
    const wanted = [...new Set(batch.map((m) => m.replyToSourceId).filter((x): x is string => Boolean(x)))];
    const replyIds = new Map<string, string>();
    if (wanted.length) {
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'import_source_id'])
        .where('conversation_id', '=', conversationId)
        .where('import_key', '=', importKey)
        .where('import_source_id', 'in', wanted)
        .execute();
      for (const r of rows) if (r.import_source_id) replyIds.set(r.import_source_id, r.id);
    }
    const top = Number(row.seq_top);
    const total = Number(row.total);
    const values: Insertable<MessagesTable>[] = [];
    const attachments: { message_id: string; position: number; upload_id: string }[] = [];
    const voices: { message_id: string; duration_ms: number; waveform: string }[] = [];
    const names: Record<string, string> = {};
    const dones: number[] = [];
    for (const [i, m] of batch.entries()) {
      const index = first + i;
      if (present.has(m.sourceId)) continue;
      const id = newMessageId(m.date);
      replyIds.set(m.sourceId, id);
      const mapped = m.authorKey ? (mapping[m.authorKey] ?? null) : null;
      let type = 'TEXT';
      let content = m.text;
      // The export's formatting, moved past a line put before the text (what a media message was).
      let entities = m.entities ?? [];
      const before = (what: string) => {
        content = m.text ? `${what}\n${m.text}` : what;
        const by = content.length - m.text.length;
        entities = m.text ? entities.map((e) => ({ ...e, offset: e.offset + by })) : [];
      };
      let systemInfo: string | null = null;
      if (m.kind === 'service') {
        type = 'SYSTEM';
        systemInfo = JSON.stringify({
          kind: 'importedService',
          actor: { id: row.user_id, name: m.authorName },
          targets: [],
          title: m.text,
        });
      } else if (m.kind === 'image' || m.kind === 'file' || m.kind === 'voice' || m.kind === 'video') {
        const stored = await storeMedia(row, files, m);
        if (stored) {
          names[id] = stored.name;
          type = m.kind === 'image' && stored.kind === 'IMAGE' ? 'IMAGE' : m.kind === 'voice' ? 'VOICE' : 'FILE';
          attachments.push({ message_id: id, position: 0, upload_id: stored.uploadId });
          // The export keeps no waveform: the player shows the file's own length.
          if (type === 'VOICE') voices.push({ message_id: id, duration_ms: 0, waveform: '' });
        } else {
          before(m.placeholder ?? `${MEDIA_WORDS[m.kind]} (не экспортировано)`);
        }
      } else if (m.kind === 'placeholder') {
        before(m.placeholder ?? 'Сообщение, которое здесь не показать');
      }
      dones.push(index + 1);
      values.push({
        id,
        seq: top - total + Math.min(index, total - 1),
        conversation_id: conversationId,
        sender_id: mapped ?? row.user_id,
        type,
        content,
        reply_to_id: m.replyToSourceId ? (replyIds.get(m.replyToSourceId) ?? null) : null,
        client_message_id: null,
        created_at: iso(m.date),
        edited_at: m.editedAt ? iso(m.editedAt) : null,
        deleted_at: null,
        system_info: systemInfo,
        import_key: importKey,
        import_source_id: m.sourceId,
        import_job_id: row.id,
        imported_author: mapped || m.kind === 'service' ? null : m.authorName,
        imported_from: source,
        entities: m.kind === 'service' || !entities.length ? null : JSON.stringify(entities),
      });
    }
    const done = first + batch.length;
    let stored = 0;
    if (sqliteHandle(db)) {
      // Off the event loop: stemmed in the worker, committed there while the app's connection waits its turn.
      stored = await workerOf()
        .write(
          {
            jobId: row.id,
            done,
            dones,
            commitSize: IMPORT_TIMINGS.commitSize,
            at: iso(clock.now()),
            values,
            attachments,
            voices,
            names,
          },
          // Each part waits for a moment no request is being answered, then for the app's connection.
          (commit) => quiet().then(() => db.connection().execute(commit)),
        )
        .catch((err) => {
          throw err instanceof BatchCancelled ? new Cancelled() : err;
        });
      announce(toImportJob({ ...row, done, imported: Number(row.imported) + stored }), row.user_id);
      return stored;
    }
    // PostgreSQL: the pool gives the batch a connection of its own, so a send never waits for it; the stemming for the
    // search index is done in the worker, and the entries go in with the messages (found at once, never drained).
    const terms = values.length ? await workerOf().stem(values, names) : [];
    await quiet();
    await db.transaction().execute(async (trx) => {
      if (values.length) {
        const inserted = await trx
          .insertInto('messages')
          .values(values)
          .onConflict((oc) => oc.columns(['conversation_id', 'import_key', 'import_source_id']).doNothing())
          .returning(['id', 'seq'])
          .execute();
        stored = inserted.length;
        const kept = new Set(inserted.map((r) => r.id));
        const a = attachments.filter((x) => kept.has(x.message_id));
        if (a.length) await trx.insertInto('message_attachments').values(a).execute();
        const v = voices.filter((x) => kept.has(x.message_id));
        if (v.length) await trx.insertInto('voice_notes').values(v).execute();
        const termsOf = new Map(values.map((x, i) => [x.id, terms[i] ?? null]));
        const indexed = inserted.filter((r) => termsOf.get(r.id) != null);
        if (indexed.length) {
          await sql`INSERT INTO message_search (seq, terms)
            SELECT s, t::tsvector FROM unnest(${indexed.map((r) => Number(r.seq))}::int[], ${indexed.map((r) => tsVector(termsOf.get(r.id) as string))}::text[]) AS x(s, t)
            ON CONFLICT (seq) DO UPDATE SET terms = excluded.terms`.execute(trx);
        }
        if (inserted.length) {
          const seqs = inserted.map((r) => Number(r.seq));
          await sql`DELETE FROM message_search_backlog WHERE seq = ANY(${seqs}::int[])`.execute(trx);
          // Taken out of the backlog, so their days are noted here, as the drain would (message-days.ts).
          await noteDays(trx, seqs);
        }
      }
      const r = await trx
        .updateTable('import_jobs')
        .set((eb) => ({
          done,
          imported: eb('imported', '+', stored),
          claimed_at: iso(clock.now()),
          updated_at: iso(clock.now()),
        }))
        .where('id', '=', row.id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw new Cancelled();
    });
    announce(toImportJob({ ...row, done, imported: Number(row.imported) + stored }), row.user_id);
    return stored;
  }

  async function finish(row: ImportJobRow, last: ImportedMessage | null) {
    await db.transaction().execute(async (trx) => {
      const job = await trx.selectFrom('import_jobs').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      if (job.status !== 'running') throw new Cancelled();
      const count = Number(job.imported);
      const source = job.source === 'whatsapp' ? 'whatsapp' : 'telegram';
      // The divider closes what this import stored; an export imported before stores nothing and gets none.
      if (count > 0) {
        const owner = await trx
          .selectFrom('users')
          .select('display_name')
          .where('id', '=', job.user_id)
          .executeTakeFirst();
        const at = last ? last.date : clock.now();
        await trx
          .insertInto('messages')
          .values({
            id: newMessageId(at),
            seq: Number(job.seq_top),
            conversation_id: job.conversation_id as string,
            sender_id: job.user_id,
            type: 'SYSTEM',
            content: importDividerText(source, count),
            reply_to_id: null,
            client_message_id: null,
            created_at: iso(at),
            deleted_at: null,
            system_info: JSON.stringify({
              kind: 'imported',
              actor: { id: job.user_id, name: owner?.display_name ?? '' },
              targets: [],
              title: SOURCE_NAMES[source],
              imported: { source, count },
            }),
            import_job_id: job.id,
            imported_from: source,
          })
          .execute();
      }
      await trx
        .updateTable('import_jobs')
        .set({ status: 'done', claimed_at: null, updated_at: iso(clock.now()) })
        .where('id', '=', job.id)
        .execute();
    });
    await removeExport(row.id);
    const fresh = await reload(row.id);
    if (fresh.conversation_id) lists.changed(await memberIds(db, fresh.conversation_id), fresh.conversation_id);
    announce(toImportJob(fresh), row.user_id, true);
  }

  async function importMessages(row: ImportJobRow) {
    const skip = Number(row.done);
    await withExport(row, async (files) => {
      let index = 0;
      let batch: ImportedMessage[] = [];
      let first = skip;
      let last: ImportedMessage | null = null;
      let current = row;
      let began = performance.now();
      for await (const m of readExportMessages(files, { chatId: row.chat_id ?? undefined, now: clock.now() })) {
        last = m;
        if (index++ < skip) continue;
        if (stopped) {
          // Shutting down: another start (or process) takes it up after the last committed batch at once.
          await db.updateTable('import_jobs').set({ claimed_at: null }).where('id', '=', row.id).execute();
          return;
        }
        batch.push(m);
        if (batch.length >= IMPORT_TIMINGS.batch) {
          const stored = await writeBatch(current, files, batch, first);
          first += batch.length;
          batch = [];
          current = { ...current, done: first, imported: Number(current.imported) + stored };
          // Pacing on the real clock, as the writers' gathering: no rule a user sees depends on it. Then the next batch
          // is read (on the event loop) once no request is being answered.
          const took = performance.now() - began;
          await new Promise((resolve) => setTimeout(resolve, took * IMPORT_TIMINGS.rest));
          await quiet();
          began = performance.now();
        }
      }
      if (batch.length) await writeBatch(current, files, batch, first);
      await finish(row, last);
    });
  }

  async function work(row: ImportJobRow) {
    try {
      if (row.status === 'analysing') await analyse(row);
      else await importMessages(row);
    } catch (err) {
      if (err instanceof Cancelled) return;
      if (err instanceof ImportFormatError) {
        await fail(row, err.message);
        return;
      }
      log.error({ err, importJob: row.id }, 'history import failed');
      await fail(row, IMPORT_FAILED).catch(() => {});
    }
  }

  async function due(): Promise<ImportJobRow[]> {
    const now = clock.now();
    const rows = await db
      .selectFrom('import_jobs')
      .selectAll()
      .where('status', 'in', ['analysing', 'running'])
      .where('file_size', '>', 0)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', iso(now - IMPORT_TIMINGS.leaseMs))]))
      .orderBy('created_at')
      .limit(20)
      .execute();
    // Only jobs whose export this process holds.
    return rows.filter((r) => fs.existsSync(exportPath(dir, r.id)));
  }

  async function pass() {
    for (const row of await due()) {
      if (stopped) return;
      if (!(await claim(row))) continue;
      await work(await reload(row.id));
    }
  }

  function arm() {
    if (stopped) return;
    clock.clearTimeout(timer);
    timer = clock.setTimeout(run, IMPORT_TIMINGS.pollMs);
    timer.unref();
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((err) => log.error({ err }, 'import pass failed'));
      } while (again && !stopped);
      arm();
    })().finally(() => {
      running = null;
    });
  }

  return {
    kick() {
      if (stopped) return;
      if (running) again = true;
      else run();
    },
    announce,
    removeStored,
    removeExport,
    async idle() {
      while (running) await running;
    },
    start() {
      stopped = false;
      run();
    },
    async stop() {
      stopped = true;
      clock.clearTimeout(timer);
      while (running) await running;
      const w = worker;
      worker = null;
      await w?.close();
    },
  };
}

/** Reserves `n` seqs below every seq handed out so far (and below zero): returns the highest of them. */
export async function reserveSeqs(db: Database, n: number): Promise<number> {
  const row = await sql<{
    floor: number;
  }>`UPDATE import_seq_floor SET floor = floor - ${n} WHERE id = 1 RETURNING floor`.execute(db);
  const floor = Number(row.rows[0]?.floor);
  return floor + n - 1;
}
