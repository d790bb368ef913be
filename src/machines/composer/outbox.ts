// The outbox's data and pure rules (issue 13): every send is an item with its own clientMessageId (the server
// returns the first message for a repeated id, so retries never duplicate), shown in the conversation until
// the server has it. Items survive a reload through the outbox store; files live in memory only, so an
// upload interrupted by a reload cannot be resumed and says so instead of disappearing.
import { z } from 'zod';
import { Attachment, type MessageType } from '../../contract/entities';

export const UPLOAD_FAILED = 'upload failed';
/** Shown on a file item restored after a reload whose bytes were not uploaded yet. */
export const FILES_LOST = 'Файл не сохранился после перезагрузки — прикрепите его снова';

export interface PendingFile {
  name: string;
  size: number;
  mime: string;
  /** 0–100. */
  progress: number;
  /** The bytes, in memory only (null after a reload). */
  file: Blob | null;
  /** Set once uploaded. */
  attachment: Attachment | null;
}

/** queued → (uploading →) sending → gone (the server has it); any failure → failed. */
export type OutboxStatus = 'queued' | 'uploading' | 'sending' | 'failed';

export interface OutboxItem {
  /** The temporary message id, 'tmp-' + clientMessageId. */
  id: string;
  clientMessageId: string;
  conversationId: string;
  kind: 'text' | 'files';
  content: string;
  replyTo: { id: string; content: string } | null;
  files: PendingFile[];
  status: OutboxStatus;
  error: string | null;
  /** False when trying again cannot help: the server refused the message, or its files are gone. */
  retryable: boolean;
  createdAt: string;
}

export const tempId = (clientMessageId: string) => `tmp-${clientMessageId}`;

/** A random prefix per composer start; with a counter it makes unique clientMessageIds (printable ASCII). */
export function newOutboxTag(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const isImageMime = (mime: string) => /^image\/(png|jpe?g|gif|webp)$/i.test(mime);

export function pendingFile(file: Blob & { name?: string }): PendingFile {
  return { name: file.name ?? 'file', size: file.size, mime: file.type, progress: 0, file, attachment: null };
}

/** The first file still to upload. */
export const nextUpload = (item: OutboxItem) => item.files.findIndex((f) => !f.attachment);

/** One message for all files: IMAGE when every file is an image, else FILE (docs/behaviour.md §4). */
export function messageTypeOf(item: OutboxItem): MessageType {
  if (item.kind === 'text') return 'TEXT';
  return item.files.every((f) => f.attachment?.type === 'IMAGE') ? 'IMAGE' : 'FILE';
}

export function sendBodyOf(item: OutboxItem) {
  return {
    conversationId: item.conversationId,
    type: messageTypeOf(item),
    content: item.content,
    replyToId: item.replyTo?.id ?? null,
    clientMessageId: item.clientMessageId,
    ...(item.kind === 'files'
      ? { attachments: item.files.map((f) => ({ url: f.attachment!.url, type: f.attachment!.type })) }
      : {}),
  };
}

/** Upload progress of an item, 0–100 over all its files. */
export function itemProgress(item: OutboxItem): number {
  if (item.files.length === 0) return 0;
  return Math.round(item.files.reduce((sum, f) => sum + (f.attachment ? 100 : f.progress), 0) / item.files.length);
}

/** What a reload finds: nothing is in flight any more, so interrupted items wait as failed for a retry. */
export function restoredItem(item: OutboxItem): OutboxItem {
  const lost = item.files.some((f) => !f.attachment && !f.file);
  if (lost) return { ...item, status: 'failed', error: FILES_LOST, retryable: false };
  if (item.status === 'failed') return item;
  return { ...item, status: 'failed', error: null, retryable: true };
}

/** What is kept across a reload: everything but the bytes. */
export function storableItem(item: OutboxItem): OutboxItem {
  return { ...item, files: item.files.map((f) => ({ ...f, file: null })) };
}

const StoredFile = z.object({
  name: z.string(),
  size: z.number(),
  mime: z.string(),
  progress: z.number(),
  attachment: Attachment.nullable(),
});
const StoredItem = z.object({
  id: z.string(),
  clientMessageId: z.string(),
  conversationId: z.string(),
  kind: z.enum(['text', 'files']),
  content: z.string(),
  replyTo: z.object({ id: z.string(), content: z.string() }).nullable(),
  files: z.array(StoredFile),
  status: z.enum(['queued', 'uploading', 'sending', 'failed']),
  error: z.string().nullable(),
  retryable: z.boolean(),
  createdAt: z.string(),
});

/** What the outbox store held, item by item; anything unreadable (an older format, a hand edit) is dropped. */
export function parseStoredOutbox(raw: unknown): OutboxItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((x) => {
    const parsed = StoredItem.safeParse(x);
    return parsed.success ? [{ ...parsed.data, files: parsed.data.files.map((f) => ({ ...f, file: null })) }] : [];
  });
}
