import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  createDeviceKeys,
  createGroupWith,
  decodeState,
  decryptMessage,
  encodeState,
  encryptMessage,
  generateKeyPackages,
  joinFromWelcome,
} from './mls-engine';
import { createSecretStore, indexedDbBackend, type PlaintextRecord, type StoreName } from './secret-store';

const text = 'Совершенно секретно: встреча в 7';
const record = (messageId: string, conversationId = 'c1'): PlaintextRecord => ({
  messageId,
  conversationId,
  senderUserId: 'alice',
  senderDeviceId: 'a1',
  epoch: 1,
  envelope: { v: 1, kind: 'text', text },
});

/** Every raw value the backend holds for a user, as bytes (CryptoKeys aside). */
async function rawBytes(name: string, userId: string): Promise<Uint8Array[]> {
  const raw = indexedDbBackend(name);
  const out: Uint8Array[] = [];
  for (const s of ['devices', 'groups', 'plaintexts'] as StoreName[])
    for (const r of await raw.list(s, [userId])) {
      const v = r.value as { iv: Uint8Array; data: Uint8Array };
      out.push(v.data);
    }
  return out;
}
const contains = (hay: Uint8Array, needle: Uint8Array) => {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
};

describe('secret store (IndexedDB through fake-indexeddb)', () => {
  it('keeps the device, group states and plaintexts encrypted, per user, and clear() removes them all', async () => {
    const name = 'store-test-1';
    const store = createSecretStore(indexedDbBackend(name));
    const keys = { ...(await createDeviceKeys('alice')), deviceId: 'a1' };
    const packages = await generateKeyPackages(keys, 3);
    await store.saveDevice({ ...keys, keyPackages: packages });
    const bob = { ...(await createDeviceKeys('bob')), deviceId: 'b1' };
    const bobPackages = await generateKeyPackages(bob, 1);
    const made = await createGroupWith(keys, packages[0]!, [
      { userId: 'bob', deviceId: 'b1', keyPackage: bobPackages[0]!.publicPackage },
    ]);
    await store.saveGroup('alice', 'c1', encodeState(made.state));
    await store.savePlaintext('alice', record('m1'));
    await store.savePlaintext('alice', record('m2'));
    await store.savePlaintext('alice', record('m3', 'c2'));
    await store.savePlaintext('bob', record('m9'));

    // A fresh store over the same database (a reload) reads all of it back.
    const again = createSecretStore(indexedDbBackend(name));
    const device = await again.loadDevice('alice');
    expect(device?.deviceId).toBe('a1');
    expect(device?.signaturePrivateKey).toEqual(keys.signaturePrivateKey);
    expect(device?.keyPackages.map((k) => k.ref)).toEqual(packages.map((k) => k.ref));
    expect(await again.groupIds('alice')).toEqual(['c1']);
    expect((await again.loadPlaintexts('alice', 'c1')).map((r) => r.messageId)).toEqual(['m1', 'm2']);
    expect(await again.loadPlaintext('alice', 'c2', 'm3')).toEqual(record('m3', 'c2'));

    // The group state survives the store: the restored state still encrypts for bob.
    const restored = decodeState((await again.loadGroup('alice', 'c1'))!);
    const joined = await joinFromWelcome(bob, bobPackages, made.welcome!);
    const sent = await encryptMessage(restored, new TextEncoder().encode('после перезагрузки'));
    expect(new TextDecoder().decode((await decryptMessage(joined!.state, sent.ciphertext)).payload)).toBe(
      'после перезагрузки',
    );

    // Nothing stored holds the plaintext, the private signature key or the group state in the clear.
    const stored = await rawBytes(name, 'alice');
    expect(stored.length).toBe(5);
    for (const b of stored) {
      expect(contains(b, new TextEncoder().encode('Совершенно'))).toBe(false);
      expect(contains(b, keys.signaturePrivateKey)).toBe(false);
      expect(contains(b, keys.signaturePrivateKey.subarray(0, 16))).toBe(false);
    }
    const key = await indexedDbBackend(name).get('keys', ['alice']);
    expect(key).toBeInstanceOf(CryptoKey);
    expect((key as CryptoKey).extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key as CryptoKey)).rejects.toThrow();

    await again.clear('alice');
    expect(await rawBytes(name, 'alice')).toEqual([]);
    expect(await indexedDbBackend(name).get('keys', ['alice'])).toBeUndefined();
    expect(await again.loadDevice('alice')).toBeNull();
    expect(await again.loadPlaintexts('alice', 'c1')).toEqual([]);
    // Another user's records stay.
    expect((await again.loadPlaintexts('bob', 'c1')).map((r) => r.messageId)).toEqual(['m9']);
  }, 60_000);

  it('refuses a record moved to another place (the place is authenticated)', async () => {
    const name = 'store-test-2';
    const backend = indexedDbBackend(name);
    const store = createSecretStore(backend);
    await store.savePlaintext('alice', record('m1'));
    const sealed = await backend.get('plaintexts', ['alice', 'c1', 'm1']);
    await backend.put('plaintexts', ['alice', 'c1', 'm2'], sealed);
    await expect(store.loadPlaintext('alice', 'c1', 'm2')).rejects.toThrow();
  });
});
