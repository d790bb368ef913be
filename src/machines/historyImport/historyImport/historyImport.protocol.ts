// «Импорт истории» (docs/behaviour.md §10.39): one import, alive while its dialog is open. Into a plain chat or a new
// group the export is uploaded (with progress), analysed by the server, its authors mapped to members («Кто это в
// Беседе?») and imported in the background; into a secret chat the browser reads and encrypts it itself. Reopening
// the dialog after a reload finds the import still under way. Views import this module, never the machine file.
import type { ImportJob, ImportJobAuthor, ImportStartBody } from '../../../contract/history-import/jobs';
import type { ExportedChat, ImportSource } from '../../../contract/history-import/types';
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';

export const IMPORT_UPLOAD_FAILED = 'Не удалось загрузить файл. Попробуйте ещё раз.';
export const IMPORT_START_FAILED = 'Не удалось начать импорт. Попробуйте ещё раз.';
export const IMPORT_CANCEL_FAILED = 'Не удалось отменить импорт. Попробуйте ещё раз.';
export const IMPORT_READ_FAILED = 'Не удалось прочитать экспорт.';

/** Someone of the chat (or, into a new group, oneself) an author can be. */
export interface ImportCandidate {
  userId: string;
  name: string;
}

export interface HistoryImportInput {
  /** The chat it goes into; null: a new group named after the exported chat. */
  conversationId: string | null;
  /** A secret chat: the browser reads and encrypts the export; the server never sees it. */
  secret: boolean;
  userId: string;
  candidates: ImportCandidate[];
}

/** What a secret chat's import learns from the export in the browser. */
export interface LocalExport {
  source: ImportSource;
  chats: ExportedChat[];
  total: number;
  /** Messages of this export already in the chat (a reload continues after them). */
  done: number;
}

/** What the secret import's reader and the upload tell the machine while they run. */
export type HistoryImportWorkEvent =
  | { type: 'upload.progress'; percent: number }
  | { type: 'upload.done'; job: ImportJob }
  | { type: 'upload.failed'; message: string }
  | { type: 'secretImport.progress'; done: number; total: number }
  | { type: 'secretImport.done'; done: number; total: number }
  | { type: 'secretImport.failed'; message: string };

export type HistoryImportEvent =
  | { type: 'import.file'; file: File }
  | { type: 'import.chat'; chatId: string }
  /** An author is this member (userId), or stays a name (null). */
  | { type: 'import.map'; authorKey: string; userId: string | null }
  | { type: 'import.title'; title: string }
  | { type: 'import.start' }
  | { type: 'import.cancel' }
  /** After done, failed or cancelled: another file. */
  | { type: 'import.again' }
  | HistoryImportWorkEvent;

export interface HistoryImportContext extends HistoryImportInput {
  file: File | null;
  uploadPercent: number;
  /** The server's import (plain chats); null before the upload answers, and for a secret chat. */
  job: ImportJob | null;
  /** A whole-account export's chats, and the one chosen. */
  chats: ExportedChat[];
  chatId: string | null;
  source: ImportSource | null;
  /** authorKey → member id or null (a name), from the server's suggestions, changed by the importer. */
  mapping: Record<string, string | null>;
  title: string;
  done: number;
  total: number;
  error: string | null;
}

/** The steps the view shows, one tag each; `busy` while a request is out. */
export const IMPORT_TAGS = {
  resuming: 'resuming',
  choose: 'choose',
  upload: 'upload',
  analyse: 'analyse',
  chooseChat: 'chooseChat',
  map: 'map',
  run: 'run',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  busy: 'busy',
  /** «Отменить» is offered. */
  cancellable: 'cancellable',
} as const;

/** The authors to map: the server's (plain chats). */
export function importAuthors(context: HistoryImportContext): ImportJobAuthor[] {
  return context.job?.authors ?? [];
}

/** «Импорт: 4 200 из 12 345». */
export function progressLine(done: number, total: number): string {
  const n = (x: number) => x.toLocaleString('ru-RU');
  return `Импорт: ${n(done)} из ${n(total)}`;
}

/** What the dialog's view hears: an import finished, so a chat showing it loads its history anew. */
export type HistoryImportEmitted = { type: 'historyImport.finished'; conversationId: string | null };

export type HistoryImportRef = MachineRef<HistoryImportContext, HistoryImportEvent, HistoryImportEmitted>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/historyImport/historyImport.effects.ts).
 */
export interface HistoryImportEffects {
  /** GET /api/imports: this target's import still under way, or null. */
  findJob: PromiseActorLogic<ImportJob | null, { conversationId: string | null }>;
  /** POST /api/imports with the file as the body; tells its progress. */
  upload: CallbackActorLogic<HistoryImportWorkEvent, { file: File; conversationId: string | null }>;
  /** GET /api/imports/:id. */
  fetchJob: PromiseActorLogic<ImportJob, { id: string }>;
  /** POST /api/imports/:id/chat: a whole-account export's chat (the server reads its authors anew). */
  chooseChat: PromiseActorLogic<ImportJob, { id: string; chatId: string }>;
  start: PromiseActorLogic<ImportJob, { id: string; body: ImportStartBody }>;
  cancel: PromiseActorLogic<ImportJob, { id: string }>;
  /** A secret chat: the export read in the browser (its chats, its size, how much of it is already in). */
  analyseLocal: PromiseActorLogic<LocalExport, { file: File; conversationId: string; chatId: string | null }>;
  /** A secret chat: read, encrypt and post the export from where it stopped; tells its progress. */
  secretImport: CallbackActorLogic<
    HistoryImportWorkEvent,
    { file: File; conversationId: string; userId: string; chatId: string | null }
  >;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Импорт истории» (spawned while its dialog is open). */
    historyImport: HistoryImportRef;
  }
}
