// An import as the server keeps it (POST /api/imports and after): what the browser shows while an export is
// uploaded, analysed, mapped and imported, and the batches a secret chat's import posts (the browser encrypts; the
// server never reads them). Plain types: the browser loads no zod for them.
import type { ExportedChat, ImportSource } from './types';

export type ImportStatus = 'uploading' | 'analysing' | 'mapping' | 'running' | 'done' | 'failed' | 'cancelled';

/** An author of the export with the member the server suggests by name (null: none fits). */
export interface ImportJobAuthor {
  key: string;
  name: string;
  messageCount: number;
  suggestedUserId: string | null;
}

export interface ImportJob {
  id: string;
  status: ImportStatus;
  source: ImportSource | null;
  /** The exported chat's name (a new group is named after it). */
  chatName: string | null;
  /** A whole-account export's chats (one to choose: POST /api/imports/:id/chat); one otherwise. */
  chats: ExportedChat[];
  /** The chat of the export chosen, once chosen. */
  chatId?: string | null;
  authors: ImportJobAuthor[];
  /** Messages of the chosen chat, and how many are through. */
  total: number;
  done: number;
  /** Messages this import stored (an export imported before adds none). */
  imported?: number;
  /** The chat it goes into: given, or the new group once started. */
  conversationId: string | null;
  /** Russian, shown as is (status 'failed'). */
  error?: string | null;
}

/** POST /api/imports/:id/start. */
export interface ImportStartBody {
  /** authorKey → a member's id, or null: the name stays, «Ольга (из Telegram)». */
  mapping: Record<string, string | null>;
  /** A new group's name (into a new group only). */
  title?: string;
}

/** One message of a secret chat's import: `content` is the MLS ciphertext a secret send carries (base64). */
export interface SecretImportItem {
  sourceId: string;
  /** Its place in the export, 0 … total − 1: the order the chat shows them in. */
  index: number;
  /** ISO time of the original message. */
  createdAt: string;
  content: string;
  clientMessageId: string;
}

/** POST /api/imports/secret-batch: idempotent per (conversation, importKey, sourceId). */
export interface SecretImportBatch {
  conversationId: string;
  importKey: string;
  source: ImportSource;
  /** Messages in the whole export. */
  total: number;
  messages: SecretImportItem[];
}

export interface SecretImportBatchResult {
  stored: number;
  skipped: number;
  jobId?: string;
  /**
   * The stored messages' ids by clientMessageId: the importing device keeps each plaintext under its id, as after a
   * secret send (it cannot decrypt its own ciphertext).
   */
  messages?: Array<{ clientMessageId: string; id: string; createdAt: string }>;
}

/** The paths under /api (the routes table names them once the server's routes are in it). */
export const IMPORT_PATHS = {
  imports: '/imports',
  job: (id: string) => `/imports/${encodeURIComponent(id)}`,
  chat: (id: string) => `/imports/${encodeURIComponent(id)}/chat`,
  start: (id: string) => `/imports/${encodeURIComponent(id)}/start`,
  cancel: (id: string) => `/imports/${encodeURIComponent(id)}/cancel`,
  secretBatch: '/imports/secret-batch',
} as const;

/** Statuses in which an import is still under way (a reload shows it again). */
export const ACTIVE_IMPORT: readonly ImportStatus[] = ['uploading', 'analysing', 'mapping', 'running'];
