// History import (docs/behaviour.md §10.38, docs/history-import.md «Server»): the jobs that bring a Telegram or
// WhatsApp export into a chat, and the batches a browser sends for a secret chat (encrypted on the device).
import { z } from 'zod';
import { Id, IsoDate } from './entities';
import { Ciphertext } from './secret';

export const ImportStatus = z.enum(['uploading', 'analysing', 'mapping', 'running', 'done', 'failed', 'cancelled']);
export type ImportStatus = z.infer<typeof ImportStatus>;
export const ImportSourceName = z.enum(['telegram', 'whatsapp']);

/** An author of the chosen exported chat, with the member the server suggests by name (null: none fits). */
export const ImportAuthor = z.object({
  key: z.string(),
  name: z.string(),
  messageCount: z.number().int(),
  suggestedUserId: Id.nullable(),
});
export type ImportAuthor = z.infer<typeof ImportAuthor>;

export const ImportChat = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  messageCount: z.number().int(),
});

export const ImportJob = z.object({
  id: Id,
  status: ImportStatus,
  source: ImportSourceName.nullable(),
  /** The exported chat's name (the chosen one of an account export). */
  chatName: z.string().nullable(),
  /** Every chat of a whole-account export (choose one with POST /api/imports/:id/chat); one for a chat's export. */
  chats: z.array(ImportChat),
  chatId: z.string().nullable(),
  authors: z.array(ImportAuthor),
  /** Messages in the chosen chat, and how many of them are through (stored or already there). */
  total: z.number().int(),
  done: z.number().int(),
  /** Messages this import stored (an export imported before adds none). */
  imported: z.number().int(),
  /** Into this chat; a new group's id once the import made it. */
  conversationId: Id.nullable(),
  /** Why it failed, in Russian. */
  error: z.string().nullable(),
  createdAt: IsoDate,
});
export type ImportJob = z.infer<typeof ImportJob>;

/** POST /api/imports?conversationId= — the export itself as the body (application/zip). */
export const ImportUploadQuery = z.strictObject({ conversationId: Id.optional() });
export const ImportParams = z.strictObject({ id: Id });
export const ImportChooseBody = z.strictObject({ chatId: z.string().min(1).max(64) });
export const ImportStartBody = z.strictObject({
  /** Author key → the member they are here, or null to keep them as a name («Ольга (из Telegram)»). */
  mapping: z
    .record(z.string().max(200), Id.nullable())
    .refine((m) => Object.keys(m).length <= 10_000, 'Слишком много авторов'),
  /** A new group's name (default: the exported chat's). */
  title: z
    .string()
    .trim()
    .min(1, 'Название не может быть пустым')
    .max(100, 'Название — не длиннее 100 символов')
    .optional(),
});
export const ImportJobResponse = z.object({ job: ImportJob });
export const ImportJobsResponse = z.object({ jobs: z.array(ImportJob) });

/** Messages per secret batch. */
export const SECRET_IMPORT_BATCH_MAX = 200;

const SourceId = z.string().min(1).max(64);
/** POST /api/imports/secret-batch: messages of an export encrypted in the browser, idempotent per sourceId. */
export const SecretImportBatchBody = z.strictObject({
  conversationId: Id,
  /** The export's identity, chosen by the client (a hash of the file): the same export twice stores nothing twice. */
  importKey: z.string().regex(/^[0-9a-zA-Z_-]{16,128}$/, 'importKey — от 16 до 128 латинских букв и цифр'),
  source: ImportSourceName,
  /** Messages in the whole export: their places (`index`) are reserved before the chat's own messages. */
  total: z.number().int().min(1).max(10_000_000),
  messages: z
    .array(
      z.strictObject({
        sourceId: SourceId,
        /** The message's place in the export, 0 … total − 1: the order they are shown in. */
        index: z.number().int().min(0),
        createdAt: z
          .string()
          .max(40)
          .refine((s) => !Number.isNaN(Date.parse(s)), 'createdAt: укажите дату и время'),
        /** The same envelope a secret send carries (MLS ciphertext, base64). */
        content: Ciphertext,
        clientMessageId: z
          .string()
          .min(1)
          .max(64)
          .regex(/^[\x21-\x7e]+$/, 'clientMessageId — печатные ASCII-символы'),
      }),
    )
    .min(1, 'Пустая пачка')
    .max(SECRET_IMPORT_BATCH_MAX, `Не больше ${SECRET_IMPORT_BATCH_MAX} сообщений за раз`),
});
export const SecretImportBatchResponse = z.object({
  stored: z.number().int(),
  skipped: z.number().int(),
  /** The job that follows this export into this chat (its progress: GET /api/imports/:id). */
  jobId: Id,
  /** Where each message of the batch is kept, stored now or before. */
  messages: z.array(z.object({ clientMessageId: z.string(), id: Id, createdAt: z.string() })),
});
