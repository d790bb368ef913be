// The call key of a secret chat (docs/secret-chats.md "Calls"): the crypto service of two browsers in one group,
// real ts-mls and IndexedDB, as the call view asks for it (secretCall's `derive`).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createSecretCryptoCore } from './secret-crypto-core';
import { createSecretStore, indexedDbBackend } from './secret-store';
import { vouch } from './identity-testing';

let browsers = 0;
const browser = () => createSecretCryptoCore(createSecretStore(indexedDbBackend(`call-key-${++browsers}`)));

describe('call key', () => {
  it('is the same on both devices in an epoch, another after a commit, and none for a device outside', async () => {
    const a = browser();
    const b = browser();
    const c = browser();
    for (const [s, u, d] of [
      [a, 'alice', 'a1'],
      [b, 'bob', 'b1'],
      [c, 'carol', 'c1'],
    ] as const) {
      await s.prepareDevice(u);
      await vouch(s, u);
      await s.setDeviceId(u, d);
    }
    const [kb] = await b.makeKeyPackages('bob', 1);
    const [kc] = await c.makeKeyPackages('carol', 1);
    const made = await a.createGroup('alice', [{ userId: 'bob', deviceId: 'b1', keyPackage: kb! }]);
    await a.confirmGroup('alice', made.groupId, 'conv');
    await b.applyLogItem('bob', 'conv', { seq: 1, kind: 'welcome', epoch: 0, deviceId: 'a1', body: made.welcome! });

    // A guest link's secret (docs/secret-chats.md "Guests in encrypted calls"): the same on both devices for a code
    // in the epoch it names, another for another code, unlike the call key, and refused in another epoch.
    const code = 'AbCdEfGhIjKlMnOpQrStUvWx';
    const linkA = await a.guestLinkSecret('alice', 'conv', code, 1);
    expect(linkA).toHaveLength(32);
    expect(await b.guestLinkSecret('bob', 'conv', code, 1)).toEqual(linkA);
    expect(await b.guestLinkSecret('bob', 'conv', 'ZZZZZZZZZZZZZZZZZZZZZZZZ', 1)).not.toEqual(linkA);
    expect(Buffer.from(linkA).equals(Buffer.from((await a.callKey('alice', 'conv')).key))).toBe(false);
    await expect(b.guestLinkSecret('bob', 'conv', code, 2)).rejects.toMatchObject({ code: 'stale' });

    const a1 = await a.callKey('alice', 'conv');
    const b1 = await b.callKey('bob', 'conv');
    expect(a1.epoch).toBe(1);
    expect(a1.key).toHaveLength(32);
    expect(b1).toEqual(a1);
    // The same epoch gives the same key again (a participant joining the call later).
    expect(await a.callKey('alice', 'conv')).toEqual(a1);

    // A device is added: a new epoch, and a new key on both.
    const add = await a.commit('alice', 'conv', [{ userId: 'carol', deviceId: 'c1', keyPackage: kc! }], []);
    await a.confirmCommit('alice', 'conv');
    await b.applyLogItem('bob', 'conv', { seq: 2, kind: 'commit', epoch: 1, deviceId: 'a1', body: add.commit });
    const a2 = await a.callKey('alice', 'conv');
    const b2 = await b.callKey('bob', 'conv');
    expect(a2.epoch).toBe(2);
    expect(b2).toEqual(a2);
    expect(Buffer.from(a2.key).equals(Buffer.from(a1.key))).toBe(false);
    // The added device derives that epoch's key too; nothing of the epoch before it joined.
    await c.applyLogItem('carol', 'conv', { seq: 3, kind: 'welcome', epoch: 1, deviceId: 'a1', body: add.welcome! });
    expect(await c.callKey('carol', 'conv')).toEqual(a2);
    // A removal's update owed on purpose (a guest left the call): the device's next leaf update is due.
    expect(await b.leafUpdateDue('bob', 'conv')).toBe(false);
    await b.oweLeafUpdate('bob', 'conv');
    expect(await b.leafUpdateDue('bob', 'conv')).toBe(true);

    // A device outside the group has no key: the call view says so instead of calling.
    await expect(browser().callKey('dave', 'conv')).rejects.toMatchObject({ code: 'notMember' });
  }, 60_000);
});
