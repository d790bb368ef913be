// The secret-chat actor's protocol (docs/secret-chats.md, "Lifecycle"): one actor per secret conversation
// on this device. Peers and views import this module, never secretChat.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

/** Where a secret chat's effect runs: whose device, in which chat. */
export interface SecretChatWhere {
  userId: string;
  conversationId: string;
  deviceId: string;
}

/** What a secret message carries inside its MLS ciphertext (parsed strictly by crypto/envelope.ts). */
export interface SecretAttachment {
  url: string;
  key: string;
  iv: string;
  name: string;
  type: string;
  size: number;
  /** A voice message: its length and waveform, as a plaintext VOICE message's (the recording is the file). */
  voice?: { durationMs: number; waveform: number[] };
}
/**
 * Version 2 carries the message's own `id`, a UUIDv7 its sender chose, and every id it names (`replyToId`,
 * `targetId`) is such an id, bound to its message by MLS; version 1 (kept from before) named the server's ids. Views
 * build envelopes without `id` and with the server's ids: the crypto core turns them into version 2 when it encrypts
 * (crypto/message-ids.ts), and back when it answers.
 */
export type EnvelopeHead = { v: 1 | 2; id?: string };
export type SecretEnvelope = EnvelopeHead &
  (
    | { kind: 'text'; text: string; replyToId?: string; attachments?: SecretAttachment[] }
    | { kind: 'edit'; targetId: string; text: string }
    | { kind: 'reaction'; targetId: string; emoji: string }
    | { kind: 'delete'; targetId: string }
    /**
     * A message sent again for members whose first device joined after it (docs/secret-chats.md "Reaching
     * everyone"): a device that could not read the target keeps this as its text; one that could ignores it. Its
     * `targetId` is the server's id of the message it fills, and its `id` the original's.
     */
    | { kind: 'copy'; targetId: string; text: string; replyToId?: string; attachments?: SecretAttachment[] }
  );

export interface SecretChatInput {
  userId: string;
  conversationId: string;
}

export interface Outgoing {
  clientMessageId: string;
  envelope: SecretEnvelope;
  /**
   * Members of the chat with no device yet when it was sent: this device holds the text and sends it again
   * (a `copy`) once their first device is in the group.
   */
  holdFor?: string[];
}
export interface Incoming {
  messageId: string;
  ciphertext: string;
  /** The server's time of the message, for the local search index. */
  createdAt?: string;
}

export interface SecretChatContext extends SecretChatInput {
  deviceId: string | null;
  /** The last log entry applied, and the group's epoch on this device (null: not in the group yet). */
  seq: number;
  epoch: number | null;
  keyPackagesLeft: number | null;
  /** Messages to send and received ciphertexts to read, in order. */
  outgoing: Outgoing[];
  incoming: Incoming[];
  /** The head of `outgoing` got a 409 once and is sent again after catching up; a second 409 fails it. */
  sendRetried: boolean;
  /** The head of `incoming` waits for commits once (its epoch is ahead); then it is unreadable. */
  readRetried: boolean;
  /** Devices to add or remove (secret:pending, a commit refused with 409, or one that failed and is tried again). */
  commitDue: boolean;
  /**
   * A log event came since the last fetch of the log began: fetch again. An event that lands while the log is being
   * fetched (a welcome committed just after a new device asked) would otherwise be lost, and the device would wait.
   */
  logDue: boolean;
  /**
   * Ask whether this device owes the group an update of its own leaf (crypto/leaf-updates.ts): after joining, after
   * each catch-up (a commit may have removed a device), and every SECRET_LEAF_CHECK_MS while idle.
   */
  leafDue: boolean;
  /** Uploading key packages failed: not again until the server tells their count anew. */
  replenishFailed: boolean;
  error: string | null;
}

export type SecretChatEvent =
  | { type: 'secretChat.log'; seq: number; epoch: number }
  | { type: 'secretChat.pending' }
  | { type: 'secretChat.send'; item: Outgoing }
  | { type: 'secretChat.received'; item: Incoming }
  | { type: 'secretChat.retry' };

/** What the conversation hears (emitted). */
export type SecretChatEmitted =
  | { type: 'secretChat.sent'; clientMessageId: string; messageId: string }
  | { type: 'secretChat.sendFailed'; clientMessageId: string; message: string }
  | { type: 'secretChat.read'; messageId: string }
  | { type: 'secretChat.unreadable'; messageId: string; message: string }
  | { type: 'secretChat.removed' };

// The effects' results (the wiring's functions resolve these).
export interface RegisterResult {
  deviceId: string;
  keyPackagesLeft: number;
}
export interface CatchUpResult {
  seq: number;
  epoch: number | null;
  removed: boolean;
  /**
   * Commits of the log this device could not apply (skipped, so the log goes on). With no epoch left, it asked to
   * be added again and waits for that (`rejoining`).
   */
  skipped: number;
}
/** An update of this device's own leaf: committed (the new epoch and its seq), or null when none was due. */
export type LeafUpdateResult = { epoch: number; seq: number } | null;

/** Said in the chat while this device waits to be added again after a commit it could not apply. */
export const REJOIN_NOTICE =
  'Не удалось применить изменение состава чата: это устройство подключается к нему заново. Сообщения, отправленные тем временем, на нём будут недоступны';
export interface CommitResult {
  epoch: number | null;
  seq: number;
  keyPackagesLeft: number;
}

export const SECRET_RETRY_MS = 15_000;
/** While a chat's actor is idle, how often it asks whether its leaf update is due (crypto/leaf-updates.ts). */
export const SECRET_LEAF_CHECK_MS = 60 * 60 * 1000;
/** A device commits an update of its own leaf at least this often while it is used. */
export const SECRET_LEAF_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export type SecretChatRef = MachineRef<SecretChatContext, SecretChatEvent, SecretChatEmitted>;

/** Said where an attachment's ciphertext cannot be opened with the key its envelope carries. */
export const FILE_UNREADABLE = 'Не удалось расшифровать вложение';

/** Types a bubble shows as a picture (the formats browsers draw as plain pixels). */
const PICTURES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** How a bubble shows an attachment: a picture, a voice message, or a file to download. */
export function secretKindOf(a: Pick<SecretAttachment, 'type' | 'voice'>): 'IMAGE' | 'AUDIO' | 'FILE' {
  if (a.voice) return 'AUDIO';
  return PICTURES.has(a.type) ? 'IMAGE' : 'FILE';
}

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/secretChats/secretChats.effects.ts).
 */
export interface SecretChatEffects {
  /** Makes this browser a device (keys, registration, key packages) unless it is one. */
  register: PromiseActorLogic<RegisterResult, { userId: string }>;
  /** Fetches the log after `after` and applies its entries in order (a welcome for this device joins). */
  catchUp: PromiseActorLogic<CatchUpResult, SecretChatWhere & { after: number }>;
  /** GET /api/secret/state; claims and commits the devices to add and remove, if any. */
  commit: PromiseActorLogic<CommitResult, SecretChatWhere>;
  /** Commits an update of this device's own leaf, with a path, if one is due (else null). */
  updateLeaf: PromiseActorLogic<LeafUpdateResult, SecretChatWhere>;
  /** Encrypts and POSTs /api/secret/send, keeping the plaintext under the message's id. */
  send: PromiseActorLogic<{ messageId: string }, SecretChatWhere & { item: Outgoing }>;
  /** Decrypts once and keeps the plaintext. */
  decrypt: PromiseActorLogic<{ messageId: string }, SecretChatWhere & { item: Incoming }>;
  /** Uploads key packages up to LIMITS.keyPackagesKeep. */
  replenish: PromiseActorLogic<{ keyPackagesLeft: number }, { userId: string; deviceId: string; left: number }>;
}
