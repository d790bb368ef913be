// Reading a chat export (the parsers' module): its API as the browser's import of a secret chat uses it. The readers
// themselves replace this file.
import { type ExportFiles, type ExportSummary, type ImportedMessage, ImportFormatError } from './types';

export * from './types';

/** Random access to a ZIP's bytes: a file handle on the server, a Blob in the browser. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export type ExportOptions = { chatId?: string; now?: number };

const missing = () => new ImportFormatError('Чтение экспортов недоступно.');

export async function openExport(_src: ByteSource, _opts: { name?: string } = {}): Promise<ExportFiles> {
  throw missing();
}

export async function analyseExport(_files: ExportFiles, _opts: ExportOptions = {}): Promise<ExportSummary> {
  throw missing();
}

// biome-ignore lint/correctness/useYield: the readers replace this file
export async function* readExportMessages(
  _files: ExportFiles,
  _opts: ExportOptions = {},
): AsyncGenerator<ImportedMessage> {
  throw missing();
}
