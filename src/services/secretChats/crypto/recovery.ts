// The recovery key (docs/secret-chats.md "The recovery key"): a phrase made in the browser, 32 characters of
// Crockford's base32 in eight groups of four (160 bits from the CSPRNG), from which PBKDF2-SHA256 derives an
// AES-256-GCM key that is never extractable. The key encrypts the backup's chunks and a fixed check text, so a wrong
// phrase is refused before anything is read or written. Runs in the crypto worker.
import { WRONG_RECOVERY_KEY } from '../../../machines/secretChats/secretRecovery/secretRecovery.protocol';
import { parseEnvelope } from './envelope';
import { fromBase64, toBase64 } from './mls-engine';
import { LIMITS } from '../../../contract/limits';
import type { SecretActions } from './secret-actions';
import type { PlaintextRecord } from './secret-store';

/** Crockford's base32: no I, L, O or U, so a phrase copied by hand reads back the same. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const PHRASE_GROUPS = 8;
const GROUP = 4;
/** OWASP's count for PBKDF2-SHA256; the server keeps it with the salt, so it can grow for new keys. */
export const RECOVERY_ITERATIONS = 600_000;

const enc = new TextEncoder();
const dec = new TextDecoder();
const CHECK_TEXT = 'beseda recovery key check v1';
const CHECK_AAD = enc.encode('beseda-recovery-check');
const bytes = (b: Uint8Array) => new Uint8Array(b);

export { WRONG_RECOVERY_KEY };

/** A fresh phrase: 20 random bytes as 32 base32 characters, «ABCD-EFGH-…». */
export function generatePhrase(): string {
  const random = crypto.getRandomValues(new Uint8Array((PHRASE_GROUPS * GROUP * 5) / 8));
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of random) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return (out.match(/.{4}/g) ?? []).join('-');
}

/**
 * The phrase as typed, in its canonical form (upper case, no spaces or dashes; O read as 0, I and L as 1), or null
 * when it cannot be one.
 */
export function normalizePhrase(typed: string): string | null {
  const s = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (s.length !== PHRASE_GROUPS * GROUP) return null;
  for (const c of s) if (!ALPHABET.includes(c)) return null;
  return s;
}

export function newSalt(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(16)));
}

/** The backup key of a phrase: PBKDF2-SHA256 with the user's salt; null for a phrase that cannot be one. */
export async function deriveRecoveryKey(phrase: string, salt: string, iterations: number): Promise<CryptoKey | null> {
  const canonical = normalizePhrase(phrase);
  if (!canonical) return null;
  const base = await crypto.subtle.importKey('raw', enc.encode(canonical), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: bytes(fromBase64(salt)), iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

async function seal(key: CryptoKey, plain: Uint8Array, aad: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bytes(aad) }, key, bytes(plain)),
  );
  const out = new Uint8Array(iv.length + data.length);
  out.set(iv);
  out.set(data, iv.length);
  return toBase64(out);
}

/** Null when the key is not the one (or a byte changed): AES-GCM's tag says so. */
async function open(key: CryptoKey, sealed: string, aad: Uint8Array): Promise<Uint8Array | null> {
  let all: Uint8Array;
  try {
    all = fromBase64(sealed);
  } catch {
    return null;
  }
  if (all.length < 12 + 16) return null;
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes(all.subarray(0, 12)), additionalData: bytes(aad) },
        key,
        bytes(all.subarray(12)),
      ),
    );
  } catch {
    return null;
  }
}

/** The key check value the server keeps: a fixed text sealed with the key. */
export const makeCheck = (key: CryptoKey) => seal(key, enc.encode(CHECK_TEXT), CHECK_AAD);

export async function checkKey(key: CryptoKey, check: string): Promise<boolean> {
  const plain = await open(key, check, CHECK_AAD);
  return plain !== null && dec.decode(plain) === CHECK_TEXT;
}

/** Where a chunk belongs: it opens only there (a chunk moved to another person or key version does not). */
export interface ChunkPlace {
  userId: string;
  version: number;
  conversationId: string | null;
}
const chunkAad = (p: ChunkPlace) =>
  enc.encode(JSON.stringify(['beseda-backup', p.userId, p.version, p.conversationId]));

/**
 * A message deleted for everyone after an earlier chunk kept it: the restore leaves it out (chunks are only ever
 * added, so a deletion is a record of its own).
 */
export interface BackupTombstone {
  messageId: string;
  conversationId: string;
  deleted: true;
}
export type BackupItem = PlaintextRecord | BackupTombstone;
export const isTombstone = (item: BackupItem): item is BackupTombstone => 'deleted' in item && item.deleted === true;

export const sealChunk = (key: CryptoKey, place: ChunkPlace, items: BackupItem[]) =>
  seal(key, enc.encode(JSON.stringify(items)), chunkAad(place));

const isString = (v: unknown): v is string => typeof v === 'string';

/** The edits and reactions kept with a record, checked for shape (null: not of that shape). */
function actionsOf(v: unknown): SecretActions | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (Object.keys(o).some((k) => k !== 'edit' && k !== 'reactions')) return null;
  const out: SecretActions = {};
  if (o.edit !== undefined) {
    const e = o.edit as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || !isString(e.id) || !isString(e.text)) return null;
    if (e.text.length > LIMITS.messageTextMax) return null;
    out.edit = { id: e.id, text: e.text };
  }
  if (o.reactions !== undefined) {
    if (!Array.isArray(o.reactions)) return null;
    const list: NonNullable<SecretActions['reactions']> = [];
    for (const r of o.reactions as Record<string, unknown>[]) {
      if (typeof r !== 'object' || r === null || !isString(r.id) || !isString(r.userId) || !isString(r.emoji))
        return null;
      list.push({ id: r.id, userId: r.userId, emoji: r.emoji });
    }
    out.reactions = list;
  }
  return out;
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/**
 * A chunk's records (with the edits and reactions applied to them) and deletions, each envelope checked as a
 * decrypted message is; anything else refuses the chunk.
 */
export async function openChunk(key: CryptoKey, place: ChunkPlace, sealed: string): Promise<BackupItem[]> {
  const plain = await open(key, sealed, chunkAad(place));
  if (!plain) throw new BackupError('Резервная копия повреждена');
  let list: unknown;
  try {
    list = JSON.parse(dec.decode(plain));
  } catch {
    throw new BackupError('Резервная копия повреждена');
  }
  if (!Array.isArray(list)) throw new BackupError('Резервная копия повреждена');
  return list.map((r): BackupItem => {
    const o = r as Record<string, unknown>;
    const inPlace = (id: unknown) => place.conversationId === null || id === place.conversationId;
    if (typeof o === 'object' && o !== null && o.deleted === true) {
      if (
        Object.keys(o).length !== 3 ||
        !isString(o.messageId) ||
        !isString(o.conversationId) ||
        !inPlace(o.conversationId)
      )
        throw new BackupError('Резервная копия повреждена');
      return { messageId: o.messageId, conversationId: o.conversationId, deleted: true };
    }
    const actions = o?.actions === undefined ? undefined : actionsOf(o.actions);
    const ok =
      actions !== null &&
      typeof o === 'object' &&
      o !== null &&
      typeof o.messageId === 'string' &&
      typeof o.conversationId === 'string' &&
      typeof o.senderUserId === 'string' &&
      typeof o.senderDeviceId === 'string' &&
      typeof o.epoch === 'number' &&
      (place.conversationId === null || o.conversationId === place.conversationId);
    if (!ok) throw new BackupError('Резервная копия повреждена');
    return {
      messageId: o.messageId as string,
      conversationId: o.conversationId as string,
      senderUserId: o.senderUserId as string,
      senderDeviceId: o.senderDeviceId as string,
      epoch: o.epoch as number,
      envelope: parseEnvelope(JSON.stringify(o.envelope)),
      ...(actions ? { actions } : {}),
    };
  });
}

/**
 * The person's identity key in the backup: a chunk of no conversation, sealed under the recovery key with its own
 * place, so neither a message chunk nor another person's or key version's identity chunk opens as one.
 */
const identityAad = (userId: string, version: number) =>
  enc.encode(JSON.stringify(['beseda-backup-identity', userId, version]));

export interface BackedUpIdentity {
  publicKey: string;
  privateKey: string;
}

export const sealIdentityChunk = (key: CryptoKey, userId: string, version: number, identity: BackedUpIdentity) =>
  seal(
    key,
    enc.encode(JSON.stringify({ publicKey: identity.publicKey, privateKey: identity.privateKey })),
    identityAad(userId, version),
  );

/** The identity key of a backup's chunk; anything that does not open as one refuses the restore. */
export async function openIdentityChunk(
  key: CryptoKey,
  userId: string,
  version: number,
  sealed: string,
): Promise<BackedUpIdentity> {
  const plain = await open(key, sealed, identityAad(userId, version));
  if (!plain) throw new BackupError(BACKUP_IDENTITY_BROKEN);
  try {
    const o = JSON.parse(dec.decode(plain)) as Record<string, unknown>;
    if (typeof o.publicKey === 'string' && typeof o.privateKey === 'string')
      return { publicKey: o.publicKey, privateKey: o.privateKey };
  } catch {
    // refused below
  }
  throw new BackupError(BACKUP_IDENTITY_BROKEN);
}

export const BACKUP_IDENTITY_BROKEN = 'Ключ личности в резервной копии повреждён или подменён: восстановление отменено';
export const BACKUP_IDENTITY_OTHER =
  'Ключ личности в резервной копии не совпадает с ключом на сервере: восстановление отменено';
