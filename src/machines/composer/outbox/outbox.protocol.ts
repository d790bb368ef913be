// The outbox's protocol (the composer's child 'outbox', one per signed-in user): its input, the events it accepts
// (what the composer hands it, the view's retry and remove, its upload actor's reports) and what it tells its
// parent. Peers and views import this module, never outbox.machine.ts.
import type { BodyOf } from '../../../contract/api';
import type { Attachment, Message } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { OutboxItem, OutboxPart, PickedFile } from './outbox-item';

export type { OutboxPart } from './outbox-item';

export interface OutboxInput {
  userId: string;
  /** Prefix of this outbox's clientMessageIds (random per start; fixed in tests). */
  tag: string;
}

export interface OutboxContext {
  userId: string;
  tag: string;
  /** Items made so far (the clientMessageId counter). */
  seq: number;
  /** Oldest first; sent in this order. */
  items: OutboxItem[];
  /** The item being uploaded or sent. */
  activeId: string | null;
  /** The server's largest upload (GET /api/instance), once known: a larger file is refused before it goes. */
  uploadLimitBytes: number | null;
}

export type UploadReport =
  | { type: 'upload.progress'; percent: number }
  | { type: 'upload.done'; attachment: Attachment }
  /** `retryable: false` when the server refused the file itself (413 …): `message` is then its reason. */
  | { type: 'upload.failed'; message: string; retryable?: boolean };

/** What the upload actor is given: the bytes of the next file, or null when they are gone (the upload fails). */
export interface UploadInput {
  file: PickedFile | null;
  /** The item's conversation. */
  conversationId?: string;
  /** A secret chat's item: its files are encrypted before they go. */
  secret?: boolean;
}

/** What the send actor is given: the message, or null when its item is gone (the send then fails). */
export type SendInput = (BodyOf<'send'> & { secret?: boolean }) | null;

export type OutboxEvent =
  /** Something to send to a conversation (or, with `threadRootId`, to a thread of it): a text, files or a voice recording. */
  | {
      type: 'outbox.add';
      conversationId: string;
      part: OutboxPart;
      at: string;
      secret?: boolean;
      threadRootId?: string;
    }
  /** «Повторить» on a failed item. */
  | { type: 'outbox.retry'; id: string }
  /** «Удалить» on an item not being sent. */
  | { type: 'outbox.remove'; id: string }
  /** The socket (re)connected: failed items worth retrying go again. */
  | { type: 'outbox.reconnected' }
  | UploadReport;

/** What the outbox tells its parent (the composer, which emits it as `composer.delivered`). */
export type OutboxParentEvent =
  /** The server has an own message; `refresh` after a file send (docs/behaviour.md §4). */
  { type: 'outbox.delivered'; message: Message; refresh: boolean };

/** What the outbox store is told: the items to keep (without file bytes). */
export type OutboxStoreCommand = { type: 'outbox.save'; items: OutboxItem[] };

export type OutboxRef = MachineRef<OutboxContext, OutboxEvent>;
