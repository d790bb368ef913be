// WAL checkpoints copy the log back into the database file. SQLite runs one inside the commit that takes the
// log past 1000 pages, on the event loop: a stall of 10–20 ms every few hundred sends (measured with the
// message writer at 1000 sends/s: 28 commits in 6 s over 5 ms, none without). Here a worker thread with a
// connection of its own checkpoints every CHECKPOINT_EVERY_MS in PASSIVE mode, which never waits for the
// writer, and the app's connection only checkpoints as a safety net when the log is far behind (the worker
// died, or a long reader kept it from finishing). Durability is the same either way: a commit is in the log.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Each round wakes the worker and syncs the database file. Every 200 ms was a twentieth of the app's CPU for a
 * quiet group in bench:groups; a second keeps the log a few thousand pages at 1000 sends/s, far below the fallback.
 */
const CHECKPOINT_EVERY_MS = 1000;
/** Pages the log may grow to before the app's own connection checkpoints after all (about 80 MB). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;
/**
 * The size the log is cut back to when it restarts after a checkpoint (journal_size_limit, set on both
 * connections): a burst may grow it to tens of MB, and without a limit SQLite keeps the file that large.
 */
export const JOURNAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

// Plain JavaScript, evaluated in the worker, so it loads the same way under tsx, vitest and plain node.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
db.pragma('journal_size_limit = ' + workerData.journalSizeLimit);
const checkpoint = (mode) => {
  try {
    db.pragma('wal_checkpoint(' + mode + ')');
  } catch (err) {
    // Another process's checkpoint, or a writer holding a lock: the next round catches up.
  }
};
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'close') return;
  clearInterval(timer);
  checkpoint('PASSIVE');
  db.close();
  parentPort.postMessage('closed');
});
`;

export interface Checkpointer {
  close(): Promise<void>;
}

export function startCheckpointer(file: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, everyMs: CHECKPOINT_EVERY_MS, journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES },
  });
  // A checkpointer that cannot start or dies leaves the fallback autocheckpoint in charge; nothing is lost.
  worker.on('error', () => {});
  worker.unref();
  let closing: Promise<void> | null = null;
  return {
    // The worker checkpoints once more and closes its connection; being the last one, it also removes the log.
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(stuck);
          resolve();
        };
        const stuck = setTimeout(() => void worker.terminate().then(done, done), 5000);
        worker.once('message', () => void worker.terminate().then(done, done));
        worker.once('exit', done);
        worker.postMessage('close');
      })),
  };
}
