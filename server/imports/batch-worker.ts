// A history import's worker thread (batch-worker-thread.ts). It stems the imported text for the search index on
// either database; on SQLite it also writes the batches through its own connection to the database file, so the
// event loop never runs a batch's statements, its commit or the stemming of its text. A batch is prepared (stemmed) in the worker first; then each of its parts' commits runs inside `turn`, which the runner
// makes Kysely's hold on the app's own connection: meanwhile the app's statements wait their turn asynchronously,
// as they wait for each other, where SQLite's busy handler would have slept on the event loop, and the write
// lock is held for the inserts alone. (The app's transactions also begin IMMEDIATE, database.ts, for any other
// connection: a backup, the admin command.)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface WorkerBatch {
  jobId: string;
  /** The job's `done` once this batch is committed. */
  done: number;
  /** The job's `done` once each of `values` is committed (its place in the export + 1). */
  dones: number[];
  /** Messages per transaction: the longest a statement of the app waits for its turn is one such commit. */
  commitSize: number;
  at: string;
  values: Record<string, string | number | null | undefined>[];
  attachments: { message_id: string; position: number; upload_id: string }[];
  voices: { message_id: string; duration_ms: number; waveform: string }[];
  /** The file name of each message that has one (the search index reads it). */
  names: Record<string, string>;
}

export type WorkerRequest =
  | { id: number; kind: 'stem'; values: WorkerBatch['values']; names: WorkerBatch['names'] }
  | { id: number; kind: 'prepare'; batch: WorkerBatch }
  | { id: number; kind: 'commit'; batch: number; part: number }
  | { id: number; kind: 'close' };

export interface WorkerReply {
  id: number;
  result:
    | { prepared: number }
    | { terms: (string | null)[] }
    | { stored: number }
    | { cancelled: true }
    | { error: { message: string; code?: string } }
    | { closed: true };
}

export class BatchCancelled extends Error {}

export interface BatchWorker {
  /**
   * SQLite: stems the batch in the worker, then commits it part by part, each inside `turn` (the app connection's
   * hold); the number of messages stored. Rejects with BatchCancelled when the job is no longer running.
   */
  write(batch: WorkerBatch, turn: (commit: () => Promise<number>) => Promise<number>): Promise<number>;
  /** What the search index holds for each message (null: not indexed), stemmed in the worker (PostgreSQL). */
  stem(values: WorkerBatch['values'], names: WorkerBatch['names']): Promise<(string | null)[]>;
  close(): Promise<void>;
}

/** The worker's entry, loaded through tsx's loader (the server runs from TypeScript sources). */
function bootstrap(): string {
  const require = createRequire(import.meta.url);
  const tsxApi = path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs');
  if (!fs.existsSync(tsxApi)) throw new Error(`tsx's loader is missing: ${tsxApi}`);
  // The URL of the entry beside this file, as it is (a path with spaces or Cyrillic stays a valid URL).
  const entry = new URL('./batch-worker-thread.ts', import.meta.url);
  return `import(${JSON.stringify(pathToFileURL(tsxApi).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}

export function startBatchWorker(options: {
  /** SQLite's file and settings; null on PostgreSQL (the worker then only stems). */
  sqlite: { file: string; busyTimeoutMs: number; synchronous: string } | null;
  columns: readonly string[];
}): BatchWorker {
  const worker = new Worker(bootstrap(), {
    eval: true,
    workerData: { ...options, columns: [...options.columns] },
  });
  worker.unref();
  let next = 1;
  const waiting = new Map<number, { resolve(r: WorkerReply['result']): void; reject(e: Error): void }>();
  let dead: Error | null = null;
  const failAll = (err: Error) => {
    dead = err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  worker.on('message', (m: WorkerReply) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    w?.resolve(m.result);
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new Error(`import batch worker exited (${code})`)));

  type Ask =
    | { kind: 'stem'; values: WorkerBatch['values']; names: WorkerBatch['names'] }
    | { kind: 'prepare'; batch: WorkerBatch }
    | { kind: 'commit'; batch: number; part: number }
    | { kind: 'close' };
  const ask = (req: Ask, id = next++): Promise<WorkerReply['result']> => {
    if (dead) return Promise.reject(dead);
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      // While a batch is out the worker keeps the process alive; between batches it does not.
      worker.ref();
      worker.postMessage({ ...req, id } as WorkerRequest);
    }).finally(() => {
      if (waiting.size === 0) worker.unref();
    }) as Promise<WorkerReply['result']>;
  };

  let closing: Promise<void> | null = null;
  return {
    async stem(values, names) {
      const r = await ask({ kind: 'stem', values, names });
      if ('terms' in r) return r.terms;
      throw new Error('error' in r ? r.error.message : 'import batch worker: unexpected reply');
    },
    async write(batch, turn) {
      const key = next++;
      const p = await ask({ kind: 'prepare', batch }, key);
      if ('error' in p) throw Object.assign(new Error(p.error.message), { code: p.error.code });
      if (!('prepared' in p)) throw new Error('import batch worker: unexpected reply');
      let stored = 0;
      // Part by part, each in its own turn: whatever the app queued meanwhile (a send) goes between two parts.
      for (let part = 0; part < p.prepared; part++) {
        stored += await turn(() =>
          ask({ kind: 'commit', batch: key, part }).then((x) => {
            if ('cancelled' in x) throw new BatchCancelled();
            if ('error' in x) throw Object.assign(new Error(x.error.message), { code: x.error.code });
            if ('stored' in x) return x.stored;
            throw new Error('import batch worker: unexpected reply');
          }),
        );
      }
      return stored;
    },
    close: () =>
      (closing ??= (async () => {
        if (!dead) await ask({ kind: 'close' }).catch(() => {});
        await worker.terminate();
      })()),
  };
}
