// The service secret-chat actors call (docs/secret-chats.md): the MLS engine and the store run in a
// dedicated Web Worker (crypto.worker.ts), so ts-mls stays out of the main bundle and no key material lives in
// the page's heap. This module holds only the typed request/response protocol and the worker client; the
// implementation (secret-crypto-core.ts) runs in the worker, or in-process in node tests.
import type { Envelope } from './envelope';
import type { SecretActions } from './secret-actions';
import { IDENTITY_METHODS, type IdentityCrypto } from './identity-api';
import { RECOVERY_METHODS, type RecoveryCrypto } from './recovery-api';
import type { DeviceNotice, Verification } from './verification';
import type { LocalHit, LocalQuery } from './search-index';

/** A key package claimed from the server (ClaimedPackage of src/contract/secret.ts). */
export interface ClaimedPackage {
  userId: string;
  deviceId: string;
  keyPackage: string;
}

/** A secret message as this device read or wrote it (what the conversation shows after a reload). */
export interface SecretPlaintext {
  messageId: string;
  conversationId: string;
  senderUserId: string;
  senderDeviceId: string;
  epoch: number;
  envelope: Envelope;
  /** The edits and reactions applied to it (secret-actions.ts). */
  actions?: SecretActions;
}

export interface CommitMade {
  /** The epoch the commit was made in (POST /api/secret/commits's `epoch`). */
  epoch: number;
  commit: string;
  welcome: string | null;
  added: string[];
  removed: string[];
  /** Devices whose claimed packages were refused (they name another user or device). */
  refused: string[];
  /** Devices refused for good: not signed by their person's identity key, not a member's, or a second leaf. */
  untrusted?: { userId: string; deviceId: string }[];
}

/** One commit or welcome of a group's log (LogEntry of src/contract/secret.ts, the fields used). */
export interface LogItem {
  seq: number;
  kind: 'commit' | 'welcome';
  epoch: number;
  deviceId: string;
  body: string;
  /** When the server logged it: a «новое устройство» notice's place in the chat. */
  createdAt?: string;
}

/** registerDevice's (crypto/register-core.ts): where the worker sends its requests, and what came of them. */
/** Where the worker sends its requests: the API's address (absolute) and the page's access token. */
export interface ServerAccess {
  baseURL: string;
  token: string | null;
}

export type WorkerRegistration =
  /** Registered; `approvals`: requests for approval open for this person (a new sign-in asking this device). */
  | { deviceId: string; keyPackagesLeft: number; approvals?: number }
  /** The person's identity key is elsewhere (another device must approve this one) or the token was refused (401). */
  | { page: 'approval' | 'unauthorized' }
  /** The server refused a step: its status and Russian message, as the page's API client reports them. */
  | { failed: { status: number | null; message: string | null } };

export interface SecretCrypto extends RecoveryCrypto, IdentityCrypto {
  /**
   * The device of this user on this browser: made (signature keys) when there is none. `registration` is the one
   * key package POST /api/secret/devices needs when the device has no id yet, else null.
   */
  prepareDevice(userId: string): Promise<{ deviceId: string | null; registration: string | null }>;
  /**
   * The whole registration in the worker, with its own requests to the server (crypto/register-core.ts): the page
   * posts one message and hears one answer. Not queued behind the other calls while it waits for the server.
   */
  registerDevice(userId: string, server: ServerAccess): Promise<WorkerRegistration>;
  /** The id the server gave the device. */
  setDeviceId(userId: string, deviceId: string): Promise<void>;
  /** N more one-time key packages (base64), their private keys kept. */
  makeKeyPackages(userId: string, n: number): Promise<string[]>;
  /** A new last-resort key package (base64): kept after a welcome used it; it replaces the device's earlier one. */
  makeLastResort(userId: string): Promise<string>;
  /** A new group adding every claimed device: the welcome for POST /api/secret/conversations. */
  createGroup(
    userId: string,
    claimed: ClaimedPackage[],
  ): Promise<{
    groupId: string;
    welcome: string | null;
    added: string[];
    refused: string[];
    untrusted?: { userId: string; deviceId: string }[];
  }>;
  /** Keeps the group made by createGroup as the conversation's, once the server made it. */
  confirmGroup(userId: string, groupId: string, conversationId: string): Promise<void>;
  /** Joins from a welcome of the log: false when it is for none of this device's key packages. */
  join(userId: string, conversationId: string, welcome: string): Promise<{ joined: boolean; epoch: number | null }>;
  /** The group's epoch on this device, or null when it is in none. */
  epoch(userId: string, conversationId: string): Promise<number | null>;
  /** A commit adding and removing devices; its state waits for confirmCommit (or for the log to bring it back). */
  commit(
    userId: string,
    conversationId: string,
    claimed: ClaimedPackage[],
    removeDeviceIds: string[],
  ): Promise<CommitMade>;
  /** Whether this device owes the group an update of its own leaf (crypto/leaf-updates.ts). */
  leafUpdateDue(userId: string, conversationId: string): Promise<boolean>;
  /** The server took this device's commit: its state becomes the group's. */
  confirmCommit(userId: string, conversationId: string): Promise<{ epoch: number }>;
  /** The server refused it (409): forget it. */
  discardCommit(userId: string, conversationId: string): Promise<void>;
  /**
   * Drops this device's state of the group (its kept plaintexts stay): a commit it could not apply left it behind
   * the others, and it waits for the welcome of its re-addition.
   */
  resetGroup(userId: string, conversationId: string): Promise<void>;
  /** Applies a log entry in order (another device's commit, or this one's own). */
  applyLogItem(userId: string, conversationId: string, item: LogItem): Promise<{ epoch: number; removed: boolean }>;
  /** The envelope as sent (crypto/message-ids.ts: version 2, with its own id) beside its ciphertext. */
  encrypt(
    userId: string,
    conversationId: string,
    envelope: Envelope,
  ): Promise<{ ciphertext: string; epoch: number; envelope: Envelope }>;
  /** Keeps the plaintext of a message this device sent (it cannot decrypt its own ciphertext). */
  keepSent(userId: string, plaintext: SecretPlaintext): Promise<void>;
  /** Decrypts a received message once and keeps its plaintext; a message already read gives what was kept. */
  decrypt(userId: string, conversationId: string, messageId: string, ciphertext: string): Promise<SecretPlaintext>;
  plaintexts(userId: string, conversationId: string): Promise<SecretPlaintext[]>;
  /** A message deleted for everyone: its plaintext goes from this device. */
  forget(userId: string, conversationId: string, messageId: string): Promise<void>;
  fingerprint(userId: string, conversationId: string): Promise<{ digits: string[]; emoji: string[] }>;
  /** «Проверить шифрование»: the fingerprint of the group's current members' keys and each member's devices. */
  verification(userId: string, conversationId: string): Promise<Verification>;
  /** The «новое устройство» notices this device derived from the commits it applied (kept in the sealed store). */
  deviceNotices(userId: string, conversationId: string): Promise<DeviceNotice[]>;
  /** Holds a message this device sent while `waitFor` members had no device (sent again once they have one). */
  hold(userId: string, conversationId: string, messageId: string, waitFor: string[]): Promise<void>;
  /**
   * The held messages some of whose members now have a device in the group, as `copy` envelopes in the order they
   * were sent; those members are no longer waited for (a message waited for by no one is let go).
   */
  release(userId: string, conversationId: string): Promise<{ messageId: string; envelope: Envelope }[]>;
  /** The 32-byte call key of the group's current epoch (for LiveKit's end-to-end encryption). */
  callKey(userId: string, conversationId: string): Promise<{ epoch: number; key: Uint8Array }>;
  /**
   * A guest link's secret for a secret chat's call (mls-engine.ts `guestLinkSecret`), derived in `epoch`: refused
   * ('stale', GUEST_LINK_OTHER_EPOCH) when the group is in another epoch on this device.
   */
  guestLinkSecret(userId: string, conversationId: string, code: string, epoch: number): Promise<Uint8Array>;
  /** Owes the group an update of this device's leaf at once (a guest left an encrypted call: its key moves on). */
  oweLeafUpdate(userId: string, conversationId: string): Promise<void>;
  /**
   * Puts a kept plaintext into the local search index (a text; an edit changes its target's text, a deletion
   * takes its target out). `createdAt` is the server's time of the message.
   */
  indexMessage(
    userId: string,
    message: { conversationId: string; messageId: string; createdAt: string },
  ): Promise<void>;
  /** A message deleted for everyone leaves the local search index. */
  unindexMessage(userId: string, messageId: string): Promise<void>;
  /** The local search of secret chats: newest first, with the server's snippets and highlights. */
  searchLocal(userId: string, query: LocalQuery): Promise<{ hits: LocalHit[]; more: boolean }>;
  /** Everything of this user (sign-out). */
  clear(userId: string): Promise<void>;
}

export type SecretCryptoMethod = keyof SecretCrypto;

/** A guest link of a secret call made in an epoch the group has left: only its maker's open call still knows it. */
export const GUEST_LINK_OTHER_EPOCH =
  'Ссылка гостя сделана до смены ключей чата: впустить его может тот, кто её создал, или пришлите новую ссылку';
export type SecretErrorCode =
  | 'stale'
  | 'gap'
  | 'notMember'
  | 'badMessage'
  | 'badIdentity'
  | 'noKeyPackage'
  | 'noDevice'
  /** A recovery phrase that is not the key (crypto/recovery.ts). */
  | 'badKey'
  /** A welcome or a commit adding a device that may not join (crypto/identity.ts): skipped, shown in the chat. */
  | 'untrusted'
  | 'failed';

/** A failure with a Russian message for the user and a code for the actors. */
export class SecretCryptoError extends Error {
  constructor(
    readonly code: SecretErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SecretCryptoError';
  }
}

export interface SecretRequest<M extends SecretCryptoMethod = SecretCryptoMethod> {
  id: number;
  method: M;
  args: Parameters<SecretCrypto[M]>;
}
export type SecretResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; code: SecretErrorCode; message: string };

/** The side of a port the client talks through (a Worker, or anything with the same two members). */
export interface PortLike {
  postMessage(message: SecretRequest): void;
  addEventListener(type: 'message', listener: (e: { data: SecretResponse }) => void): void;
}

const METHODS: SecretCryptoMethod[] = [
  'prepareDevice',
  'registerDevice',
  'setDeviceId',
  'makeKeyPackages',
  'makeLastResort',
  'createGroup',
  'confirmGroup',
  'join',
  'epoch',
  'commit',
  'confirmCommit',
  'discardCommit',
  'applyLogItem',
  'leafUpdateDue',
  'resetGroup',
  'encrypt',
  'keepSent',
  'decrypt',
  'plaintexts',
  'forget',
  'fingerprint',
  'verification',
  'deviceNotices',
  'hold',
  'release',
  'callKey',
  'guestLinkSecret',
  'oweLeafUpdate',
  'indexMessage',
  'unindexMessage',
  'searchLocal',
  'clear',
  ...RECOVERY_METHODS,
  ...IDENTITY_METHODS,
];

/** The service over a port: each call posts a request with a fresh id and resolves with its response. */
export function secretCryptoOverPort(port: PortLike): SecretCrypto {
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  port.addEventListener('message', ({ data }) => {
    const w = waiting.get(data.id);
    if (!w) return;
    waiting.delete(data.id);
    if (data.ok) w.resolve(data.value);
    else w.reject(new SecretCryptoError(data.code, data.message));
  });
  const call =
    (method: SecretCryptoMethod) =>
    (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        port.postMessage({ id, method, args } as SecretRequest);
      });
  return Object.fromEntries(METHODS.map((m) => [m, call(m)])) as unknown as SecretCrypto;
}

/** The browser's service: one module worker for the whole page (crypto/worker-client.ts holds it). */
export function createWorkerSecretCrypto(): { crypto: SecretCrypto; terminate(): void } {
  const worker = new Worker(new URL('./crypto.worker.ts', import.meta.url), { type: 'module', name: 'beseda-secret' });
  return { crypto: secretCryptoOverPort(worker as unknown as PortLike), terminate: () => worker.terminate() };
}
