// When a device owes its group an update of its own leaf (leaf-updates.ts), through the crypto core with real
// ts-mls and an injected clock: weekly while used, at once after a removal or after its own add-only commit.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { SECRET_LEAF_MAX_AGE_MS } from '../../../machines/secretChats/secretChat/secretChat.protocol';
import { decodeState, toBase64 } from './mls-engine';
import type { SecretCrypto } from './secret-crypto';
import { vouch } from './identity-testing';
import { createSecretCryptoCore } from './secret-crypto-core';
import { createSecretStore, indexedDbBackend, type SecretStore } from './secret-store';

let n = 0;
let clock = Date.UTC(2026, 0, 1);
const now = () => clock;
const stores = new Map<SecretCrypto, SecretStore>();
async function device(userId: string, deviceId: string): Promise<SecretCrypto> {
  const store = createSecretStore(indexedDbBackend(`leaf-${++n}`));
  const c = createSecretCryptoCore(store, undefined, now);
  stores.set(c, store);
  await c.prepareDevice(userId);
  await vouch(c, userId);
  await c.setDeviceId(userId, deviceId);
  return c;
}
/** The device's own leaf's HPKE key in its kept state: a commit with a path replaces it. */
async function ownLeafKey(c: SecretCrypto, userId: string): Promise<string> {
  const state = decodeState((await stores.get(c)!.loadGroup(userId, 'c1'))!);
  const node = state.ratchetTree[state.privatePath.leafIndex * 2];
  if (node?.nodeType !== 'leaf') throw new Error('no own leaf');
  return toBase64(node.leaf.hpkePublicKey);
}
/** Commits and confirms; whether the commit carried a path (the committer's leaf key changed). */
async function committed(c: SecretCrypto, userId: string, _made: { commit: string }): Promise<boolean> {
  const before = await ownLeafKey(c, userId);
  await c.confirmCommit(userId, 'c1');
  return (await ownLeafKey(c, userId)) !== before;
}

describe('leaf updates', () => {
  it('are due weekly, at once after a removal, and after an add-only commit; each update carries a path', async () => {
    const a1 = await device('anna', 'a1');
    const b1 = await device('boris', 'b1');
    const b2 = await device('boris', 'b2');
    const [k1] = await b1.makeKeyPackages('boris', 1);
    const [k2] = await b2.makeKeyPackages('boris', 1);
    const made = await a1.createGroup('anna', [{ userId: 'boris', deviceId: 'b1', keyPackage: k1! }]);
    await a1.confirmGroup('anna', made.groupId, 'c1');
    await b1.applyLogItem('boris', 'c1', { seq: 1, kind: 'welcome', epoch: 0, deviceId: 'a1', body: made.welcome! });
    // Fresh leaves: nothing due until a week of use has passed.
    expect(await a1.leafUpdateDue('anna', 'c1')).toBe(false);
    clock += SECRET_LEAF_MAX_AGE_MS - 1;
    expect(await b1.leafUpdateDue('boris', 'c1')).toBe(false);
    clock += 1;
    expect(await b1.leafUpdateDue('boris', 'c1')).toBe(true);
    const update = await b1.commit('boris', 'c1', [], []);
    expect(await committed(b1, 'boris', update)).toBe(true);
    expect(await b1.leafUpdateDue('boris', 'c1')).toBe(false);
    await a1.applyLogItem('anna', 'c1', { seq: 2, kind: 'commit', epoch: 1, deviceId: 'b1', body: update.commit });

    // Анна adds Борис's second device: that commit has no path (ts-mls), so a path is owed at once.
    const add = await a1.commit('anna', 'c1', [{ userId: 'boris', deviceId: 'b2', keyPackage: k2! }], []);
    expect(await committed(a1, 'anna', add)).toBe(false);
    expect(await a1.leafUpdateDue('anna', 'c1')).toBe(true);
    await b1.applyLogItem('boris', 'c1', { seq: 3, kind: 'commit', epoch: 2, deviceId: 'a1', body: add.commit });
    await b2.applyLogItem('boris', 'c1', { seq: 4, kind: 'welcome', epoch: 2, deviceId: 'a1', body: add.welcome! });
    expect(await b1.leafUpdateDue('boris', 'c1')).toBe(false);
    const pathAfterAdd = await a1.commit('anna', 'c1', [], []);
    expect(await committed(a1, 'anna', pathAfterAdd)).toBe(true);
    expect(await a1.leafUpdateDue('anna', 'c1')).toBe(false);
    for (const [c, u] of [
      [b1, 'boris'],
      [b2, 'boris'],
    ] as const)
      await c.applyLogItem(u, 'c1', { seq: 5, kind: 'commit', epoch: 3, deviceId: 'a1', body: pathAfterAdd.commit });

    // Анна's device removes Борис's first: its commit has a path; Борис's other device owes one at once.
    const removal = await a1.commit('anna', 'c1', [], ['b1']);
    expect(await committed(a1, 'anna', removal)).toBe(true);
    expect(await a1.leafUpdateDue('anna', 'c1')).toBe(false);
    expect(await b2.leafUpdateDue('boris', 'c1')).toBe(false);
    await b2.applyLogItem('boris', 'c1', { seq: 6, kind: 'commit', epoch: 4, deviceId: 'a1', body: removal.commit });
    expect(await b2.leafUpdateDue('boris', 'c1')).toBe(true);
    // The removed device owes nothing: it is no longer in the group.
    await b1.applyLogItem('boris', 'c1', { seq: 6, kind: 'commit', epoch: 4, deviceId: 'a1', body: removal.commit });
    expect(await b1.leafUpdateDue('boris', 'c1')).toBe(false);
  });
});
