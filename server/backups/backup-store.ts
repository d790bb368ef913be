// Where the server's own backups go: DATA_DIR/backups on local disk, or the S3 bucket under `backups/` when uploads
// live there (a backup on the same disk as the data is lost with that disk; the bucket is the place the operator
// already trusts). The archive is the one `npm run admin -- backup` makes (server/admin/backup.ts); on PostgreSQL,
// whose database that archive does not hold, pg_dump's custom-format dump goes beside it under the same name
// (`.dump`), which is also the copy an upgrade looks for in DATA_DIR/backups (server/db/upgrade.ts).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BackupRefused, backup } from '../admin/backup';
import type { Config } from '../config';
import { s3Client, s3Storage } from '../uploads/s3-storage';
import type { UploadStorage } from '../uploads/storage';
import { backupsDir, dumpName } from './schedule';

/** `pg_dump -Fc` of the database into `file`; a failure is one sentence for the console. */
export async function pgDump(url: string, file: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    execFile('pg_dump', ['-Fc', '-f', file, url], { maxBuffer: 16 * 1024 * 1024 }, (err, _out, stderr) => {
      if (!err) return resolve();
      if ((err as { code?: unknown }).code === 'ENOENT') {
        return reject(
          new BackupRefused(
            'pg_dump не найден: установите клиент PostgreSQL (пакет postgresql-client), без него база в копию не попадает',
          ),
        );
      }
      const said =
        (stderr || err.message)
          .trim()
          .split('\n')[0]
          ?.replace(/^pg_dump: (error: )?/, '') ?? '';
      reject(new BackupRefused(`pg_dump не сохранил базу: ${said}`));
    });
  });
}

/** The key prefix of backups in the S3 bucket. */
export const S3_BACKUPS_PREFIX = 'backups/';

export interface BackupStore {
  location: 'disk' | 's3';
  /** Where the backups are, for the console: a directory or s3://bucket/backups/. */
  place: string;
  /** A backup's file path or object key. */
  target(name: string): string;
  /** Makes the archive `name` (and on PostgreSQL its dump); their size in bytes. */
  make(name: string): Promise<number>;
  names(): Promise<string[]>;
  remove(name: string): Promise<void>;
  /** The storage of an S3 store (restore and verify-backup read keys through it); null on disk. */
  s3: UploadStorage | null;
  close(): void;
}

export function backupStore(config: Config): BackupStore {
  const dir = backupsDir(config.dataDir);
  const s3 = config.s3;
  if (s3) {
    const client = s3Client(s3);
    const storage = s3Storage(client, s3.bucket, S3_BACKUPS_PREFIX);
    return {
      location: 's3',
      place: `s3://${s3.bucket}/${S3_BACKUPS_PREFIX}`,
      target: (name) => `${S3_BACKUPS_PREFIX}${name}`,
      async make(name) {
        // Built on local disk first (the archive's checks want a file), then sent; the local copy goes either way.
        const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'beseda-backup-'));
        try {
          const file = path.join(work, name);
          let { archiveBytes: bytes } = await backup(config, file);
          if (config.databaseUrl) {
            const dump = path.join(work, dumpName(name));
            await pgDump(config.databaseUrl, dump);
            await storage.write(dumpName(name), fs.createReadStream(dump));
            bytes += fs.statSync(dump).size;
          }
          await storage.write(name, fs.createReadStream(file));
          return bytes;
        } finally {
          await fs.promises.rm(work, { recursive: true, force: true });
        }
      },
      async names() {
        const all: string[] = [];
        for await (const key of storage.keys()) all.push(key);
        return all;
      },
      remove: (name) => storage.remove(name),
      s3: storage,
      close: () => client.destroy(),
    };
  }
  return {
    location: 'disk',
    place: dir,
    target: (name) => path.join(dir, name),
    async make(name) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      let bytes = 0;
      if (config.databaseUrl) {
        // Written under a name no reader takes (neither pruning nor an upgrade) until it is whole.
        const dump = path.join(dir, dumpName(name));
        const partial = `${dump}.partial`;
        try {
          await pgDump(config.databaseUrl, partial);
          fs.renameSync(partial, dump);
        } finally {
          fs.rmSync(partial, { force: true });
        }
        bytes += fs.statSync(dump).size;
      }
      return bytes + (await backup(config, path.join(dir, name))).archiveBytes;
    },
    async names() {
      return fs.promises.readdir(dir).catch(() => [] as string[]);
    },
    remove: (name) => fs.promises.rm(path.join(dir, name), { force: true }),
    s3: null,
    close: () => {},
  };
}
