// The outbox's protocol (the composer's child 'outbox', one per signed-in user): its input, the events it accepts
// (what the composer hands it, the view's retry and remove, its upload actor's reports) and what it tells its
// parent. Peers and views import this module, never outbox.machine.ts.
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { Attachment, Message } from '../../../contract/entities';
import type { SecretDeviceRef } from '../../secretChats/secretDevice/secretDevice.protocol';
import type { MachineRef } from '../../shared/machine-ref';
import type { OutboxItem, OutboxPart, PickedFile } from './outbox-item';
import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';

export type { OutboxPart } from './outbox-item';

export interface OutboxInput {
  userId: string;
  /** Prefix of this outbox's clientMessageIds (random per start; fixed in tests). */
  tag: string;
  /** This browser's secret chat device, when it already runs (it tells the composer so). */
  device?: SecretDeviceRef | null;
}

/** How long a secret chat's text waits for the device (its code loading, the chats page learning of the chat). */
export const DEVICE_WAIT_MS = 20_000;

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
  /**
   * The chats the list knows as secret (told by the composer): an item without the mark (kept from before the
   * items carried it) in one of them is marked secret, never the other way round.
   */
  secretChats: string[];
  /** This browser's secret chat device while it runs: a secret chat's text is handed to it. */
  device: SecretDeviceRef | null;
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

/**
 * What the send actor is given: the message, or null when its item is gone (the send then fails). A secret chat's
 * comes with the device that encrypts and sends it (the outbox waits for one before it sends).
 */
export type SendInput = (BodyOf<'send'> & { secret?: boolean; device?: SecretDeviceRef }) | null;

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
  /** The chats the list knows as secret (the chats actor's, through the composer). */
  | { type: 'outbox.secretChats'; conversationIds: string[] }
  /** This browser's secret chat device started (a ref) or stopped (null), through the composer. */
  | { type: 'outbox.device'; device: SecretDeviceRef | null }
  | UploadReport;

/** What the outbox tells its parent (the composer, which emits it as `composer.delivered`). */
export type OutboxParentEvent =
  /** The server has an own message; `refresh` after a file send (docs/behaviour.md §4). */
  { type: 'outbox.delivered'; message: Message; refresh: boolean };

/** What the outbox store is told: the items to keep (without file bytes). */
export type OutboxStoreCommand = { type: 'outbox.save'; items: OutboxItem[] };

export type OutboxRef = MachineRef<OutboxContext, OutboxEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/composer/composer.effects.ts). */
export interface OutboxEffects {
  loadOutbox: PromiseActorLogic<OutboxItem[], { userId: string }>;
  loadUploadLimit: PromiseActorLogic<number, unknown>;
  outboxStore: CallbackActorLogic<OutboxStoreCommand, { userId: string }>;
  upload: CallbackActorLogic<{ type: string }, UploadInput>;
  sendMessage: PromiseActorLogic<ResponseOf<'send'>, SendInput>;
}
