// Identity keys of secret chats (docs/secret-chats.md "Identity keys"): pure functions over the ciphersuite, run in
// the crypto worker. Each person has one Ed25519 identity key; it signs each of their devices' signature keys
// (`deviceStatement`), and the signature travels in the device's MLS credential: `userId:deviceId:signature`
// (base64url). A device knows the identity key of each person it met (pinned the first time, TOFU) and admits a
// leaf — from a claimed key package, a welcome's tree or a commit — only when that key signed it, when its person
// is a member of the chat, and when no other leaf has its identity or its key.
import type { ClientState } from 'ts-mls/clientState.js';
import { deviceStatement } from '../../../contract/identity-statement';
import { cipherSuite, fromBase64, members, MlsEngineError, parseIdentity, toBase64 } from './mls-engine';

export const toBase64Url = (bytes: Uint8Array) =>
  toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
export const fromBase64Url = (text: string) => {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return fromBase64(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
};

/** A person's identity key pair (the private part only on their own devices). */
export interface IdentityKeys {
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

export async function createIdentityKeys(): Promise<IdentityKeys> {
  const cs = await cipherSuite();
  const { publicKey, signKey } = await cs.signature.keygen();
  return { publicKey, privateKey: signKey };
}

/** The identity key's signature of a device's signature key: what registration and the credential carry. */
export async function signDevice(
  identity: IdentityKeys,
  userId: string,
  signaturePublicKey: Uint8Array,
): Promise<Uint8Array> {
  const cs = await cipherSuite();
  return cs.signature.sign(
    identity.privateKey,
    new TextEncoder().encode(deviceStatement(userId, toBase64(signaturePublicKey))),
  );
}

export async function verifyDevice(
  identityPublicKey: Uint8Array,
  userId: string,
  signaturePublicKey: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  const cs = await cipherSuite();
  try {
    return await cs.signature.verify(
      identityPublicKey,
      new TextEncoder().encode(deviceStatement(userId, toBase64(signaturePublicKey))),
      signature,
    );
  } catch {
    return false;
  }
}

/** What a device trusts when it judges a leaf: the identity key it pinned per person, and the chat's members. */
export interface Trust {
  identities: ReadonlyMap<string, Uint8Array>;
  /** The chat's members as the server lists them; absent for a group this device creates (its own choice). */
  memberIds?: ReadonlySet<string>;
}

/** Why a leaf is refused. */
export type LeafProblem = 'unsigned' | 'stranger' | 'duplicate' | 'otherGroup';

/** One leaf as the checks see it. */
export interface LeafSeen {
  identity: Uint8Array;
  signaturePublicKey: Uint8Array;
}

/** Whether one leaf's credential is signed by the identity key pinned for its person, and its person a member. */
export async function leafProblem(leaf: LeafSeen, trust: Trust): Promise<LeafProblem | null> {
  const who = parseIdentity(leaf.identity);
  if (!who) return 'unsigned';
  if (trust.memberIds && !trust.memberIds.has(who.userId)) return 'stranger';
  const pinned = trust.identities.get(who.userId);
  if (!pinned || !who.signature) return 'unsigned';
  let signature: Uint8Array;
  try {
    signature = fromBase64Url(who.signature);
  } catch {
    return 'unsigned';
  }
  return (await verifyDevice(pinned, who.userId, leaf.signaturePublicKey, signature)) ? null : 'unsigned';
}

/** A refused leaf: its person and device as its credential names them (or none), and why. */
export interface RefusedLeaf {
  userId: string;
  deviceId: string;
  problem: LeafProblem;
}

/** Leaves are refused: what the device shows in the chat is in `refused`. */
export class UntrustedLeafError extends MlsEngineError {
  constructor(readonly refused: RefusedLeaf[]) {
    super('untrusted', 'Неподтверждённое устройство не добавлено');
    this.name = 'UntrustedLeafError';
  }
}

const named = (leaf: LeafSeen) => parseIdentity(leaf.identity) ?? { userId: '', deviceId: '' };
const keyOf = (leaf: LeafSeen) => toBase64(leaf.signaturePublicKey);
// One decoder for every leaf: a group's 50 leaves are compared on each added device.
const decoder = new TextDecoder();
/** `userId:deviceId` of a leaf's credential (its signature left out). */
const idOf = (leaf: LeafSeen) => {
  const [userId = '', deviceId = ''] = decoder.decode(leaf.identity).split(':', 2);
  return `${userId}:${deviceId}`;
};

/**
 * The leaves among `fresh` that may not join a group already holding `existing`: not signed by their person's
 * pinned identity key, of a person who is not a member, or with the identity (user and device) or the signature key
 * of another leaf.
 */
export async function refusedLeaves(fresh: LeafSeen[], existing: LeafSeen[], trust: Trust): Promise<RefusedLeaf[]> {
  const ids = new Set(existing.map(idOf));
  const keys = new Set(existing.map(keyOf));
  const out: RefusedLeaf[] = [];
  for (const leaf of fresh) {
    const n = named(leaf);
    const problem = ids.has(idOf(leaf)) || keys.has(keyOf(leaf)) ? 'duplicate' : await leafProblem(leaf, trust);
    ids.add(idOf(leaf));
    keys.add(keyOf(leaf));
    if (problem) out.push({ userId: n.userId, deviceId: n.deviceId, problem });
  }
  return out;
}

/** The leaves of a group's tree. */
export const leavesOf = (state: ClientState): LeafSeen[] =>
  state.ratchetTree.flatMap((node, i) =>
    i % 2 === 0 && node?.nodeType === 'leaf'
      ? [{ identity: credentialBytes(node.leaf.credential), signaturePublicKey: node.leaf.signaturePublicKey }]
      : [],
  );
const credentialBytes = (c: { credentialType: string; identity?: Uint8Array }) =>
  c.credentialType === 'basic' && c.identity ? c.identity : new Uint8Array();

/** Every leaf of a tree just joined, judged against the others: a welcome whose tree holds one is refused. */
export async function checkJoined(state: ClientState, trust: Trust): Promise<void> {
  const refused = await refusedLeaves(leavesOf(state), [], trust);
  if (refused.length > 0) throw new UntrustedLeafError(refused);
}

/** The leaves a commit brought (new keys, or new places) checked against those that stayed. */
export async function checkCommitted(before: ClientState, after: ClientState, trust: Trust): Promise<void> {
  const had = new Set(leavesOf(before).map((l) => `${idOf(l)}=${keyOf(l)}`));
  const all = leavesOf(after);
  const fresh = all.filter((l) => !had.has(`${idOf(l)}=${keyOf(l)}`));
  const kept = all.filter((l) => had.has(`${idOf(l)}=${keyOf(l)}`));
  const refused = await refusedLeaves(fresh, kept, trust);
  if (refused.length > 0) throw new UntrustedLeafError(refused);
}

/** Why a send pauses (docs/behaviour.md §10.35). */
export const IDENTITY_CHANGED =
  'Ключ личности собеседника сменился: откройте «Проверить шифрование» и примите новый ключ, чтобы писать дальше';

/** The user ids of a group's members (the people whose identity keys its checks need). */
export const peopleOf = (state: ClientState) => [...new Set(members(state).map((m) => m.identity.userId))];

// --- safety numbers ---

/**
 * The safety number of two people: SHA-512 over both identity keys (each with its person's id), sorted so both
 * sides compute the same, as 12 groups of 5 digits. It depends on the two identity keys alone: a new device of either
 * person leaves it as it was; a reset identity changes it.
 */
export async function safetyNumber(
  a: { userId: string; publicKey: Uint8Array },
  b: { userId: string; publicKey: Uint8Array },
): Promise<string[]> {
  const entries = [a, b].map((p) => `${p.userId}=${toBase64(p.publicKey)}`).sort();
  const input = new TextEncoder().encode(`beseda safety number v1\n${entries.join('\n')}`);
  const h = new Uint8Array(await crypto.subtle.digest('SHA-512', input));
  const digits: string[] = [];
  for (let g = 0; g < 12; g++) {
    let n = 0;
    for (let i = 0; i < 5; i++) n = n * 256 + (h[g * 5 + i] ?? 0);
    digits.push(String(n % 100000).padStart(5, '0'));
  }
  return digits;
}

// --- approving a new device: the identity key sealed to it ---

/** A short code both devices show: the same on both only when the request reached the old device unchanged. */
export async function approvalCode(deviceKey: string, exchangeKey: string): Promise<string> {
  const h = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`beseda approval v1\n${deviceKey}\n${exchangeKey}`)),
  );
  const n = (((h[0] ?? 0) << 16) | ((h[1] ?? 0) << 8) | (h[2] ?? 0)) % 1_000_000;
  return String(n).padStart(6, '0');
}

const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;
const buf = (b: Uint8Array) => new Uint8Array(b).buffer as ArrayBuffer;

/** The new device's ECDH key pair (its private part non-extractable): the public part goes in the request. */
export async function createExchangeKeys(): Promise<{ privateKey: CryptoKey; publicKey: Uint8Array }> {
  const pair = (await crypto.subtle.generateKey(ECDH, false, ['deriveBits'])) as CryptoKeyPair;
  return {
    privateKey: pair.privateKey,
    publicKey: new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)),
  };
}

async function aesKey(privateKey: CryptoKey, publicRaw: Uint8Array, usage: KeyUsage): Promise<CryptoKey> {
  const peer = await crypto.subtle.importKey('raw', buf(publicRaw), ECDH, false, []);
  const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: peer }, privateKey, 256);
  const hkdf = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(32),
      info: new TextEncoder().encode('beseda approval seal v1'),
    },
    hkdf,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  );
}

/**
 * The identity private key sealed to the new device's exchange key (ECDH P-256 with a fresh key, HKDF-SHA-256,
 * AES-256-GCM with the new device's key as additional data): base64 of ephemeral key (65) | IV (12) | ciphertext.
 */
export async function sealIdentity(
  identity: IdentityKeys,
  exchangeKey: Uint8Array,
  deviceKey: string,
): Promise<string> {
  const eph = (await crypto.subtle.generateKey(ECDH, false, ['deriveBits'])) as CryptoKeyPair;
  const key = await aesKey(eph.privateKey, exchangeKey, 'encrypt');
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(deviceKey) },
      key,
      buf(identity.privateKey),
    ),
  );
  const ephRaw = new Uint8Array(await crypto.subtle.exportKey('raw', eph.publicKey));
  const out = new Uint8Array(ephRaw.length + iv.length + sealed.length);
  out.set(ephRaw, 0);
  out.set(iv, ephRaw.length);
  out.set(sealed, ephRaw.length + iv.length);
  return toBase64(out);
}

/** Opens a sealed identity key with the new device's exchange key; null when it does not open. */
export async function openIdentity(
  sealed: string,
  privateKey: CryptoKey,
  deviceKey: string,
): Promise<Uint8Array | null> {
  try {
    const bytes = fromBase64(sealed);
    const key = await aesKey(privateKey, new Uint8Array(bytes.subarray(0, 65)), 'decrypt');
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: buf(bytes.subarray(65, 77)), additionalData: new TextEncoder().encode(deviceKey) },
      key,
      buf(bytes.subarray(77)),
    );
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}
