// Where uploaded bytes live. Local disk (DATA_DIR/uploads) by default; an S3-compatible bucket (s3-storage.ts)
// implements the same interface, and storage-for.ts picks one. Keys are server-generated and already validated (see file-names.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface UploadStorage {
  /** Streams `source` into `key`; on failure nothing is left behind and the error is rethrown. */
  write(key: string, source: Readable): Promise<void>;
  /** A stream of the stored bytes (from start to end inclusive when given), or null when the key is unknown. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  remove(key: string): Promise<void>;
  /** Every stored key (backups, retention); unfinished writes are not listed. */
  keys(): AsyncIterable<string>;
  /** A file path when the bytes are on local disk (lets sharp read only the image header). */
  localPath?(key: string): string;
}

export function localDiskStorage(dir: string): UploadStorage {
  fs.mkdirSync(dir, { recursive: true });
  const file = (key: string) => path.join(dir, path.basename(key));
  return {
    async write(key, source) {
      const target = file(key);
      const partial = `${target}.part`;
      try {
        await pipeline(source, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await fs.promises.rename(partial, target);
      } catch (err) {
        await fs.promises.rm(partial, { force: true });
        throw err;
      }
    },
    async read(key, range) {
      try {
        const handle = await fs.promises.open(file(key), 'r');
        return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      } catch {
        return null;
      }
    },
    async remove(key) {
      await fs.promises.rm(file(key), { force: true });
    },
    async *keys() {
      const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
      for (const name of names) if (!name.endsWith('.part')) yield name;
    },
    localPath: file,
  };
}
