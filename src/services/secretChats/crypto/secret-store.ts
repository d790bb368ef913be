// What a device keeps of secret chats (docs/secret-chats.md, "Key storage"), per signed-in user, in
// IndexedDB: the device record (its id, signature key pair, private key packages not yet used), each group's
// encoded MLS state, and the plaintext of every secret message (a ciphertext decrypts only once). Every record is
// encrypted with AES-GCM under a key made in the browser as non-extractable (a CryptoKey object stored in
// IndexedDB itself), with the record's place (store and key) as additional data, so records cannot be swapped.
// clear(userId) removes all of it (sign-out).
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Envelope } from './envelope';
import type { SecretActions } from './secret-actions';
import { type DeviceKeys, fromBase64, type OwnKeyPackage, toBase64 } from './mls-engine';
import type { DeviceNotice } from './verification';

/** A message this device sent while `waitFor` members had no device: sent again once their device joins. */
export interface HeldMessage {
  messageId: string;
  waitFor: string[];
}

export interface DeviceRecord extends DeviceKeys {
  keyPackages: OwnKeyPackage[];
}

/** A secret message as this device read (or wrote) it. */
export interface PlaintextRecord {
  messageId: string;
  conversationId: string;
  senderUserId: string;
  senderDeviceId: string;
  epoch: number;
  envelope: Envelope;
  /** The edits and reactions applied to it (secret-actions.ts). */
  actions?: SecretActions;
}

/** Small sealed records of a person: the identity key, the pins, which identity key the backup holds. */
export type SealedName = 'identity' | 'pins' | 'backupIdentity';

/** When this device's own leaf was last refreshed (leaf-updates.ts). */
export interface LeafRecord {
  /** When this device's leaf was last made fresh (joined, or a path committed), in ms. */
  at: number;
  /** A path is owed at once (a device was removed, or this device's add-only commit refreshed nothing). */
  owed: boolean;
}

export interface SecretStore {
  loadDevice(userId: string): Promise<DeviceRecord | null>;
  saveDevice(device: DeviceRecord): Promise<void>;
  loadGroup(userId: string, conversationId: string): Promise<Uint8Array | null>;
  saveGroup(userId: string, conversationId: string, state: Uint8Array): Promise<void>;
  deleteGroup(userId: string, conversationId: string): Promise<void>;
  groupIds(userId: string): Promise<string[]>;
  savePlaintext(userId: string, record: PlaintextRecord): Promise<void>;
  loadPlaintext(userId: string, conversationId: string, messageId: string): Promise<PlaintextRecord | null>;
  /** A conversation's kept plaintexts, by message id. */
  loadPlaintexts(userId: string, conversationId: string): Promise<PlaintextRecord[]>;
  /** A deleted message's plaintext (and any edits or reactions waiting for it) goes. */
  deletePlaintext(userId: string, conversationId: string, messageId: string): Promise<void>;
  /** When this device last made its leaf of the group fresh, and whether an update is owed (leaf-updates.ts). */
  loadLeaf(userId: string, conversationId: string): Promise<LeafRecord | null>;
  saveLeaf(userId: string, conversationId: string, leaf: LeafRecord): Promise<void>;
  /** The server's id of the text a version-2 envelope's sender-chosen `id` belongs to (kept with its plaintext). */
  messageIdOf(userId: string, conversationId: string, id: string): Promise<string | null>;
  /** Edits and reactions read before the message they name: applied when it is read. */
  loadPending(userId: string, conversationId: string, targetId: string): Promise<PlaintextRecord[]>;
  savePending(userId: string, conversationId: string, targetId: string, controls: PlaintextRecord[]): Promise<void>;
  /** A conversation's «новое устройство» notices (crypto/verification.ts), in the order they were kept. */
  loadNotices(userId: string, conversationId: string): Promise<DeviceNotice[]>;
  /** A sealed JSON record of the user beside the device (`devices/[userId, name]`): identity keys and pins. */
  loadSealed<T>(userId: string, name: SealedName): Promise<T | null>;
  saveSealed(userId: string, name: SealedName, value: unknown): Promise<void>;
  saveNotices(userId: string, conversationId: string, notices: DeviceNotice[]): Promise<void>;
  /** Messages sent while some members had no device: by message id, whom each still waits for. */
  loadHeld(userId: string, conversationId: string): Promise<HeldMessage[]>;
  saveHeld(userId: string, conversationId: string, held: HeldMessage[]): Promise<void>;
  /** The user's at-rest AES-GCM key (non-extractable): the local search index seals its records with it. */
  atRestKey(userId: string): Promise<CryptoKey>;
  /** The user's HMAC-SHA-256 key (non-extractable, kept beside the at-rest key) naming the search index's records. */
  searchKey(userId: string): Promise<CryptoKey>;
  clear(userId: string): Promise<void>;
  /** The recovery key this device backs up with (crypto/recovery-core.ts), kept as a non-extractable CryptoKey. */
  loadRecovery(userId: string): Promise<{ key: CryptoKey; version: number } | null>;
  saveRecovery(userId: string, recovery: { key: CryptoKey; version: number }): Promise<void>;
  /** Plaintexts kept and not yet in the backup, as [conversationId, messageId]. */
  loadBackupQueue(userId: string): Promise<[string, string][]>;
  saveBackupQueue(userId: string, queue: [string, string][]): Promise<void>;
  /** The recovery key and the queue. */
  deleteRecovery(userId: string): Promise<void>;
}

// --- the IndexedDB behind a small interface (node tests give fake-indexeddb's globals to the same code) ---

export type StoreName = 'keys' | 'devices' | 'groups' | 'plaintexts' | 'pending';
/** Keys are arrays starting with the user id, so one range holds all of a user's records. */
export type RecordKey = string[];
export interface Sealed {
  iv: Uint8Array;
  data: Uint8Array;
}
export interface KeyValueBackend {
  get(store: StoreName, key: RecordKey): Promise<unknown>;
  put(store: StoreName, key: RecordKey, value: unknown): Promise<void>;
  delete(store: StoreName, key: RecordKey): Promise<void>;
  /** Keys and values whose key starts with `prefix`. */
  list(store: StoreName, prefix: RecordKey): Promise<{ key: RecordKey; value: unknown }[]>;
  deletePrefix(store: StoreName, prefix: RecordKey): Promise<void>;
}

interface SecretSchema extends DBSchema {
  keys: { key: RecordKey; value: CryptoKey };
  devices: { key: RecordKey; value: Sealed };
  groups: { key: RecordKey; value: Sealed };
  plaintexts: { key: RecordKey; value: Sealed };
  pending: { key: RecordKey; value: Sealed };
}

const DB_NAME = 'beseda-secret';
// Array keys sort after every string, so [...prefix, []] is above every key extending prefix with strings.
const range = (prefix: RecordKey) => IDBKeyRange.bound(prefix, [...prefix, []]);

/** IndexedDB through idb (the browser's, or fake-indexeddb's in node tests). */
export function indexedDbBackend(name = DB_NAME): KeyValueBackend {
  let db: Promise<IDBPDatabase<SecretSchema>> | null = null;
  const open = () => {
    // Version 2 added 'pending' (edits and reactions waiting for their message).
    db ??= openDB<SecretSchema>(name, 2, {
      upgrade(d) {
        for (const s of ['keys', 'devices', 'groups', 'plaintexts', 'pending'] as const)
          if (!d.objectStoreNames.contains(s)) d.createObjectStore(s);
      },
    });
    return db;
  };
  return {
    async get(store, key) {
      return (await open()).get(store, key);
    },
    async put(store, key, value) {
      await (await open()).put(store, value as never, key);
    },
    async delete(store, key) {
      await (await open()).delete(store, key);
    },
    async list(store, prefix) {
      const d = await open();
      const tx = d.transaction(store);
      const out: { key: RecordKey; value: unknown }[] = [];
      for await (const c of tx.store.iterate(range(prefix))) out.push({ key: c.key as RecordKey, value: c.value });
      return out;
    },
    async deletePrefix(store, prefix) {
      await (await open()).delete(store, range(prefix));
    },
  };
}

// --- sealing ---

const enc = new TextEncoder();
const dec = new TextDecoder();
const aad = (store: StoreName, key: RecordKey) => enc.encode(JSON.stringify([store, ...key]));
const bytes = (b: Uint8Array) => new Uint8Array(b);
/** The third part of the key of a group's notices in the `groups` store (no new store: no schema upgrade). */
const NOTICES = 'notices';
const HELD = 'held';
/** Beside the pending controls: a text's server id by its sender-chosen id. */
const ID_OF = 'id';
const LEAF = 'leaf';

export function createSecretStore(backend: KeyValueBackend = indexedDbBackend()): SecretStore {
  const keys = new Map<string, Promise<CryptoKey>>();
  /** The user's at-rest key: made once, non-extractable, kept as a CryptoKey object. */
  function keyOf(userId: string): Promise<CryptoKey> {
    let k = keys.get(userId);
    if (!k) {
      k = (async () => {
        const stored = await backend.get('keys', [userId]);
        if (stored) return stored as CryptoKey;
        const made = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
        await backend.put('keys', [userId], made);
        return made;
      })();
      keys.set(userId, k);
      k.catch(() => keys.delete(userId));
    }
    return k;
  }
  async function seal(store: StoreName, key: RecordKey, plain: Uint8Array): Promise<void> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: aad(store, key) },
        await keyOf(key[0] as string),
        bytes(plain),
      ),
    );
    await backend.put(store, key, { iv, data } satisfies Sealed);
  }
  async function open(store: StoreName, key: RecordKey, value: unknown): Promise<Uint8Array | null> {
    if (!value) return null;
    const { iv, data } = value as Sealed;
    return new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes(iv), additionalData: aad(store, key) },
        await keyOf(key[0] as string),
        bytes(data),
      ),
    );
  }
  const searchKeys = new Map<string, Promise<CryptoKey>>();
  function searchKeyOf(userId: string): Promise<CryptoKey> {
    let k = searchKeys.get(userId);
    if (!k) {
      k = (async () => {
        // Under the user's prefix of `keys`, so clear(userId) deletes it with the rest.
        const stored = await backend.get('keys', [userId, 'search']);
        if (stored) return stored as CryptoKey;
        const made = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
        await backend.put('keys', [userId, 'search'], made);
        return made;
      })();
      searchKeys.set(userId, k);
      k.catch(() => searchKeys.delete(userId));
    }
    return k;
  }
  const sealJson = (store: StoreName, key: RecordKey, v: unknown) => seal(store, key, enc.encode(JSON.stringify(v)));
  async function openJson<T>(store: StoreName, key: RecordKey): Promise<T | null> {
    const plain = await open(store, key, await backend.get(store, key));
    return plain ? (JSON.parse(dec.decode(plain)) as T) : null;
  }

  type StoredDevice = Omit<
    DeviceRecord,
    'signaturePublicKey' | 'signaturePrivateKey' | 'keyPackages' | 'identitySignature'
  > & {
    signaturePublicKey: string;
    signaturePrivateKey: string;
    identitySignature?: string;
    keyPackages: {
      publicPackage: string;
      ref: string;
      initPrivateKey: string;
      hpkePrivateKey: string;
      lastResort?: true;
    }[];
  };

  return {
    async loadDevice(userId) {
      const stored = await openJson<StoredDevice>('devices', [userId]);
      if (!stored) return null;
      const { identitySignature, ...d } = stored;
      return {
        ...d,
        signaturePublicKey: fromBase64(d.signaturePublicKey),
        signaturePrivateKey: fromBase64(d.signaturePrivateKey),
        ...(identitySignature ? { identitySignature: fromBase64(identitySignature) } : {}),
        keyPackages: d.keyPackages.map((k) => ({
          ...k,
          initPrivateKey: fromBase64(k.initPrivateKey),
          hpkePrivateKey: fromBase64(k.hpkePrivateKey),
        })),
      };
    },
    async saveDevice(device) {
      const stored: StoredDevice = {
        userId: device.userId,
        deviceId: device.deviceId,
        signaturePublicKey: toBase64(device.signaturePublicKey),
        signaturePrivateKey: toBase64(device.signaturePrivateKey),
        ...(device.identitySignature ? { identitySignature: toBase64(device.identitySignature) } : {}),
        keyPackages: device.keyPackages.map((k) => ({
          publicPackage: k.publicPackage,
          ref: k.ref,
          initPrivateKey: toBase64(k.initPrivateKey),
          hpkePrivateKey: toBase64(k.hpkePrivateKey),
          ...(k.lastResort ? { lastResort: true as const } : {}),
        })),
      };
      await sealJson('devices', [device.userId], stored);
    },
    async loadGroup(userId, conversationId) {
      const key = [userId, conversationId];
      return open('groups', key, await backend.get('groups', key));
    },
    saveGroup: (userId, conversationId, state) => seal('groups', [userId, conversationId], state),
    deleteGroup: (userId, conversationId) => backend.delete('groups', [userId, conversationId]),
    async groupIds(userId) {
      // A group's notices sit beside its state, under a longer key.
      return (await backend.list('groups', [userId])).filter((r) => r.key.length === 2).map((r) => r.key[1] as string);
    },
    async savePlaintext(userId, r) {
      await sealJson('plaintexts', [userId, r.conversationId, r.messageId], r);
      // A text is found by its sender-chosen id too (the ids edits, reactions and replies name).
      if (r.envelope.id && r.envelope.kind === 'text')
        await sealJson('pending', [userId, r.conversationId, ID_OF, r.envelope.id], r.messageId);
    },
    messageIdOf: (userId, conversationId, id) => openJson<string>('pending', [userId, conversationId, ID_OF, id]),
    loadPlaintext: (userId, conversationId, messageId) =>
      openJson<PlaintextRecord>('plaintexts', [userId, conversationId, messageId]),
    async loadPlaintexts(userId, conversationId) {
      const out: PlaintextRecord[] = [];
      for (const r of await backend.list('plaintexts', [userId, conversationId])) {
        const plain = await open('plaintexts', r.key, r.value);
        if (plain) out.push(JSON.parse(dec.decode(plain)) as PlaintextRecord);
      }
      return out;
    },
    async deletePlaintext(userId, conversationId, messageId) {
      const kept = await openJson<PlaintextRecord>('plaintexts', [userId, conversationId, messageId]);
      if (kept?.envelope.id && kept.envelope.kind === 'text')
        await backend.delete('pending', [userId, conversationId, ID_OF, kept.envelope.id]);
      await backend.delete('plaintexts', [userId, conversationId, messageId]);
      await backend.delete('pending', [userId, conversationId, messageId]);
    },
    async loadPending(userId, conversationId, targetId) {
      return (await openJson<PlaintextRecord[]>('pending', [userId, conversationId, targetId])) ?? [];
    },
    async savePending(userId, conversationId, targetId, controls) {
      const key = [userId, conversationId, targetId];
      if (controls.length === 0) await backend.delete('pending', key);
      else await sealJson('pending', key, controls);
    },
    async loadRecovery(userId) {
      return ((await backend.get('keys', [userId, 'recovery'])) as { key: CryptoKey; version: number }) ?? null;
    },
    saveRecovery: (userId, recovery) => backend.put('keys', [userId, 'recovery'], recovery),
    async loadBackupQueue(userId) {
      return (await openJson<[string, string][]>('devices', [userId, 'backup'])) ?? [];
    },
    saveBackupQueue: (userId, queue) => sealJson('devices', [userId, 'backup'], queue),
    async deleteRecovery(userId) {
      await backend.delete('keys', [userId, 'recovery']);
      await backend.delete('devices', [userId, 'backup']);
    },
    async loadNotices(userId, conversationId) {
      return (await openJson<DeviceNotice[]>('groups', [userId, conversationId, NOTICES])) ?? [];
    },
    saveNotices: (userId, conversationId, notices) => sealJson('groups', [userId, conversationId, NOTICES], notices),
    loadLeaf: (userId, conversationId) => openJson<LeafRecord>('groups', [userId, conversationId, LEAF]),
    saveLeaf: (userId, conversationId, leaf) => sealJson('groups', [userId, conversationId, LEAF], leaf),
    async loadHeld(userId, conversationId) {
      return (await openJson<HeldMessage[]>('groups', [userId, conversationId, HELD])) ?? [];
    },
    saveHeld: (userId, conversationId, held) => sealJson('groups', [userId, conversationId, HELD], held),
    loadSealed: (userId, name) => openJson('devices', [userId, name]),
    saveSealed: (userId, name, value) => sealJson('devices', [userId, name], value),
    atRestKey: (userId) => keyOf(userId),
    searchKey: (userId) => searchKeyOf(userId),
    async clear(userId) {
      for (const s of ['devices', 'groups', 'plaintexts', 'pending', 'keys'] as const)
        await backend.deletePrefix(s, [userId]);
      keys.delete(userId);
      searchKeys.delete(userId);
    },
  };
}
