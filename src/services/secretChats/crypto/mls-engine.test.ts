import { describe, expect, it } from 'vitest';
import {
  type ClaimedKeyPackage,
  callKey,
  commitChanges,
  createDeviceKeys,
  createGroupWith,
  type DeviceKeys,
  decodeState,
  decryptMessage,
  encodeState,
  encryptMessage,
  epochOf,
  fingerprint,
  generateKeyPackages,
  joinFromWelcome,
  MlsEngineError,
  members,
  type OwnKeyPackage,
  processCommit,
} from './mls-engine';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

async function device(userId: string, deviceId: string, n = 2) {
  const keys: DeviceKeys = { ...(await createDeviceKeys(userId)), deviceId };
  const packages = await generateKeyPackages(keys, n);
  return { keys, packages };
}
const claim = (d: { keys: DeviceKeys; packages: OwnKeyPackage[] }, i = 0): ClaimedKeyPackage => ({
  userId: d.keys.userId,
  deviceId: d.keys.deviceId as string,
  keyPackage: d.packages[i]!.publicPackage,
});

describe('mls engine (ts-mls, ciphersuite 1)', () => {
  it('A makes a group with B’s two devices and A’s second; messages go both ways; a removed device reads nothing after', async () => {
    const a1 = await device('alice', 'a1');
    const a2 = await device('alice', 'a2');
    const b1 = await device('bob', 'b1');
    const b2 = await device('bob', 'b2');
    const made = await createGroupWith(a1.keys, a1.packages[0]!, [claim(b1), claim(b2), claim(a2)]);
    expect(made.refused).toEqual([]);
    expect(epochOf(made.state)).toBe(1);
    let sA1 = made.state;
    const joins = await Promise.all(
      [a2, b1, b2].map((d) => joinFromWelcome(d.keys, d.packages, made.welcome as string)),
    );
    let [sA2, sB1, sB2] = joins.map((j) => j!.state);
    expect(joins.every((j) => j && epochOf(j.state) === 1)).toBe(true);
    expect(
      members(sA1)
        .map((m) => m.identity.deviceId)
        .sort(),
    ).toEqual(['a1', 'a2', 'b1', 'b2']);

    // A1 writes; the three others read it once, with A1 as the sender.
    const m1 = await encryptMessage(sA1, enc('привет'));
    sA1 = m1.state;
    for (const [i, s] of [sA2, sB1, sB2].entries()) {
      const r = await decryptMessage(s!, m1.ciphertext);
      expect(dec(r.payload)).toBe('привет');
      expect(r.sender).toEqual({ userId: 'alice', deviceId: 'a1' });
      if (i === 0) sA2 = r.state;
      if (i === 1) sB1 = r.state;
      if (i === 2) sB2 = r.state;
    }
    // A ciphertext decrypts once per device (its key is deleted), and never on the sender.
    await expect(decryptMessage(sB1!, m1.ciphertext)).rejects.toThrow();
    await expect(decryptMessage(sA1, m1.ciphertext)).rejects.toThrow();

    // B1 writes; A's devices read it.
    const m2 = await encryptMessage(sB1!, enc('ответ'));
    sB1 = m2.state;
    const r2 = await decryptMessage(sA1, m2.ciphertext);
    const r3 = await decryptMessage(sA2!, m2.ciphertext);
    for (const r of [r2, r3]) {
      expect(dec(r.payload)).toBe('ответ');
      expect(r.sender.deviceId).toBe('b1');
    }
    sA1 = r2.state;
    sA2 = r3.state;

    // B2 is removed by A1; the others apply the commit; B2 reads nothing of epoch 2.
    const fpBefore = await fingerprint(sA1);
    const removal = await commitChanges(sA1, [], ['b2']);
    sA1 = removal.state;
    expect(epochOf(sA1)).toBe(2);
    sA2 = (await processCommit(sA2!, removal.commit)).state;
    sB1 = (await processCommit(sB1!, removal.commit)).state;
    const gone = await processCommit(sB2!, removal.commit);
    expect(gone.removed).toBe(true);
    const m3 = await encryptMessage(sA1, enc('без b2'));
    await expect(decryptMessage(gone.state, m3.ciphertext)).rejects.toThrow();
    await expect(decryptMessage(sB2!, m3.ciphertext)).rejects.toThrow();
    expect(dec((await decryptMessage(sB1!, m3.ciphertext)).payload)).toBe('без b2');
    await expect(encryptMessage(gone.state, enc('x'))).rejects.toThrow(MlsEngineError);

    // Fingerprints: equal on all members, changed by the removal; call keys equal in an epoch.
    const fps = await Promise.all([sA1, sA2!, sB1!].map(fingerprint));
    expect(fps[1]).toEqual(fps[0]);
    expect(fps[2]).toEqual(fps[0]);
    expect(fps[0]).not.toEqual(fpBefore);
    expect(fps[0]!.digits).toHaveLength(12);
    expect(fps[0]!.digits.every((d) => /^\d{5}$/.test(d))).toBe(true);
    expect(fps[0]!.emoji).toHaveLength(8);
    const keys = await Promise.all([sA1, sA2!, sB1!].map(callKey));
    expect(keys[0]).toHaveLength(32);
    expect(keys[1]).toEqual(keys[0]);
    expect(keys[2]).toEqual(keys[0]);

    // The removal commit again (stale) and a commit of a later epoch (a gap) are refused.
    await expect(processCommit(sA2!, removal.commit)).rejects.toMatchObject({ code: 'stale' });
    const later = await commitChanges(sA1, [], []);
    const evenLater = await commitChanges(later.state, [], []);
    await expect(processCommit(sB1!, evenLater.commit)).rejects.toMatchObject({ code: 'gap' });
  }, 60_000);

  it('keeps reading a message of the epoch before the commit that ended it; state survives encode/decode', async () => {
    const a = await device('alice', 'a1');
    const b = await device('bob', 'b1');
    const c = await device('carol', 'c1');
    const made = await createGroupWith(a.keys, a.packages[0]!, [claim(b)]);
    let sB = (await joinFromWelcome(b.keys, b.packages, made.welcome as string))!.state;
    const old = await encryptMessage(made.state, enc('эпоха 1'));
    const add = await commitChanges(old.state, [claim(c)], []);
    sB = (await processCommit(sB, add.commit)).state;
    sB = decodeState(encodeState(sB));
    const r = await decryptMessage(sB, old.ciphertext);
    expect(dec(r.payload)).toBe('эпоха 1');
    expect(r.epoch).toBe(1);
    const sC = (await joinFromWelcome(c.keys, c.packages, add.welcome as string))!.state;
    expect(await fingerprint(sC)).toEqual(await fingerprint(add.state));
  }, 60_000);

  it('refuses claimed packages that name another user or device, and registration packages', async () => {
    const a = await device('alice', 'a1');
    const b = await device('bob', 'b1');
    const pending = {
      keys: { ...b.keys, deviceId: null },
      packages: await generateKeyPackages({ ...b.keys, deviceId: null }, 1),
    };
    const made = await createGroupWith(a.keys, a.packages[0]!, [
      { ...claim(b), userId: 'mallory' },
      { ...claim(b, 1), deviceId: 'b9' },
      { userId: 'bob', deviceId: 'b2', keyPackage: pending.packages[0]!.publicPackage },
    ]);
    expect(made.refused).toEqual(['b1', 'b9', 'b2']);
    expect(made.welcome).toBeNull();
    const c = await device('carol', 'c1');
    const other = await createGroupWith(a.keys, a.packages[1]!, [claim(c)]);
    expect(await joinFromWelcome(b.keys, b.packages, other.welcome as string)).toBeNull();
  }, 60_000);
});
