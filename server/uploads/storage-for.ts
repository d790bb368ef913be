// Which storage a configuration's uploads and export archives live in: the one place main, the admin tool and
// tests pick it, so a backup reads exactly what the server writes.
import path from 'node:path';
import type { Config } from '../config';
import { localDiskStorage, type UploadStorage } from './storage';

export interface Storages {
  uploads: UploadStorage;
  archives: UploadStorage;
}

export function storagesFor(config: Pick<Config, 'dataDir'>): Storages {
  return {
    uploads: localDiskStorage(path.join(config.dataDir, 'uploads')),
    archives: localDiskStorage(path.join(config.dataDir, 'exports')),
  };
}
