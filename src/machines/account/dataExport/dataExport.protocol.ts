// «Экспорт данных» in Settings (registry line 'dataExport', alive while the section is shown): asks for an archive,
// follows its progress and offers the download. Views import this module, never dataExport.machine.ts.
import type { z } from 'zod';
import type { ExportStatus } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type DataExport = z.output<typeof ExportStatus>;

export const EXPORT_FAILED = 'Не удалось подготовить архив. Попробуйте ещё раз.';
export const EXPORT_START_FAILED = 'Не удалось начать экспорт';

export interface DataExportContext {
  /** The newest archive (building, ready or failed), or null before the first one. */
  current: DataExport | null;
  error: string | null;
}

export type DataExportEvent = { type: 'export.start' };

export type DataExportRef = MachineRef<DataExportContext, DataExportEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/account/account.effects.ts). */
export interface DataExportEffects {
  /** GET /api/export: the newest archive, or null. */
  loadLatest: PromiseActorLogic<DataExport | null, unknown>;
  /** POST /api/export. */
  startExport: PromiseActorLogic<DataExport, unknown>;
  /** GET /api/export/:id. */
  loadStatus: PromiseActorLogic<DataExport, { id: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Экспорт данных» (spawned while the settings section is shown). */
    dataExport: DataExportRef;
  }
}
