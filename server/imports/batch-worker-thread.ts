// The worker thread of history imports (batch-worker.ts starts it): it stems the imported text for the search index
// on either database, and on SQLite writes the batches through a connection of its own to the same file (WAL), so
// the batches' statements, their commits and the stemming run beside the event loop, not on it. A batch is stemmed first, then committed in parts of a few
// messages, each when the app says it is its turn and each one IMMEDIATE transaction: its messages (one already
// there is skipped), their files and voice notes, their search entries and the job's progress, which must still be
// 'running' or the part rolls back. A message is committed with everything of it or not at all.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { filterTerms, indexDocument } from '../search/index-syntax';
import { sqliteNoteDays } from '../search/message-days';
import { indexTerms, searchDocument } from '../search/morphology';
import { registerSearchFunction } from '../search/search-index';
import type { WorkerBatch, WorkerReply, WorkerRequest } from './batch-worker';

const { sqlite, columns } = workerData as {
  sqlite: { file: string; busyTimeoutMs: number; synchronous: string } | null;
  columns: string[];
};

/** The statements of the worker's own SQLite connection (none on PostgreSQL, where the worker only stems). */
function openSqlite(o: { file: string; busyTimeoutMs: number; synchronous: string }) {
  const file = new SQLite(o.file);
  file.pragma('foreign_keys = ON');
  file.pragma(`busy_timeout = ${o.busyTimeoutMs}`);
  file.pragma(`synchronous = ${o.synchronous}`);
  registerSearchFunction(file);
  return {
    file,
    insert: file.prepare(
      `INSERT INTO messages (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
       ON CONFLICT (conversation_id, import_key, import_source_id) DO NOTHING`,
    ),
    attach: file.prepare('INSERT INTO message_attachments (message_id, position, upload_id) VALUES (?, ?, ?)'),
    voice: file.prepare('INSERT INTO voice_notes (message_id, duration_ms, waveform) VALUES (?, ?, ?)'),
    index: file.prepare('INSERT INTO message_search (rowid, terms) VALUES (?, ?)'),
    unqueue: file.prepare('DELETE FROM message_search_backlog WHERE seq = ?'),
    // The part's days, as the drain notes them (message-days.ts): its seqs lie between the first and the last.
    days: file.prepare(sqliteNoteDays('seq BETWEEN ? AND ?')),
    progress: file.prepare(
      `UPDATE import_jobs SET done = ?, imported = imported + ?, claimed_at = ?, updated_at = ?
       WHERE id = ? AND status = 'running'`,
    ),
  };
}
const db = sqlite ? openSqlite(sqlite) : null;

class Cancelled extends Error {}

interface Part {
  batch: WorkerBatch;
  /** Which of the batch's values, and their search terms. */
  values: WorkerBatch['values'];
  terms: (string | null)[];
  /** The job's `done` once this part is committed. */
  done: number;
}

const write = db?.file.transaction((p: Part) => {
  if (!db) throw new Error('no database');
  const { insert, attach, voice, index, unqueue, days, progress } = db;
  const b = p.batch;
  let stored = 0;
  p.values.forEach((v, i) => {
    if (insert.run(...columns.map((c) => v[c] ?? null)).changes !== 1) return;
    stored += 1;
    const id = v.id as string;
    for (const a of b.attachments) if (a.message_id === id) attach.run(a.message_id, a.position, a.upload_id);
    for (const x of b.voices) if (x.message_id === id) voice.run(x.message_id, x.duration_ms, x.waveform);
    // Indexed here, in the same commit as the message: found by search at once, and the app's connection never
    // stems it. The insert trigger queued it in the backlog; the entry is taken out again.
    const t = p.terms[i];
    if (t !== null && t !== undefined) index.run(v.seq, t);
    unqueue.run(v.seq);
  });
  const seqs = p.values.map((v) => Number(v.seq));
  if (stored > 0) days.run(Math.min(...seqs), Math.max(...seqs));
  if (progress.run(p.done, stored, b.at, b.at, b.jobId).changes !== 1) throw new Cancelled();
  return stored;
});

/** Batches stemmed and cut into parts, waiting for their turns to commit, by the prepare request's id. */
const prepared = new Map<number, Part[]>();

/**
 * Stems each message — what search_terms() would compute (search-index.ts sqliteDocumentOf): a text message is its
 * content, any other kind adds its file's name, then its sender, chat and kind — and cuts the batch into parts of
 * `commitSize` messages, each its own short transaction. Done before the first turn, outside the write lock.
 */
function stem(b: Pick<WorkerBatch, 'values' | 'names'>): (string | null)[] {
  return b.values.map((v) => {
    if (v.deleted_at != null || v.type === 'ENCRYPTED') return null;
    const names = v.type === 'TEXT' ? null : (b.names[v.id as string] ?? null);
    return indexDocument(
      indexTerms(searchDocument(String(v.content ?? ''), names)),
      filterTerms({
        senderId: v.sender_id == null ? null : String(v.sender_id),
        conversationId: String(v.conversation_id),
        type: String(v.type),
      }),
    );
  });
}

function prepare(id: number, b: WorkerBatch): WorkerReply['result'] {
  const terms = stem(b);
  const parts: Part[] = [];
  for (let i = 0; i < b.values.length; i += b.commitSize) {
    const end = Math.min(i + b.commitSize, b.values.length);
    // The last part moves `done` past the whole batch (messages already stored were left out of `values`).
    const done = end === b.values.length ? b.done : (b.dones[end - 1] as number);
    parts.push({ batch: b, values: b.values.slice(i, end), terms: terms.slice(i, end), done });
  }
  if (parts.length === 0) parts.push({ batch: b, values: [], terms: [], done: b.done });
  prepared.set(id, parts);
  return { prepared: parts.length };
}

function commit(key: number, part: number): WorkerReply['result'] {
  const parts = prepared.get(key);
  const p = parts?.[part];
  if (!parts || !p) return { error: { message: 'import batch worker: no such batch' } };
  if (part === parts.length - 1) prepared.delete(key);
  try {
    if (!write) throw new Error('no database');
    return { stored: write.immediate(p) };
  } catch (err) {
    prepared.delete(key);
    if (err instanceof Cancelled) return { cancelled: true };
    const e = err as { message?: string; code?: string };
    return { error: { message: String(e?.message ?? err), code: e?.code } };
  }
}

parentPort?.on('message', (m: WorkerRequest) => {
  let result: WorkerReply['result'];
  if (m.kind === 'close') {
    db?.file.close();
    result = { closed: true };
  } else if (m.kind === 'stem') result = { terms: stem(m) };
  else if (m.kind === 'prepare') result = prepare(m.id, m.batch);
  else result = commit(m.batch, m.part);
  parentPort?.postMessage({ id: m.id, result } satisfies WorkerReply);
});
