// What a chat export becomes before anything is stored: one shape for Telegram Desktop's JSON export and WhatsApp's
// «Экспорт чата», read by the server (imports into plain chats) and by the browser (imports into secret chats, which
// the server must never read). Parsers stream: no export is ever held whole in memory.

import type { MessageEntity } from '../message-entities';

export type ImportSource = 'telegram' | 'whatsapp';

/** The files of an export, zipped or not: names are the export's own relative paths ('/'-separated, checked). */
export interface ExportFiles {
  /** Every file's path and size, as the archive or folder lists them. */
  list(): Promise<Array<{ path: string; size: number }>>;
  /** A file's bytes as a stream of chunks; throws ImportFormatError for a path that is not listed. */
  open(path: string): AsyncIterable<Uint8Array>;
}

/** One exported chat of a whole-account export (Telegram's `chats.list`); a single-chat export has one. */
export interface ExportedChat {
  /** The export's own id of the chat (Telegram's `id`), or '0' for a single-chat export. */
  id: string;
  name: string;
  /** 'personal_chat', 'private_group', … as the export says. */
  type: string;
  /** Messages counted while analysing (service lines included). */
  messageCount: number;
}

export interface ExportedAuthor {
  /** Stable within one export: Telegram's `from_id` ("user123"), WhatsApp's name as written. */
  key: string;
  name: string;
  messageCount: number;
}

export type ImportedKind = 'text' | 'image' | 'file' | 'voice' | 'video' | 'placeholder' | 'service';

/** One message of the export, normalised. */
export interface ImportedMessage {
  /** Unique and stable within one chat of one export (Telegram's message id; WhatsApp's line number): the idempotency key. */
  sourceId: string;
  /** Original time, ms since the epoch (UTC). */
  date: number;
  /** null for service lines (someone joined, the chat was renamed …). */
  authorKey: string | null;
  authorName: string;
  kind: ImportedKind;
  /** Plain text (links and mentions kept as text); a caption for media. */
  text: string;
  /** The text's formatting as ranges over it (../message-entities), when it has any. */
  entities?: MessageEntity[];
  replyToSourceId?: string;
  /** When the message was last edited, ms, if it was. */
  editedAt?: number;
  /** For image/file/voice/video: the file inside the export (absent when the export left media out). */
  media?: { path: string; name: string; mime?: string };
  /**
   * For kind 'placeholder' (stickers, media the export left out, polls, locations, contacts, unsupported kinds): a
   * Russian line saying what it was, e.g. «Стикер 🐶», «Голосовое сообщение (не экспортировано)».
   */
  placeholder?: string;
}

export interface ExportSummary {
  source: ImportSource;
  chats: ExportedChat[];
  /** The authors of the chosen chat (or of the only one). */
  authors: ExportedAuthor[];
  messageCount: number;
  firstDate: number | null;
  lastDate: number | null;
}

/** A malformed or hostile export: `message` is Russian and shown as is; nothing is imported because of it. */
export class ImportFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFormatError';
  }
}
