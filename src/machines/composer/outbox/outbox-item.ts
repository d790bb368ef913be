// The outbox's data and pure rules: every send is an item with its own clientMessageId (the server
// returns the first message for a repeated id, so retries never duplicate), shown in the conversation until
// the server has it. Every item is made by one factory, `outboxItem`, from the part that differs by kind (a
// text with its reply, files, a voice recording). Items survive a reload through the outbox store; files live in
// memory only, so an upload interrupted by a reload cannot be resumed and says so instead of disappearing.
import type { Attachment, SendType, VoiceInfo } from '../../../contract/entities';
import type { MessageEntity } from '../../../contract/message-entities';
import { failureOf } from '../../../contract/failure';
import {
  arrayOf,
  type Check,
  isAttachment,
  isBoolean,
  isNumber,
  isString,
  nullable,
  oneOf,
  shape,
} from '../../../contract/shape';

export const UPLOAD_FAILED = 'upload failed';

/**
 * What a failed upload tells the outbox: the server's reason whenever it gave one (a full disk's 507 too, not only
 * a refusal), else 'upload failed'; a file the server refused itself (413 and other 4xx) is not offered again.
 */
export function uploadFailure(error: unknown): { type: 'upload.failed'; message: string; retryable?: boolean } {
  const failure = failureOf(error);
  const message = failure.serverMessage ?? UPLOAD_FAILED;
  return failure.refused ? { type: 'upload.failed', message, retryable: false } : { type: 'upload.failed', message };
}
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
  /** 'voice': one recording (files[0]) sent as a VOICE message with `voice`. */
  kind: 'text' | 'files' | 'voice';
  content: string;
  /** A voice item's duration and waveform (absent in items stored before voice messages existed). */
  voice?: VoiceInfo | null;
  replyTo: { id: string; content: string } | null;
  /** Members the text mentions, by id (absent in items stored before mentions existed). */
  mentions?: string[];
  /** The text's formatting (absent: plain). */
  entities?: MessageEntity[];
  files: PendingFile[];
  status: OutboxStatus;
  error: string | null;
  /** False when trying again cannot help: the server refused the message, or its files are gone. */
  retryable: boolean;
  createdAt: string;
  /** A secret chat's: its files are sealed and its text goes encrypted (absent in items stored before the flag). */
  secret?: boolean;
  /** A reply in this thread (the thread panel's): sent with it, shown in the panel, not in the timeline. */
  threadRootId?: string;
}

export const tempId = (clientMessageId: string) => `tmp-${clientMessageId}`;

/** A file as picked or recorded (a File has a name, a recorded Blob gets one). */
export type PickedFile = Blob & { name?: string };

/** What differs by kind when something is handed to the outbox; the rest of an item is the same for all. */
export type OutboxPart =
  | {
      kind: 'text';
      content: string;
      replyTo: { id: string; content: string } | null;
      mentions?: string[];
      entities?: MessageEntity[];
    }
  | {
      kind: 'files';
      files: PickedFile[];
      caption?: string;
      /** The thread panel quotes a reply and names members with files too. */
      replyTo?: { id: string; content: string } | null;
      mentions?: string[];
    }
  | { kind: 'voice'; file: PickedFile; voice: VoiceInfo };

/**
 * The one way an item comes to be: queued, retryable, shown as the temporary message 'tmp-' + clientMessageId.
 * `threadRootId` makes it a reply in that thread.
 */
export function outboxItem(
  clientMessageId: string,
  conversationId: string,
  part: OutboxPart,
  at: string,
  secret = false,
  threadRootId?: string,
): OutboxItem {
  const item = {
    id: tempId(clientMessageId),
    clientMessageId,
    conversationId,
    ...(secret ? { secret } : {}),
    ...(threadRootId ? { threadRootId } : {}),
    content: '',
    replyTo: null,
    files: [],
    status: 'queued',
    error: null,
    retryable: true,
    createdAt: at,
  } satisfies Omit<OutboxItem, 'kind'>;
  switch (part.kind) {
    case 'text':
      return {
        ...item,
        kind: 'text',
        content: part.content,
        replyTo: part.replyTo,
        ...(part.mentions?.length ? { mentions: part.mentions } : {}),
        ...(part.entities?.length ? { entities: part.entities } : {}),
      };
    case 'files':
      return {
        ...item,
        kind: 'files',
        content: part.caption?.trim() ?? '',
        files: part.files.map(pendingFile),
        replyTo: part.replyTo ?? null,
        ...(part.mentions?.length ? { mentions: part.mentions } : {}),
      };
    case 'voice': {
      const named = Object.assign(part.file, { name: part.file.type.includes('mp4') ? 'voice.m4a' : 'voice.webm' });
      return { ...item, kind: 'voice', voice: part.voice, files: [pendingFile(named)] };
    }
  }
}

/** A random prefix per composer start; with a counter it makes unique clientMessageIds (printable ASCII). */
export function newOutboxTag(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function pendingFile(file: PickedFile): PendingFile {
  return { name: file.name ?? 'file', size: file.size, mime: file.type, progress: 0, file, attachment: null };
}

/** A file still to upload that is larger than the server takes (`limit` null: not known yet, nothing is). */
export const tooLargeFile = (item: OutboxItem, limit: number | null): boolean =>
  limit !== null && item.files.some((f) => !f.attachment && f.size > limit);

/** The first file still to upload. */
export const nextUpload = (item: OutboxItem) => item.files.findIndex((f) => !f.attachment);

/** The bytes of the first file still to upload; null when they are gone (a reload). */
export const nextUploadBytes = (item: OutboxItem | undefined): PickedFile | null =>
  item?.files.find((f) => !f.attachment)?.file ?? null;

/** One message for all files: IMAGE when every file is an image, else FILE (docs/behaviour.md §4). */
export function messageTypeOf(item: OutboxItem): SendType {
  if (item.kind === 'text') return 'TEXT';
  if (item.kind === 'voice') return 'VOICE';
  return item.files.every((f) => f.attachment?.type === 'IMAGE') ? 'IMAGE' : 'FILE';
}

export function sendBodyOf(item: OutboxItem) {
  return {
    conversationId: item.conversationId,
    type: messageTypeOf(item),
    content: item.content,
    replyToId: item.replyTo?.id ?? null,
    clientMessageId: item.clientMessageId,
    ...(item.kind !== 'text'
      ? {
          attachments: item.files.flatMap((f) =>
            f.attachment ? [{ url: f.attachment.url, type: f.attachment.type }] : [],
          ),
        }
      : {}),
    ...(item.kind === 'voice' && item.voice ? { voice: item.voice } : {}),
    ...(item.mentions?.length ? { mentions: item.mentions } : {}),
    ...(item.entities?.length ? { entities: item.entities } : {}),
    ...(item.threadRootId ? { threadRootId: item.threadRootId } : {}),
  };
}

/**
 * Items in a chat the list knows as secret are marked so (one kept from before items carried the mark); a mark is
 * never taken away.
 */
export const withSecretChats = (items: OutboxItem[], secretChats: string[]): OutboxItem[] =>
  secretChats.length === 0
    ? items
    : items.map((i) => (i.secret || !secretChats.includes(i.conversationId) ? i : { ...i, secret: true }));

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

// What a reload reads back is checked field by field (typed against OutboxItem, so a new field must be added here).
const storedFileFields = {
  name: isString,
  size: isNumber,
  mime: isString,
  progress: isNumber,
  attachment: nullable(isAttachment),
} satisfies Record<Exclude<keyof PendingFile, 'file'>, Check>;
const storedItemFields = {
  id: isString,
  clientMessageId: isString,
  conversationId: isString,
  kind: oneOf('text', 'files', 'voice'),
  content: isString,
  voice: (x) => x === undefined || nullable(shape({ durationMs: isNumber, waveform: arrayOf(isNumber) }))(x),
  replyTo: nullable(shape({ id: isString, content: isString })),
  mentions: (x) => x === undefined || arrayOf(isString)(x),
  // The server checks the ranges again when the item is sent.
  entities: (x) => x === undefined || Array.isArray(x),
  files: arrayOf(shape(storedFileFields)),
  status: oneOf('queued', 'uploading', 'sending', 'failed'),
  error: nullable(isString),
  retryable: isBoolean,
  createdAt: isString,
  secret: (x) => x === undefined || isBoolean(x),
  threadRootId: (x) => x === undefined || isString(x),
} satisfies Record<keyof OutboxItem, Check>;
const isStoredItem = shape(storedItemFields) as (x: unknown) => x is OutboxItem;

/** What the outbox store held, item by item; anything unreadable (an older format, a hand edit) is dropped. */
export function parseStoredOutbox(raw: unknown): OutboxItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isStoredItem).map((item) => ({ ...item, files: item.files.map((f) => ({ ...f, file: null })) }));
}
