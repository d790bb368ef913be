// Ciphersuite 1 for the MLS engine, built on ts-mls's default provider with its per-message costs cut
// (docs/secret-chats.md, "Limits"). Encrypting or decrypting one message runs about five HKDF expansions, two
// AES-GCM operations and one Ed25519 signature; the default provider turns each into a WebCrypto import followed by
// the operation, some twenty asynchronous round trips, and those round trips, not the arithmetic, are the cost.
// Here:
// - HKDF and HMAC-SHA256 run synchronously in @noble/hashes (audited; inputs of a few dozen bytes);
// - AES-GCM stays in WebCrypto: a table-driven AES in JavaScript could leak its key through cache timing, and SHA-2
//   has no such lookups;
// - Ed25519 stays in WebCrypto, with the imported keys kept (a device signs with one key for the group's life, and
//   verifies the same few members again and again) instead of imported for each signature.
// AEAD, HPKE (welcomes, path secrets) and key generation are the default provider's, unchanged.
import { expand, extract } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { type CiphersuiteImpl, getCiphersuiteFromName } from 'ts-mls/crypto/ciphersuite.js';
import { getCiphersuiteImpl } from 'ts-mls/crypto/getCiphersuiteImpl.js';

export const FAST_SUITE_NAME = 'MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519' as const;

/** Imported Ed25519 keys by their bytes; a handful of members and one own key are in use at a time. */
class KeyCache {
  private readonly keys = new Map<string, Promise<CryptoKey>>();
  constructor(private readonly limit: number) {}
  get(bytes: Uint8Array, importKey: () => Promise<CryptoKey>): Promise<CryptoKey> {
    const id = hex(bytes);
    let key = this.keys.get(id);
    if (key) {
      // Most recently used last: the first entry is the one to drop.
      this.keys.delete(id);
    } else {
      key = importKey();
      // A key that fails to import is not kept: the next call tries again and fails the same way.
      key.catch(() => this.keys.delete(id));
    }
    this.keys.set(id, key);
    if (this.keys.size > this.limit) this.keys.delete(this.keys.keys().next().value as string);
    return key;
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
function hex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += HEX[b];
  return s;
}

/** The 32-byte seed form ts-mls accepts, wrapped as PKCS#8 for WebCrypto (RFC 8410). */
const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
function pkcs8(signKey: Uint8Array): Uint8Array<ArrayBuffer> {
  if (signKey.length !== 32) return new Uint8Array(signKey);
  const out = new Uint8Array(PKCS8_ED25519_PREFIX.length + 32);
  out.set(PKCS8_ED25519_PREFIX);
  out.set(signKey, PKCS8_ED25519_PREFIX.length);
  return out;
}

const buffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);

/** ts-mls's suite with the fast paths above. */
export async function fastCipherSuite(): Promise<CiphersuiteImpl> {
  const base = await getCiphersuiteImpl(getCiphersuiteFromName(FAST_SUITE_NAME));
  const subtle = globalThis.crypto.subtle;
  const signing = new KeyCache(8);
  const verifying = new KeyCache(256);
  return {
    ...base,
    kdf: {
      size: 32,
      extract: async (salt, ikm) => extract(sha256, ikm, salt),
      expand: async (prk, info, len) => expand(sha256, prk, info, len),
    },
    hash: {
      ...base.hash,
      mac: async (key, data) => hmac(sha256, key, data),
      verifyMac: async (key, mac, data) => equal(hmac(sha256, key, data), mac),
    },
    signature: {
      ...base.signature,
      async sign(signKey, message) {
        const key = await signing.get(signKey, () =>
          subtle.importKey('pkcs8', pkcs8(signKey), 'Ed25519', false, ['sign']),
        );
        return new Uint8Array(await subtle.sign('Ed25519', key, buffer(message)));
      },
      async verify(publicKey, message, signature) {
        const key = await verifying.get(publicKey, () =>
          subtle.importKey('raw', buffer(publicKey), 'Ed25519', false, ['verify']),
        );
        return subtle.verify('Ed25519', key, buffer(signature), buffer(message));
      },
    },
  };
}

/** Compares in time independent of where the bytes differ. */
function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
