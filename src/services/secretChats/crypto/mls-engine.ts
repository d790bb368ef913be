// The MLS engine of secret chats (docs/secret-chats.md): pure async functions over ts-mls with ciphersuite 1
// (MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519). No I/O: the caller (the crypto worker) keeps what they return.
//
// Device identity: a device's long-term key is an Ed25519 signature key pair generated first, in the browser. Every
// key package and leaf of the device is signed with it and carries a basic credential whose identity is
// `userId:deviceId` (UTF-8). The server assigns the device id when the device registers, and registering already
// needs one key package: that single registration package names `userId:` (no device yet) and no adder accepts
// it (addDevices checks each claimed package's identity against the user and device the server says it belongs
// to), so the device uploads its real packages, naming its id, right after registering.
// Deep imports: ts-mls's index re-exports its noble provider, which needs @noble/hashes; the default provider
// (WebCrypto and @hpke/core) does all of ciphersuite 1.
import { type ClientConfig, defaultClientConfig } from 'ts-mls/clientConfig.js';
import { type ClientState, createGroup, decodeGroupState, encodeGroupState, joinGroup } from 'ts-mls/clientState.js';
import { createCommit } from 'ts-mls/createCommit.js';
import { createApplicationMessage } from 'ts-mls/createMessage.js';
import type { Credential } from 'ts-mls/credential.js';
import type { CiphersuiteImpl } from 'ts-mls/crypto/ciphersuite.js';
import { defaultCapabilities } from 'ts-mls/defaultCapabilities.js';
import { acceptAll } from 'ts-mls/incomingMessageAction.js';
import {
  generateKeyPackageWithKey,
  type KeyPackage,
  makeKeyPackageRef,
  type PrivateKeyPackage,
} from 'ts-mls/keyPackage.js';
import { mlsExporter } from 'ts-mls/keySchedule.js';
import { defaultLifetime } from 'ts-mls/lifetime.js';
import { decodeMlsMessage, encodeMlsMessage, type MLSMessage } from 'ts-mls/message.js';
import { decryptSenderData } from 'ts-mls/privateMessage.js';
import { processMessage } from 'ts-mls/processMessages.js';
import type { Proposal } from 'ts-mls/proposal.js';
import { emptyPskIndex } from 'ts-mls/pskIndex.js';
import { zeroOutUint8Array } from 'ts-mls/util/byteArray.js';
import { FAST_SUITE_NAME, fastCipherSuite } from './fast-suite';

export const CIPHERSUITE = FAST_SUITE_NAME;

let suite: Promise<CiphersuiteImpl> | null = null;
/** The ciphersuite's implementation (fast-suite.ts over WebCrypto and @hpke/core), made once. */
export function cipherSuite(): Promise<CiphersuiteImpl> {
  suite ??= fastCipherSuite();
  return suite;
}

/**
 * Key retention: a message can arrive after a later one of its sender (out of order) or after the commit that
 * ended its epoch (the log is ordered, messages are not). Keys of up to 32 skipped generations per sender are kept,
 * the receiving keys of the last 8 epochs too, and a sender may skip at most 1,000 generations ahead. Past those,
 * the message cannot be read (its plaintext is lost, not its ciphertext's integrity).
 */
export const KEY_RETENTION = { retainKeysForGenerations: 32, retainKeysForEpochs: 8, maximumForwardRatchetSteps: 1000 };

export class MlsEngineError extends Error {
  constructor(
    readonly code: 'stale' | 'gap' | 'notMember' | 'badMessage' | 'badIdentity' | 'noKeyPackage' | 'untrusted',
    message: string,
  ) {
    super(message);
    this.name = 'MlsEngineError';
  }
}

// The third part, when present, is the device's signature key signed by its person's identity key (base64url of 64
// bytes): crypto/identity.ts checks it.
const IDENTITY = /^([A-Za-z0-9_-]{1,64}):([A-Za-z0-9_-]{0,64})(?::([A-Za-z0-9_-]{86}))?$/;
export interface DeviceIdentity {
  userId: string;
  deviceId: string;
  /** base64url of the identity key's signature of the device's signature key. */
  signature?: string;
}
export const identityString = (userId: string, deviceId: string) => `${userId}:${deviceId}`;
export function parseIdentity(bytes: Uint8Array): DeviceIdentity | null {
  const m = IDENTITY.exec(new TextDecoder().decode(bytes));
  if (!m?.[1] || !m[2]) return null;
  return m[3] ? { userId: m[1], deviceId: m[2], signature: m[3] } : { userId: m[1], deviceId: m[2] };
}
const base64Url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Every leaf of a group must name a user and a device; a leaf that does not is refused on join and commit. */
export const clientConfig: ClientConfig = {
  ...defaultClientConfig,
  keyRetentionConfig: KEY_RETENTION,
  authService: {
    async validateCredential(credential: Credential) {
      return credential.credentialType === 'basic' && parseIdentity(credential.identity) !== null;
    },
  },
};

// --- base64 ---
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
export function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function decode(b64: string): MLSMessage {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(b64);
  } catch {
    throw new MlsEngineError('badMessage', 'Сообщение MLS повреждено');
  }
  const decoded = decodeMlsMessage(bytes, 0);
  if (!decoded) throw new MlsEngineError('badMessage', 'Сообщение MLS повреждено');
  return decoded[0];
}
const encode = (m: MLSMessage) => toBase64(encodeMlsMessage(m));

// --- devices and key packages ---

/** A device's long-term signature key pair (Ed25519), made before it registers. */
export interface DeviceKeys {
  userId: string;
  /** Null until the server registered the device. */
  deviceId: string | null;
  signaturePublicKey: Uint8Array;
  signaturePrivateKey: Uint8Array;
  /** The signature key signed by the person's identity key (crypto/identity.ts); its credential carries it. */
  identitySignature?: Uint8Array;
}

export async function createDeviceKeys(userId: string): Promise<DeviceKeys> {
  const cs = await cipherSuite();
  const { publicKey, signKey } = await cs.signature.keygen();
  return { userId, deviceId: null, signaturePublicKey: publicKey, signaturePrivateKey: signKey };
}

/** A key package: its public part as the server keeps it (base64 of the MLS message), its private keys here. */
export interface OwnKeyPackage {
  /** base64 of the encoded key package (what is uploaded and claimed). */
  publicPackage: string;
  /** base64 of its KeyPackageRef: a welcome names the package it is for by it. */
  ref: string;
  initPrivateKey: Uint8Array;
  hpkePrivateKey: Uint8Array;
  /** The device's last-resort package: the server may hand it out more than once, so a welcome never uses it up. */
  lastResort?: true;
}

/**
 * N one-time key packages of the device, signed with its key. Before the device has an id (registration) the
 * identity names `userId:` alone, and adders refuse such a package (see the top of this file).
 */
export async function generateKeyPackages(device: DeviceKeys, n: number): Promise<OwnKeyPackage[]> {
  const cs = await cipherSuite();
  const credential: Credential = {
    credentialType: 'basic',
    identity: new TextEncoder().encode(
      identityString(device.userId, device.deviceId ?? '') +
        (device.identitySignature ? `:${base64Url(device.identitySignature)}` : ''),
    ),
  };
  const out: OwnKeyPackage[] = [];
  for (let i = 0; i < n; i++) {
    const { publicPackage, privatePackage } = await generateKeyPackageWithKey(
      credential,
      defaultCapabilities(),
      defaultLifetime,
      [],
      { signKey: device.signaturePrivateKey, publicKey: device.signaturePublicKey },
      cs,
    );
    out.push({
      publicPackage: encode({ version: 'mls10', wireformat: 'mls_key_package', keyPackage: publicPackage }),
      ref: toBase64(await makeKeyPackageRef(publicPackage, cs.hash)),
      initPrivateKey: privatePackage.initPrivateKey,
      hpkePrivateKey: privatePackage.hpkePrivateKey,
    });
  }
  return out;
}

// A package decoded for the identity check is decoded once: the commit that adds it takes it from here.
const screened = new Map<string, KeyPackage>();

/** A claimed key package's leaf as crypto/identity.ts judges it; null when it is not a key package. */
export function leafOfPackage(b64: string): { identity: Uint8Array; signaturePublicKey: Uint8Array } | null {
  try {
    const kp = keyPackageOf(b64);
    screened.set(b64, kp);
    if (screened.size > 64) screened.delete(screened.keys().next().value as string);
    const cred = kp.leafNode.credential;
    return cred.credentialType === 'basic'
      ? { identity: cred.identity, signaturePublicKey: kp.leafNode.signaturePublicKey }
      : null;
  } catch {
    return null;
  }
}

function keyPackageOf(b64: string): KeyPackage {
  const known = screened.get(b64);
  if (known) {
    screened.delete(b64);
    return known;
  }
  const m = decode(b64);
  if (m.wireformat !== 'mls_key_package') throw new MlsEngineError('badMessage', 'Ожидался пакет ключей');
  return m.keyPackage;
}

const privateOf = (device: DeviceKeys, kp: OwnKeyPackage): PrivateKeyPackage => ({
  initPrivateKey: kp.initPrivateKey,
  hpkePrivateKey: kp.hpkePrivateKey,
  signaturePrivateKey: device.signaturePrivateKey,
});

/** A key package claimed from the server for a device of a user (ClaimedPackage in src/contract/secret.ts). */
export interface ClaimedKeyPackage {
  userId: string;
  deviceId: string;
  keyPackage: string;
}

/**
 * The Add proposals for claimed packages whose credential names exactly the user and device the server says they
 * belong to; the others are refused (a server handing out someone else's package, or a registration package).
 */
async function addProposals(claimed: ClaimedKeyPackage[]): Promise<{ proposals: Proposal[]; refused: string[] }> {
  const proposals: Proposal[] = [];
  const refused: string[] = [];
  const seen = new Set<string>();
  for (const c of claimed) {
    // One package per device: a second one for the same device would be a second leaf of one identity.
    if (seen.has(c.deviceId)) {
      refused.push(c.deviceId);
      continue;
    }
    seen.add(c.deviceId);
    let kp: KeyPackage;
    try {
      kp = keyPackageOf(c.keyPackage);
    } catch {
      refused.push(c.deviceId);
      continue;
    }
    const cred = kp.leafNode.credential;
    const who = cred.credentialType === 'basic' ? parseIdentity(cred.identity) : null;
    if (kp.cipherSuite !== CIPHERSUITE || !who || who.userId !== c.userId || who.deviceId !== c.deviceId) {
      refused.push(c.deviceId);
      continue;
    }
    proposals.push({ proposalType: 'add', add: { keyPackage: kp } });
  }
  return { proposals, refused };
}

// --- groups ---

export interface CommitOutput {
  state: ClientState;
  /** base64 of the commit (what POST /api/secret/commits carries). */
  commit: string;
  /** base64 of the welcome for the devices added, when any were. */
  welcome: string | null;
  /** Device ids whose claimed packages were refused (not added). */
  refused: string[];
  /**
   * Secrets of the old epoch the commit used: zero them (zeroOutUint8Array) once the commit is taken, not before,
   * since a refused commit leaves the old state in use.
   */
  consumed: Uint8Array[];
}

/**
 * A new group (epoch 0) with the creating device, and one commit adding every claimed device: the state at epoch 1,
 * and the welcome (with the ratchet tree in it) for the added devices. The commit itself goes to nobody.
 */
export async function createGroupWith(
  device: DeviceKeys,
  own: OwnKeyPackage,
  claimed: ClaimedKeyPackage[],
  groupId: Uint8Array = crypto.getRandomValues(new Uint8Array(32)),
): Promise<CommitOutput & { groupId: string }> {
  const cs = await cipherSuite();
  const state0 = await createGroup(
    groupId,
    keyPackageOf(own.publicPackage),
    privateOf(device, own),
    [],
    cs,
    clientConfig,
  );
  const out = await commitChanges(state0, claimed, []);
  forget(out.consumed);
  return { ...out, groupId: toBase64(groupId) };
}

/** Joins from a welcome with whichever of the device's key packages it is for; null when it is for none. */
export async function joinFromWelcome(
  device: DeviceKeys,
  packages: OwnKeyPackage[],
  welcomeB64: string,
): Promise<{ state: ClientState; used: string } | null> {
  const cs = await cipherSuite();
  const m = decode(welcomeB64);
  if (m.wireformat !== 'mls_welcome') throw new MlsEngineError('badMessage', 'Ожидалось приглашение MLS');
  const refs = new Set(m.welcome.secrets.map((s) => toBase64(s.newMember)));
  const kp = packages.find((p) => refs.has(p.ref));
  if (!kp) return null;
  const state = await joinGroup(
    m.welcome,
    keyPackageOf(kp.publicPackage),
    privateOf(device, kp),
    emptyPskIndex,
    cs,
    undefined,
    undefined,
    clientConfig,
  );
  return { state, used: kp.ref };
}

export const epochOf = (state: ClientState) => Number(state.groupContext.epoch);
export const groupIdOf = (state: ClientState) => toBase64(state.groupContext.groupId);

/** The members' identities by leaf index. */
export function members(
  state: ClientState,
): { leafIndex: number; identity: DeviceIdentity; signaturePublicKey: Uint8Array }[] {
  const out: { leafIndex: number; identity: DeviceIdentity; signaturePublicKey: Uint8Array }[] = [];
  state.ratchetTree.forEach((node, i) => {
    if (i % 2 !== 0 || node?.nodeType !== 'leaf') return;
    const cred = node.leaf.credential;
    const identity = cred.credentialType === 'basic' ? parseIdentity(cred.identity) : null;
    if (identity) out.push({ leafIndex: i / 2, identity, signaturePublicKey: node.leaf.signaturePublicKey });
  });
  return out;
}

/**
 * A commit adding claimed devices and removing devices by id (those not in the group are ignored). The new state
 * is the caller's to keep only once the server took the commit (else a 409: catch up and commit again).
 */
export async function commitChanges(
  state: ClientState,
  claimed: ClaimedKeyPackage[],
  removeDeviceIds: string[],
): Promise<CommitOutput> {
  const cs = await cipherSuite();
  const { proposals, refused } = await addProposals(claimed);
  const gone = new Set(removeDeviceIds);
  const own = state.privatePath.leafIndex;
  for (const m of members(state))
    if (gone.has(m.identity.deviceId) && m.leafIndex !== own)
      proposals.push({ proposalType: 'remove', remove: { removed: m.leafIndex } });
  const result = await createCommit(
    { state, cipherSuite: cs },
    { extraProposals: proposals, ratchetTreeExtension: true },
  );
  return {
    consumed: result.consumed,
    state: result.newState,
    commit: encode(result.commit),
    welcome: result.welcome ? encode({ version: 'mls10', wireformat: 'mls_welcome', welcome: result.welcome }) : null,
    refused,
  };
}

/**
 * Applies another device's commit, which must be of the group's current epoch: an older one is stale (already
 * superseded, MlsEngineError 'stale'), a newer one means a commit was missed ('gap').
 */
export async function processCommit(
  state: ClientState,
  commitB64: string,
): Promise<{ state: ClientState; removed: boolean }> {
  const cs = await cipherSuite();
  const m = decode(commitB64);
  if (m.wireformat !== 'mls_private_message' && m.wireformat !== 'mls_public_message')
    throw new MlsEngineError('badMessage', 'Ожидался коммит MLS');
  const epoch = m.wireformat === 'mls_private_message' ? m.privateMessage.epoch : m.publicMessage.content.epoch;
  if (epoch < state.groupContext.epoch) throw new MlsEngineError('stale', 'Коммит устарел: эпоха уже сменилась');
  if (epoch > state.groupContext.epoch) throw new MlsEngineError('gap', 'Пропущены коммиты группы');
  const result = await processMessage(m, state, emptyPskIndex, acceptAll, cs);
  if (result.kind !== 'newState') throw new MlsEngineError('badMessage', 'Ожидался коммит MLS');
  result.consumed.forEach(zeroOutUint8Array);
  return { state: result.newState, removed: result.newState.groupActiveState.kind === 'removedFromGroup' };
}

// --- application messages ---

/** Encrypts a payload in the current epoch: base64 ciphertext and the state with the used key deleted. */
export async function encryptMessage(
  state: ClientState,
  payload: Uint8Array,
): Promise<{ state: ClientState; ciphertext: string }> {
  const cs = await cipherSuite();
  if (state.groupActiveState.kind !== 'active') throw new MlsEngineError('notMember', 'Устройство больше не в группе');
  const r = await createApplicationMessage(state, payload, cs);
  r.consumed.forEach(zeroOutUint8Array);
  return {
    state: r.newState,
    ciphertext: encode({ version: 'mls10', wireformat: 'mls_private_message', privateMessage: r.privateMessage }),
  };
}

/**
 * Decrypts an application message once (its key is deleted after): the plaintext, its epoch and the sender's
 * identity, authenticated by MLS. Messages of a past epoch decrypt while that epoch's keys are retained.
 */
export async function decryptMessage(
  state: ClientState,
  ciphertextB64: string,
): Promise<{ state: ClientState; payload: Uint8Array; sender: DeviceIdentity; epoch: number }> {
  const cs = await cipherSuite();
  const m = decode(ciphertextB64);
  if (m.wireformat !== 'mls_private_message' || m.privateMessage.contentType !== 'application')
    throw new MlsEngineError('badMessage', 'Ожидалось зашифрованное сообщение');
  const pm = m.privateMessage;
  const past = pm.epoch < state.groupContext.epoch ? state.historicalReceiverData.get(pm.epoch) : undefined;
  if (pm.epoch < state.groupContext.epoch && !past) throw new MlsEngineError('stale', 'Ключи этой эпохи уже удалены');
  if (pm.epoch > state.groupContext.epoch) throw new MlsEngineError('gap', 'Сообщение из будущей эпохи: нужны коммиты');
  const result = await processMessage(m, state, emptyPskIndex, acceptAll, cs);
  if (result.kind !== 'applicationMessage') throw new MlsEngineError('badMessage', 'Ожидалось зашифрованное сообщение');
  result.consumed.forEach(zeroOutUint8Array);
  // The sender's leaf, from the sender data (authenticated by the processing above) in that epoch's tree.
  const senderData = await decryptSenderData(pm, past?.senderDataSecret ?? state.keySchedule.senderDataSecret, cs);
  const tree = past?.ratchetTree ?? state.ratchetTree;
  const leaf = senderData ? tree[senderData.leafIndex * 2] : undefined;
  const cred = leaf?.nodeType === 'leaf' ? leaf.leaf.credential : undefined;
  const sender = cred?.credentialType === 'basic' ? parseIdentity(cred.identity) : null;
  if (!sender) throw new MlsEngineError('badIdentity', 'Отправитель не назван в группе');
  return { state: result.newState, payload: result.message, sender, epoch: Number(pm.epoch) };
}

/** Zeroes secrets no longer needed (best effort: JavaScript may hold copies). */
export const forget = (secrets: Uint8Array[]) => secrets.forEach(zeroOutUint8Array);

// --- state ---

export const encodeState = (state: ClientState): Uint8Array => encodeGroupState(state);
export function decodeState(bytes: Uint8Array): ClientState {
  const d = decodeGroupState(bytes, 0);
  if (!d) throw new MlsEngineError('badMessage', 'Состояние группы повреждено');
  return { ...d[0], clientConfig };
}

// --- exports: verification fingerprint and call key ---

/** 64 emoji, one per 6 bits; distinct at a glance and in every common font (animals, plants, food, objects). */
export const FINGERPRINT_EMOJI = [
  '🐶',
  '🐱',
  '🦊',
  '🐻',
  '🐼',
  '🐨',
  '🐯',
  '🦁',
  '🐮',
  '🐷',
  '🐸',
  '🐵',
  '🐔',
  '🐧',
  '🐦',
  '🦆',
  '🦉',
  '🐴',
  '🦄',
  '🐝',
  '🐛',
  '🦋',
  '🐌',
  '🐞',
  '🐢',
  '🐍',
  '🐙',
  '🦀',
  '🐬',
  '🐳',
  '🐘',
  '🦒',
  '🌵',
  '🌲',
  '🌴',
  '🍀',
  '🍁',
  '🍄',
  '🌻',
  '🌹',
  '🍎',
  '🍋',
  '🍌',
  '🍉',
  '🍇',
  '🍓',
  '🍒',
  '🥕',
  '🌽',
  '🍞',
  '🧀',
  '🍕',
  '🎂',
  '☕',
  '⚽',
  '🎸',
  '🚲',
  '🚀',
  '⛵',
  '⏰',
  '🔑',
  '📚',
  '🎈',
  '⭐',
] as const;

export interface Fingerprint {
  /** 12 groups of 5 digits. */
  digits: string[];
  /** 8 emoji from FINGERPRINT_EMOJI. */
  emoji: string[];
}

/**
 * What the members compare to verify each other: a digest of the group id and every member's identity and
 * signature key, sorted. The same on every device of the group, whatever its epoch, while the membership (and the
 * members' keys) stays; any added, removed or replaced device changes it.
 */
export function fingerprint(state: ClientState): Promise<Fingerprint> {
  return fingerprintOf(
    groupIdOf(state),
    members(state).map((m) => ({ ...m.identity, signaturePublicKey: m.signaturePublicKey })),
  );
}

/** The fingerprint of a group id (base64) and its members' identities and signature keys, in any order. */
export async function fingerprintOf(
  groupId: string,
  leaves: { userId: string; deviceId: string; signaturePublicKey: Uint8Array }[],
): Promise<Fingerprint> {
  const enc = new TextEncoder();
  const entries = leaves.map((m) => `${identityString(m.userId, m.deviceId)}=${toBase64(m.signaturePublicKey)}`).sort();
  const input = enc.encode(`beseda fingerprint v1\n${groupId}\n${entries.join('\n')}`);
  const h1 = new Uint8Array(await crypto.subtle.digest('SHA-512', input));
  const digits: string[] = [];
  for (let g = 0; g < 12; g++) {
    let n = 0;
    for (let b = 0; b < 5; b++) n = n * 256 + (h1[g * 5 + b] ?? 0);
    digits.push(String(n % 100000).padStart(5, '0'));
  }
  const h2 = new Uint8Array(await crypto.subtle.digest('SHA-256', h1));
  const emoji: string[] = [];
  for (let i = 0; i < 8; i++) {
    // 6 bits each from the first 48 bits of h2.
    const bit = i * 6;
    const word = ((h2[bit >> 3] ?? 0) << 8) | (h2[(bit >> 3) + 1] ?? 0);
    emoji.push(FINGERPRINT_EMOJI[(word >> (10 - (bit & 7))) & 63] as string);
  }
  return { digits, emoji };
}

/** A 32-byte key for the group's call in this epoch (MLS exporter, label "beseda call", context = epoch, 8 bytes). */
export async function callKey(state: ClientState): Promise<Uint8Array> {
  const cs = await cipherSuite();
  const context = new Uint8Array(8);
  new DataView(context.buffer).setBigUint64(0, state.groupContext.epoch);
  return mlsExporter(state.keySchedule.exporterSecret, 'beseda call', context, 32, cs);
}

/**
 * A guest link's secret (docs/secret-chats.md "Guests in encrypted calls"): MLS exporter, label "beseda guest link",
 * context = the link's code (UTF-8) then the epoch (8 bytes). Every device of the group in this epoch derives it; the
 * guest gets it in the link's fragment. Independent of the call key (another label): a guest holding a call key
 * cannot derive a link's secret from it.
 */
export async function guestLinkSecret(state: ClientState, code: string): Promise<Uint8Array> {
  const cs = await cipherSuite();
  const codeBytes = new TextEncoder().encode(code);
  const context = new Uint8Array(codeBytes.length + 8);
  context.set(codeBytes);
  new DataView(context.buffer).setBigUint64(codeBytes.length, state.groupContext.epoch);
  return mlsExporter(state.keySchedule.exporterSecret, 'beseda guest link', context, 32, cs);
}
