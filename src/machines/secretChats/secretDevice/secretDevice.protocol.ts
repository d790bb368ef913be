// The secret device actor's protocol (systemId 'secretDevice', docs/secret-chats.md "The client"): this browser as
// a device of secret chats. Views and peers import this module, never secretDevice.machine.ts.
import type { MachineRef, SnapshotOf } from '../../shared/machine-ref';
import type { Outgoing, SecretAttachment, SecretChatRef, SecretEnvelope } from '../secretChat/secretChat.protocol';
import type { AnyStateMachine, CallbackActorLogic, PromiseActorLogic } from 'xstate';

export interface SecretDeviceInput {
  userId: string;
}

/** An emoji and who gave it (a secret message's reactions, as the plaintext chats' Reaction). */
export interface SecretReaction {
  emoji: string;
  userIds: string[];
}

/** What the device knows of one ENCRYPTED message. */
export type SecretText =
  | { status: 'reading' }
  | {
      status: 'text';
      /** The text as last edited by its sender. */
      text: string;
      replyToId: string | null;
      /** When it was last edited (absent: never). */
      edited?: string;
      /** Absent: none. */
      reactions?: SecretReaction[];
      /** Its files, decrypted on demand (absent: none). */
      attachments?: SecretAttachment[];
      /** Who MLS says wrote it (absent: not known, as for older kept texts). */
      from?: string;
    }
  /** Not readable on this device (sent before it joined, or not decryptable). */
  | { status: 'unreadable' }
  /** MLS says someone else wrote it than the sender the server names: nobody's words (FORGED_NOTICE). */
  | { status: 'forged' };

/** «<Имя>: новое устройство»: a device added for a member who already had one (crypto/verification.ts). */
export interface SecretDeviceNotice {
  epoch: number;
  /** When the commit was logged (ISO): the line's place in the chat. */
  at: string;
  userId: string;
  deviceId: string;
  /** «Неподтверждённое устройство не добавлено: <Имя>» (an empty userId: a welcome of another chat refused). */
  refused?: true;
  /** The person's first device in the chat: «<Имя>: первое устройство, подтверждённое ключом личности». */
  first?: true;
}

export interface SecretDeviceContext extends SecretDeviceInput {
  deviceId: string | null;
  /** The secret chats this device runs an actor for (the actors are its children `chat:<id>`). */
  conversationIds: string[];
  /** By message id. */
  texts: Record<string, SecretText>;
  /**
   * By conversation id: members with no device at all (they have not opened Беседа in a browser yet), from the
   * server's state; each leaves the list when the server says they got their first device.
   */
  withoutDevice: Record<string, string[]>;
  /** People whose identity key changed, not accepted yet: a red line in every secret chat with them. */
  identityChanged: string[];
  /** By conversation id: the «новое устройство» notices this device keeps. */
  notices: Record<string, SecretDeviceNotice[]>;
  /** Edits and reactions on their way, by clientMessageId: which chat, and what failing would mean. */
  actions: Record<string, { conversationId: string; failed: string }>;
  /** By conversation id: an edit or a reaction that could not be sent, until the user closes the line. */
  actionFailures: Record<string, string>;
  error: string | null;
}

export type SecretDeviceEvent =
  /** A view shows this ENCRYPTED message: read it (once) unless known. */
  | { type: 'secretDevice.need'; conversationId: string; messageId: string; ciphertext: string; createdAt?: string }
  | { type: 'secretDevice.send'; conversationId: string; item: Outgoing }
  /** Server events (secret:log, secret:pending) and a reconnection. */
  | { type: 'secretDevice.log'; conversationId: string; seq: number; epoch: number }
  | { type: 'secretDevice.pending'; conversationIds: string[] }
  /** secret:firstDevice: a member of these chats signed in on their first browser (a commit adds it). */
  | { type: 'secretDevice.firstDevice'; userId: string; conversationIds: string[] }
  /** A chat just made here with members who have no device (the creation dialog's answer). */
  | { type: 'secretDevice.withoutDevice'; conversationId: string; userIds: string[] }
  /** People whose identity key changed and whose new key this device has not accepted (docs/secret-chats.md). */
  | { type: 'secretDevice.identityChanged'; userIds: string[] }
  | { type: 'secretDevice.sync' }
  /** What a conversation's actor reported (through its watcher). */
  | {
      type: 'secretDevice.text';
      messageId: string;
      envelope: SecretEnvelope;
      /** A text's edits and reactions as applied (crypto/secret-actions.ts); its envelope has the current text. */
      edited?: string;
      /** Its sender as MLS authenticated it. */
      senderUserId?: string;
      reactions?: SecretReaction[];
    }
  /** A message deleted for everyone (message:deleted): its text goes from the views and the sealed store. */
  | { type: 'secretDevice.forget'; conversationId: string; messageId: string }
  | { type: 'secretDevice.unreadable'; messageId: string }
  | { type: 'secretDevice.notices'; conversationId: string; notices: SecretDeviceNotice[] }
  | { type: 'secretDevice.sent'; clientMessageId: string; messageId: string }
  | { type: 'secretDevice.sendFailed'; clientMessageId: string; message: string }
  | { type: 'secretDevice.retry' }
  /** «Закрыть» on the line saying an edit or a reaction was not sent. */
  | { type: 'secretDevice.dismissFailure'; conversationId: string }
  /** A backup filled the store (the recovery key): what was unreadable is asked for again. */
  | { type: 'secretDevice.restored' };

/** What senders hear (emitted). */
export type SecretDeviceEmitted =
  | { type: 'secretDevice.sent'; clientMessageId: string; messageId: string }
  | { type: 'secretDevice.sendFailed'; clientMessageId: string; message: string };

export interface SecretDeviceStart {
  deviceId: string;
  conversationIds: string[];
  /** By conversation id, the members without any device (chats where everyone has one are absent). */
  withoutDevice: Record<string, string[]>;
}

export const SECRET_DEVICE_RETRY_MS = 15_000;

/** Under a secret chat's header, for each member who has no device yet (their name in the nominative). */
/** Under a secret chat's header, in red, for each member whose identity key changed (§10.35). */
export const identityChangedNotice = (name: string) =>
  `${name}: ключ личности сменился — сообщения не отправляются, пока вы не примете новый ключ в «Проверить шифрование»`;

export const noDeviceNotice = (name: string) =>
  `${name} ещё не открывал Беседу в браузере — он получит сообщения, когда войдёт`;

/**
 * What the device knows of a message, as the views show it under the sender the server names: a text MLS says
 * someone else wrote (a server crediting one member's words to another, or a member's copy filling another's
 * message) is shown as FORGED_NOTICE, never under that name nor the other.
 */
export const shownText = (known: SecretText | undefined, senderId: string | undefined): SecretText | undefined =>
  known?.status === 'text' && senderId !== undefined && known.from !== undefined && known.from !== senderId
    ? { status: 'forged' }
    : known;

/** In place of a text whose MLS-authenticated sender is not the one the server names. */
export const FORGED_NOTICE = 'Сообщение не прошло проверку';

/** The notice for a message this device cannot read. */
export const UNREADABLE_NOTICE = 'Сообщения, отправленные до входа на этом устройстве, недоступны';
export const READING_NOTICE = 'Расшифровывается…';
export const ENCRYPTED_PREVIEW = 'Зашифрованное сообщение';
/** As a plaintext chat says them (messageEdit, conversation machines). */
export const SECRET_EDIT_FAILED = 'Не удалось изменить сообщение';
export const SECRET_REACT_FAILED = 'Не удалось изменить реакцию';

export type SecretDeviceRef = MachineRef<SecretDeviceContext, SecretDeviceEvent, SecretDeviceEmitted>;

/** A secret chat's actor (the device's child `chat:<id>`), while this device runs one for it. */
export const secretChatOf =
  (conversationId: string) =>
  (s: SnapshotOf<SecretDeviceRef> | undefined): SecretChatRef | undefined =>
    (s?.children as Record<string, SecretChatRef | undefined> | undefined)?.[`chat:${conversationId}`];

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/secretChats/secretChats.effects.ts).
 */
export interface SecretDeviceEffects {
  /** Registers the device (once per sign-in) and lists its secret chats (GET /api/secret/state). */
  start: PromiseActorLogic<SecretDeviceStart, { userId: string }>;
  /** One secret chat's machine, provided with the effects of its own port (SecretChatEffects). */
  secretChat: AnyStateMachine;
  /**
   * Hears one secretChat actor's emitted events and reports them (with the text read) to the device; deletes the
   * plaintext of a message it is told was deleted (secretDevice.forget).
   */
  watchChat: CallbackActorLogic<SecretDeviceEvent, WatchInput>;
  /**
   * Reads what arrived while the device was away (the newest page of each chat, as secretDevice.need), so the
   * local search has it before the chat is opened; once per start and reconnection.
   */
  backfill: CallbackActorLogic<SecretDeviceEvent, BackfillInput>;
}

/** What the backfill reads: the user's secret chats. */
export interface BackfillInput {
  userId: string;
  conversationIds: string[];
}

/** The chat whose actor watchChat hears. */
export interface WatchInput {
  userId: string;
  conversationId: string;
  chat: SecretChatRef;
}

declare module '../../shared/system' {
  interface SystemActors {
    secretDevice: SecretDeviceRef;
  }
}
