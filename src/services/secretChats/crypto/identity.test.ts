// Identity keys (docs/secret-chats.md "Identity keys"): the device signature checks only under the key that made it,
// for the person and the device key it names; the sealed identity key opens only with the new device's exchange key
// and for its device key; the approval code is the same on both sides and another for other keys; and the safety
// number depends on the two identity keys alone.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  approvalCode,
  createExchangeKeys,
  createIdentityKeys,
  openIdentity,
  safetyNumber,
  sealIdentity,
  signDevice,
  verifyDevice,
} from './identity';
import { createDeviceKeys, toBase64 } from './mls-engine';

describe('identity keys', () => {
  it('a device signature checks under its identity key, for its person and its key only', async () => {
    const id = await createIdentityKeys();
    const other = await createIdentityKeys();
    const device = await createDeviceKeys('anna');
    const sig = await signDevice(id, 'anna', device.signaturePublicKey);
    expect(await verifyDevice(id.publicKey, 'anna', device.signaturePublicKey, sig)).toBe(true);
    expect(await verifyDevice(other.publicKey, 'anna', device.signaturePublicKey, sig)).toBe(false);
    expect(await verifyDevice(id.publicKey, 'boris', device.signaturePublicKey, sig)).toBe(false);
    const another = await createDeviceKeys('anna');
    expect(await verifyDevice(id.publicKey, 'anna', another.signaturePublicKey, sig)).toBe(false);
  });

  it('seals the identity key to the new device only, and the code differs for other keys', async () => {
    const id = await createIdentityKeys();
    const mine = await createExchangeKeys();
    const theirs = await createExchangeKeys();
    const sealed = await sealIdentity(id, mine.publicKey, 'device-key');
    expect(await openIdentity(sealed, mine.privateKey, 'device-key')).toEqual(id.privateKey);
    expect(await openIdentity(sealed, theirs.privateKey, 'device-key')).toBeNull();
    expect(await openIdentity(sealed, mine.privateKey, 'another-device-key')).toBeNull();
    const code = await approvalCode('k', toBase64(mine.publicKey));
    expect(code).toMatch(/^\d{6}$/);
    expect(await approvalCode('k', toBase64(mine.publicKey))).toBe(code);
    expect(await approvalCode('k', toBase64(theirs.publicKey))).not.toBe(code);
  });

  it('a safety number: both sides alike, the same for the same identity keys, another after a reset', async () => {
    const anna = { userId: 'anna', publicKey: (await createIdentityKeys()).publicKey };
    const boris = { userId: 'boris', publicKey: (await createIdentityKeys()).publicKey };
    const n = await safetyNumber(anna, boris);
    expect(n).toHaveLength(12);
    for (const g of n) expect(g).toMatch(/^\d{5}$/);
    expect(await safetyNumber(boris, anna)).toEqual(n);
    // Known answer, against the definition written again over node's SHA-512.
    const entries = [anna, boris].map((p) => `${p.userId}=${Buffer.from(p.publicKey).toString('base64')}`).sort();
    const h = createHash('sha512')
      .update(`beseda safety number v1\n${entries.join('\n')}`)
      .digest();
    const expected = Array.from({ length: 12 }, (_, g) =>
      String(h.subarray(g * 5, g * 5 + 5).reduce((acc, b) => acc * 256 + b, 0) % 100000).padStart(5, '0'),
    );
    expect(n).toEqual(expected);
    const reset = { userId: 'boris', publicKey: (await createIdentityKeys()).publicKey };
    expect(await safetyNumber(anna, reset)).not.toEqual(n);
  });
});
