// A guest in an end-to-end encrypted call (docs/secret-chats.md "Guests in encrypted calls"). Loaded lazily by the
// guest's page and by a secret call's door, never in the first bundle.
//
// - The link secret (32 bytes) is the MLS exporter's output for the link (label `beseda guest link`, context the
//   link's code and the epoch it was made in, crypto/mls-engine.ts `guestLinkSecret`): every member device in that
//   epoch derives it, the inviting device keeps it for the call, and the guest reads it from the link's fragment,
//   which browsers never send to the server.
// - The guest makes an ephemeral X25519 key pair and knocks with its public key and HMAC-SHA-256(link secret,
//   label ‖ code ‖ public key): a member admits only a key whose MAC holds, so a key the server put in the guest's
//   place is refused.
// - «Впустить» seals the call key (epoch ‖ 32 bytes) to that key with HPKE (RFC 9180, @hpke/core: DHKEM(X25519),
//   HKDF-SHA256, AES-128-GCM) in PSK mode, the link secret as PSK: only the holder of the guest's private key and the
//   link opens it, and the server, which relays it, can neither read it nor have a key of its own accepted.
// - The short code (6 digits) over the link secret, the guest's public key and the key's epoch is shown on both
//   sides to compare.
import { Aes128Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core';

const utf8 = (s: string) => new TextEncoder().encode(s);
const KNOCK_LABEL = 'beseda guest knock';
const SEAL_LABEL = 'beseda guest call key';
const PSK_LABEL = 'beseda guest link';
const CODE_LABEL = 'beseda guest short code';
/** A call key: its epoch (8 bytes big-endian) then the 32 key bytes. */
const KEY_BYTES = 32;

export interface GuestCallKey {
  epoch: number;
  key: Uint8Array;
}

export class GuestE2eeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GuestE2eeError';
  }
}

export const GUEST_E2EE_TEXTS = {
  badMac: 'Ключ гостя не подтверждён ссылкой: его могли подменить',
  badSeal: 'Ключ звонка не открылся: ссылка или ключ не те',
  badLink: 'В ссылке нет ключа шифрования: попросите ссылку ещё раз',
} as const;

const suite = () => new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });

export function toB64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
export function fromB64(text: string): Uint8Array {
  if (!/^[\w-]*$/.test(text)) throw new GuestE2eeError('Неверная кодировка');
  const s = atob(text.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
function epochBytes(epoch: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(epoch));
  return b;
}
/** A length-prefixed field, so `a‖b` and `a'‖b'` never coincide. */
const field = (bytes: Uint8Array) => concat(new Uint8Array([bytes.length >> 8, bytes.length & 0xff]), bytes);

/** The link's fragment: `#k=<link secret, base64url>`. */
export const linkFragment = (linkSecret: Uint8Array) => `#k=${toB64(linkSecret)}`;
/** The link secret from a page's `location.hash`, or null when there is none (a plain call's link). */
export function secretFromFragment(hash: string): Uint8Array | null {
  const m = /(?:^#|&)k=([\w-]{43})(?:&|$)/.exec(hash);
  if (!m?.[1]) return null;
  const bytes = fromB64(m[1]);
  return bytes.length === KEY_BYTES ? bytes : null;
}

async function hmacKey(linkSecret: Uint8Array) {
  if (linkSecret.length !== KEY_BYTES) throw new GuestE2eeError(GUEST_E2EE_TEXTS.badLink);
  return crypto.subtle.importKey('raw', linkSecret.slice(), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}
const knockData = (code: string, publicKey: Uint8Array) =>
  concat(field(utf8(KNOCK_LABEL)), field(utf8(code)), field(publicKey));

/** The guest's side: an ephemeral key pair (never stored) and its public key as the knock sends it. */
export interface GuestKeys {
  pair: CryptoKeyPair;
  publicKey: string;
}

export async function makeGuestKeys(): Promise<GuestKeys> {
  const s = suite();
  const pair = await s.kem.generateKeyPair();
  return { pair, publicKey: toB64(new Uint8Array(await s.kem.serializePublicKey(pair.publicKey))) };
}

/** The knock's MAC of the guest's public key under the link secret (base64url). */
export async function knockMac(linkSecret: Uint8Array, code: string, publicKey: string): Promise<string> {
  const sig = await crypto.subtle.sign('HMAC', await hmacKey(linkSecret), knockData(code, fromB64(publicKey)).slice());
  return toB64(new Uint8Array(sig));
}

/** A member's check of a knock: true only when the key came with a MAC made with this link's secret. */
export async function verifyKnock(
  linkSecret: Uint8Array,
  code: string,
  publicKey: string,
  mac: string,
): Promise<boolean> {
  try {
    return await crypto.subtle.verify(
      'HMAC',
      await hmacKey(linkSecret),
      fromB64(mac).slice(),
      knockData(code, fromB64(publicKey)).slice(),
    );
  } catch {
    return false;
  }
}

const pskOf = (linkSecret: Uint8Array, code: string) => ({
  id: utf8(`${PSK_LABEL} ${code}`),
  key: linkSecret.slice(),
});
const infoOf = (code: string, knockId: string) =>
  concat(field(utf8(SEAL_LABEL)), field(utf8(code)), field(utf8(knockId)));

/**
 * «Впустить»: the call key sealed to the guest's key (HPKE, PSK mode with the link secret), after checking the knock's
 * MAC; base64url of enc ‖ ciphertext. Refuses (GuestE2eeError) a key the link secret does not vouch for.
 */
export async function sealCallKey(args: {
  linkSecret: Uint8Array;
  code: string;
  knockId: string;
  publicKey: string;
  mac: string;
  callKey: GuestCallKey;
}): Promise<string> {
  if (!(await verifyKnock(args.linkSecret, args.code, args.publicKey, args.mac)))
    throw new GuestE2eeError(GUEST_E2EE_TEXTS.badMac);
  if (args.callKey.key.length !== KEY_BYTES) throw new GuestE2eeError('Ключ звонка — 32 байта');
  const s = suite();
  const { enc, ct } = await s.seal(
    {
      recipientPublicKey: await s.kem.deserializePublicKey(fromB64(args.publicKey)),
      psk: pskOf(args.linkSecret, args.code),
      info: infoOf(args.code, args.knockId),
    },
    concat(epochBytes(args.callKey.epoch), args.callKey.key),
  );
  return toB64(concat(new Uint8Array(enc), new Uint8Array(ct)));
}

/** X25519's encapsulated key: 32 bytes before the ciphertext. */
const ENC_BYTES = 32;

/** The guest's side: opens a sealed call key, or throws (another key, another link, a changed byte). */
export async function openCallKey(args: {
  linkSecret: Uint8Array;
  code: string;
  knockId: string;
  keys: Pick<GuestKeys, 'pair'>;
  sealed: string;
}): Promise<GuestCallKey> {
  try {
    const bytes = fromB64(args.sealed);
    if (bytes.length !== ENC_BYTES + 8 + KEY_BYTES + 16) throw new GuestE2eeError(GUEST_E2EE_TEXTS.badSeal);
    const pt = new Uint8Array(
      await suite().open(
        {
          recipientKey: args.keys.pair,
          enc: bytes.slice(0, ENC_BYTES),
          psk: pskOf(args.linkSecret, args.code),
          info: infoOf(args.code, args.knockId),
        },
        bytes.slice(ENC_BYTES),
      ),
    );
    const epoch = Number(new DataView(pt.buffer, pt.byteOffset).getBigUint64(0));
    return { epoch, key: pt.slice(8) };
  } catch {
    throw new GuestE2eeError(GUEST_E2EE_TEXTS.badSeal);
  }
}

/**
 * The code both sides compare: 6 digits from SHA-256 over the link secret, the guest's public key and the call key's
 * epoch, as «123 456». Another guest key (or another link, or another epoch) gives another code.
 */
export async function shortCode(linkSecret: Uint8Array, publicKey: string, epoch: number): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest(
      'SHA-256',
      concat(field(utf8(CODE_LABEL)), field(linkSecret), field(fromB64(publicKey)), epochBytes(epoch)).slice(),
    ),
  );
  const n = new DataView(digest.buffer).getUint32(0) % 1_000_000;
  const s = String(n).padStart(6, '0');
  return `${s.slice(0, 3)} ${s.slice(3)}`;
}
