// Which storage a configuration's uploads and export archives live in: the one place main, the admin tool and
// tests pick it, so a backup reads exactly what the server writes. Local disk under DATA_DIR by default; with
// S3_BUCKET set, one bucket holding uploads/ and exports/.
import path from 'node:path';
import type { Config } from '../config';
import { checkBucket, s3Client, s3Storage } from './s3-storage';
import { localDiskStorage, type UploadStorage } from './storage';

export interface Storages {
  uploads: UploadStorage;
  archives: UploadStorage;
  /** Whether the storage can be written, read and deleted from; throws a message an operator can act on. */
  check(): Promise<void>;
  /** Lets go of connections (S3); the storages are not used afterwards. */
  close(): void;
}

/** Key prefixes of the two storages in an S3 bucket. */
export const S3_PREFIXES = { uploads: 'uploads/', archives: 'exports/' } as const;

export function storagesFor(config: Pick<Config, 'dataDir' | 's3'>): Storages {
  const { s3 } = config;
  if (s3) {
    const client = s3Client(s3);
    return {
      uploads: s3Storage(client, s3.bucket, S3_PREFIXES.uploads),
      archives: s3Storage(client, s3.bucket, S3_PREFIXES.archives),
      check: () => checkBucket(client, s3),
      close: () => client.destroy(),
    };
  }
  return {
    uploads: localDiskStorage(path.join(config.dataDir, 'uploads')),
    archives: localDiskStorage(path.join(config.dataDir, 'exports')),
    check: async () => {},
    close: () => {},
  };
}
