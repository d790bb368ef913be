// Which archive `restore` and `verify-backup` read: a file path; the name of a backup in DATA_DIR/backups; or, when
// uploads live in S3, a key in the bucket (`backups/beseda-backup-….tar.gz` or the name alone), fetched into a
// temporary file first (both commands read an archive twice: checked whole before it is used).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { S3_BACKUPS_PREFIX } from '../backups/backup-store';
import { backupsDir } from '../backups/schedule';
import type { Config } from '../config';
import { s3Client, s3Storage } from '../uploads/s3-storage';
import { BackupRefused } from './backup';

export interface ArchiveSource {
  file: string;
  /** What the operator named, as it is printed back. */
  label: string;
  /** Removes the temporary copy of an archive fetched from the bucket. */
  done(): Promise<void>;
}

const nothingToDo = async () => {};

export async function archiveSource(config: Pick<Config, 'dataDir' | 's3'>, named: string): Promise<ArchiveSource> {
  const direct = path.resolve(named);
  if (isFile(direct)) return { file: direct, label: direct, done: nothingToDo };
  const plain = path.basename(named) === named;
  const inBackups = path.join(backupsDir(config.dataDir), named);
  if (plain && isFile(inBackups)) return { file: inBackups, label: inBackups, done: nothingToDo };
  if (config.s3) {
    const key = named.startsWith(S3_BACKUPS_PREFIX) ? named : `${S3_BACKUPS_PREFIX}${named}`;
    const client = s3Client(config.s3);
    const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'beseda-archive-'));
    const done = () => fs.promises.rm(work, { recursive: true, force: true });
    try {
      let body: Awaited<ReturnType<ReturnType<typeof s3Storage>['read']>>;
      try {
        body = await s3Storage(client, config.s3.bucket, '').read(key);
      } catch (err) {
        throw new BackupRefused(`Не удалось прочитать ${key} из бакета ${config.s3.bucket}: ${(err as Error).message}`);
      }
      if (!body) {
        throw new BackupRefused(
          `Архив ${named} не найден: ни такого файла, ни ключа ${key} в бакете ${config.s3.bucket}`,
        );
      }
      const file = path.join(work, path.basename(key));
      await pipeline(body, fs.createWriteStream(file, { mode: 0o600 }));
      return { file, label: `s3://${config.s3.bucket}/${key}`, done };
    } catch (err) {
      await done();
      throw err;
    } finally {
      client.destroy();
    }
  }
  throw new BackupRefused(
    plain ? `Архив ${named} не найден ни здесь, ни в ${backupsDir(config.dataDir)}` : `Архив ${direct} не найден`,
  );
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
