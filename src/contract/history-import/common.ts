// Pieces both parsers share: the options, the future-date rule and the tally an analysis keeps.
import type { ExportedAuthor, ImportedMessage } from './types';
import { ImportFormatError } from './types';

export interface ReadOptions {
  /** For a whole-account Telegram export: which chat (ExportedChat.id). */
  chatId?: string;
  /** The importer's clock, ms (tests inject it); a message dated after now + 1 day is refused. */
  now?: number;
  /**
   * The zone WhatsApp's wall-clock times were written in (IANA, e.g. 'Europe/Moscow'); WhatsApp writes no offset.
   * Default 'UTC'. Telegram's exports carry Unix times and ignore it.
   */
  timeZone?: string;
}

const DAY = 24 * 60 * 60 * 1000;
/** Before Telegram and WhatsApp existed: a date this old is a broken file, not history. */
const EARLIEST = Date.UTC(2009, 0, 1);

export function checkDate(date: number, now: number | undefined, where: string): number {
  if (!Number.isFinite(date) || date < EARLIEST) {
    throw new ImportFormatError(`Файл экспорта повреждён: у сообщения ${where} неверная дата.`);
  }
  const limit = (now ?? Date.now()) + DAY;
  if (date > limit) {
    const d = new Date(date);
    const shown = `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;
    throw new ImportFormatError(
      `Сообщение ${where} датировано будущим (${shown}): экспорт повреждён или изменён, импорт отменён.`,
    );
  }
  return date;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Counts messages and authors while a parser walks the chosen chat. */
export class Tally {
  count = 0;
  first: number | null = null;
  last: number | null = null;
  private readonly authors = new Map<string, ExportedAuthor>();

  add(m: ImportedMessage): void {
    this.count++;
    if (this.first === null || m.date < this.first) this.first = m.date;
    if (this.last === null || m.date > this.last) this.last = m.date;
    if (m.authorKey === null) return;
    const a = this.authors.get(m.authorKey);
    if (a) {
      a.messageCount++;
      // The latest name wins: people rename themselves.
      if (m.authorName) a.name = m.authorName;
    } else {
      this.authors.set(m.authorKey, { key: m.authorKey, name: m.authorName, messageCount: 1 });
    }
  }

  authorList(): ExportedAuthor[] {
    return [...this.authors.values()].sort((a, b) => b.messageCount - a.messageCount);
  }
}

/** A file's path inside the export, resolved against the folder the chat file sits in. */
export function joinPath(dir: string, rel: string): string {
  return dir ? `${dir}/${rel}` : rel;
}

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

const MIME_BY_EXT: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  '3gp': 'video/3gpp',
  webm: 'video/webm',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  pdf: 'application/pdf',
  txt: 'text/plain',
  vcf: 'text/vcard',
  tgs: 'application/x-tgsticker',
};

export function mimeOf(name: string): string | undefined {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return MIME_BY_EXT[ext];
}
