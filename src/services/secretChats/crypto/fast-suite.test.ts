// The fast paths of ciphersuite 1 (fast-suite.ts) give exactly what ts-mls's default provider gives, for every
// operation they replace, and fail where it fails; plus RFC 5869's first HKDF vector, checked independently.
import { randomBytes } from 'node:crypto';
import { getCiphersuiteFromName } from 'ts-mls/crypto/ciphersuite.js';
import { getCiphersuiteImpl } from 'ts-mls/crypto/getCiphersuiteImpl.js';
import { CryptoError } from 'ts-mls/mlsError.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAST_SUITE_NAME, fastCipherSuite } from './fast-suite';

type Suite = Awaited<ReturnType<typeof fastCipherSuite>>;
let fast: Suite;
let base: Suite;
beforeAll(async () => {
  fast = await fastCipherSuite();
  base = await getCiphersuiteImpl(getCiphersuiteFromName(FAST_SUITE_NAME));
});

const bytes = (n: number) => new Uint8Array(randomBytes(n));
const fromHex = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s/g, ''), 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('fast ciphersuite 1', () => {
  it('HKDF: RFC 5869 test case 1', async () => {
    const prk = await fast.kdf.extract(fromHex('000102030405060708090a0b0c'), fromHex('0b'.repeat(22)));
    expect(toHex(prk)).toBe('077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5');
    const okm = await fast.kdf.expand(prk, fromHex('f0f1f2f3f4f5f6f7f8f9'), 42);
    expect(toHex(okm)).toBe('3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865');
    expect(fast.kdf.size).toBe(base.kdf.size);
  });

  it('HKDF and HMAC agree with the default provider, an empty salt included', async () => {
    for (const saltLength of [0, 32]) {
      const salt = bytes(saltLength);
      const ikm = bytes(32);
      expect(await fast.kdf.extract(salt, ikm)).toEqual(await base.kdf.extract(salt, ikm));
    }
    for (const len of [12, 16, 32, 64, 100]) {
      const prk = bytes(32);
      const info = bytes(40);
      expect(await fast.kdf.expand(prk, info, len)).toEqual(await base.kdf.expand(prk, info, len));
    }
    const key = bytes(32);
    const data = bytes(300);
    const mac = await fast.hash.mac(key, data);
    expect(mac).toEqual(await base.hash.mac(key, data));
    expect(await fast.hash.verifyMac(key, mac, data)).toBe(true);
    const wrong = mac.slice();
    wrong[31] = (wrong[31] as number) ^ 1;
    expect(await fast.hash.verifyMac(key, wrong, data)).toBe(false);
    expect(await fast.hash.verifyMac(key, mac.slice(0, 16), data)).toBe(false);
  });

  it('keeps AES-GCM and HPKE in WebCrypto: the default provider opens what it seals', async () => {
    const key = bytes(16);
    const nonce = bytes(12);
    const plaintext = bytes(1024);
    const sealed = await fast.hpke.encryptAead(key, nonce, undefined, plaintext);
    expect(await base.hpke.decryptAead(key, nonce, undefined, sealed)).toEqual(plaintext);
    sealed[0] = (sealed[0] as number) ^ 0x80;
    await expect(fast.hpke.decryptAead(key, nonce, undefined, sealed)).rejects.toBeInstanceOf(CryptoError);
  });

  it('Ed25519 signatures cross-check with the default provider, from PKCS#8 and from a 32-byte seed', async () => {
    const message = bytes(200);
    const { signKey, publicKey } = await base.signature.keygen();
    for (let round = 0; round < 2; round++) {
      // The second round uses the imported keys the first one kept.
      const signature = await fast.signature.sign(signKey, message);
      expect(await base.signature.verify(publicKey, message, signature)).toBe(true);
      expect(await fast.signature.verify(publicKey, message, signature)).toBe(true);
      const other = message.slice();
      other[0] = (other[0] as number) ^ 1;
      expect(await fast.signature.verify(publicKey, other, signature)).toBe(false);
    }
    const seed = signKey.slice(-32);
    expect(await fast.signature.sign(seed, message)).toEqual(await base.signature.sign(seed, message));
    // Another key pair is not confused with the cached one.
    const second = await base.signature.keygen();
    const signature = await fast.signature.sign(second.signKey, message);
    expect(await fast.signature.verify(second.publicKey, message, signature)).toBe(true);
    expect(await fast.signature.verify(publicKey, message, signature)).toBe(false);
  });

  it('a public key WebCrypto refuses is refused each time, not cached', async () => {
    const bad = new Uint8Array(31);
    await expect(fast.signature.verify(bad, bytes(10), bytes(64))).rejects.toThrow();
    await expect(fast.signature.verify(bad, bytes(10), bytes(64))).rejects.toThrow();
  });
});
