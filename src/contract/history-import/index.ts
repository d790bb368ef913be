// Reading a chat export: which kind it is, what it holds (for the mapping step) and its messages one by one.
// Plain TypeScript for both the server (a file handle) and the browser (a Blob): no Node-only imports here.
import type { ReadOptions } from './common';
import type { ImportLimits } from './limits';
import { analyseTelegram, findTelegramJson, readTelegram } from './telegram';
import { type ExportFiles, type ExportSummary, type ImportedMessage, ImportFormatError } from './types';
import { analyseWhatsApp, findWhatsAppChat, readWhatsApp } from './whatsapp';
import { type ByteSource, looksLikeZip, zipExportFiles } from './zip';

export * from './types';
export type { ReadOptions } from './common';
export { type ImportLimits, importLimits } from './limits';
export { flattenTelegramText, readTelegramText, telegramEntityTypes } from './text-entities';
export { type ByteSource, bytesSource, zipExportFiles } from './zip';

export type ExportOptions = ReadOptions & { limits?: Partial<ImportLimits> };

type Located = { source: 'telegram' | 'whatsapp'; path: string };

async function locate(files: ExportFiles): Promise<Located> {
  const paths = (await files.list()).map((f) => f.path);
  if (paths.length === 0) throw new ImportFormatError('Экспорт пуст: в нём нет ни одного файла.');
  const json = findTelegramJson(paths);
  if (json) return { source: 'telegram', path: json };
  const chat = findWhatsAppChat(paths);
  if (chat) return { source: 'whatsapp', path: chat };
  if (paths.some((p) => /(^|\/)messages\d*\.html$/.test(p))) {
    throw new ImportFormatError(
      'Это экспорт Telegram в формате HTML. Экспортируйте чат заново, выбрав формат «Машиночитаемый JSON».',
    );
  }
  throw new ImportFormatError(
    'В архиве нет ни result.json из Telegram, ни файла чата WhatsApp: это не экспорт истории.',
  );
}

/** What the export holds: its kind, chats, authors of the chosen chat and the count. Reads every message once. */
export async function analyseExport(files: ExportFiles, opts: ExportOptions = {}): Promise<ExportSummary> {
  const at = await locate(files);
  return at.source === 'telegram' ? analyseTelegram(files, at.path, opts) : analyseWhatsApp(files, at.path, opts);
}

/** The chosen chat's messages in the export's order (oldest first), one at a time. */
export async function* readExportMessages(
  files: ExportFiles,
  opts: ExportOptions = {},
): AsyncGenerator<ImportedMessage> {
  const at = await locate(files);
  yield* at.source === 'telegram' ? readTelegram(files, at.path, opts) : readWhatsApp(files, at.path, opts);
}

/**
 * An export as uploaded: a ZIP, or a bare result.json / WhatsApp .txt (Android shares the chat without media as a
 * lone text file). `name` is the uploaded file's name when known.
 */
export async function openExport(
  src: ByteSource,
  opts: { name?: string; limits?: Partial<ImportLimits> } = {},
): Promise<ExportFiles> {
  if (src.size === 0) throw new ImportFormatError('Файл пуст.');
  if (await looksLikeZip(src)) return zipExportFiles(src, opts.limits);
  const head = await src.read(0, Math.min(src.size, 64));
  let i = head[0] === 0xef ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  const path =
    head[i] === 0x7b
      ? 'result.json'
      : opts.name && /\.txt$/i.test(opts.name)
        ? opts.name.replace(/^.*[\\/]/, '')
        : '_chat.txt';
  if (head[i] !== 0x7b && !(head[i] === 0x5b || (head[i] >= 0x30 && head[i] <= 0x39) || head[i] === 0xe2)) {
    throw new ImportFormatError(
      'Это не экспорт истории: ожидался ZIP-архив, result.json из Telegram или чат WhatsApp.',
    );
  }
  return singleFile(path, src);
}

function singleFile(path: string, src: ByteSource): ExportFiles {
  return {
    async list() {
      return [{ path, size: src.size }];
    },
    async *open(p: string) {
      if (p !== path) throw new ImportFormatError(`В экспорте нет файла «${p}».`);
      const step = 256 * 1024;
      for (let at = 0; at < src.size; at += step) yield await src.read(at, Math.min(step, src.size - at));
    },
  };
}

/** An export already split into files (a folder the browser was given, or tests). */
export function memoryExportFiles(entries: Record<string, Uint8Array>): ExportFiles {
  const map = new Map(Object.entries(entries));
  return {
    async list() {
      return [...map].map(([path, b]) => ({ path, size: b.length }));
    },
    async *open(path: string) {
      const b = map.get(path);
      if (!b) throw new ImportFormatError(`В экспорте нет файла «${path}».`);
      yield b;
    },
  };
}
