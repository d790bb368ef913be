// A delivery service that lies about devices (docs/secret-chats.md "Identity keys"), against the real clients' code:
// the crypto core the worker runs (real ts-mls, IndexedDB through fake-indexeddb) reached over a real port, each
// honest browser knowing its people's identity keys as the identity effects leave them. The server (or a member's
// browser gone bad, for what only a member can make) hands out what an honest one would not: a ghost device under a
// member, a device of someone who is not in the chat, a known device id with a new key, a welcome of another chat,
// and two leaves with one identity. Each is refused — not added, not joined, not applied — and shown: the chat keeps
// «Неподтверждённое устройство не добавлено: <Имя>» (`refusedDeviceText`).
import 'fake-indexeddb/auto';
import { MessageChannel } from 'node:worker_threads';
import { createCommit } from 'ts-mls/createCommit.js';
import { decodeMlsMessage, encodeMlsMessage } from 'ts-mls/message.js';
import { describe, expect, it } from 'vitest';
import {
  createIdentityKeys,
  IDENTITY_CHANGED,
  type IdentityKeys,
  signDevice,
} from '../../src/services/secretChats/crypto/identity';
import { vouch } from '../../src/services/secretChats/crypto/identity-testing';
import * as mls from '../../src/services/secretChats/crypto/mls-engine';
import {
  type ClaimedPackage,
  type PortLike,
  type SecretCrypto,
  SecretCryptoError,
  secretCryptoOverPort,
} from '../../src/services/secretChats/crypto/secret-crypto';
import { createSecretCryptoCore, serveSecretCrypto } from '../../src/services/secretChats/crypto/secret-crypto-core';
import { createSecretStore, indexedDbBackend } from '../../src/services/secretChats/crypto/secret-store';
import { refusedDeviceText } from '../../src/ui/secretChats/useSecretNotices';

let browsers = 0;
/** An honest browser: its own IndexedDB and the worker's core, over a real port. */
function browser(): SecretCrypto {
  const core = createSecretCryptoCore(createSecretStore(indexedDbBackend(`malicious-identity-${++browsers}`)));
  const { port1, port2 } = new MessageChannel();
  serveSecretCrypto(core, {
    addEventListener: (_t, l) => port2.on('message', (data) => l({ data })),
    postMessage: (m) => port2.postMessage(m),
  });
  return secretCryptoOverPort({
    addEventListener: (_t, l) => port1.on('message', (data) => l({ data })),
    postMessage: (m) => port1.postMessage(m),
  } satisfies PortLike);
}

/** A registered honest device of `userId` with `n` key packages, vouched for by its person's identity key. */
async function honest(userId: string, deviceId: string, n = 2) {
  const c = browser();
  await c.prepareDevice(userId);
  await vouch(c, userId);
  await c.setDeviceId(userId, deviceId);
  const packages = await c.makeKeyPackages(userId, n);
  return { c, userId, deviceId, claimed: (i = 0): ClaimedPackage => ({ userId, deviceId, keyPackage: packages[i]! }) };
}

/** A device made outside any honest browser: keys, and packages signed by `identity` (the server's own, say). */
async function forged(userId: string, deviceId: string, identity: IdentityKeys | null, n = 1) {
  const keys: mls.DeviceKeys = { ...(await mls.createDeviceKeys(userId)), deviceId };
  if (identity) keys.identitySignature = await signDevice(identity, userId, keys.signaturePublicKey);
  const packages = await mls.generateKeyPackages(keys, n);
  return {
    keys,
    packages,
    claimed: (i = 0): ClaimedPackage => ({ userId, deviceId, keyPackage: packages[i]!.publicPackage }),
  };
}

/** Анна's device and Борис's in one chat `conversationId`, whose members the server lists as `memberIds`. */
async function chat(conversationId: string, memberIds = ['anna', 'boris']) {
  const a1 = await honest('anna', `a-${conversationId}`);
  const b1 = await honest('boris', `b-${conversationId}`);
  const made = await a1.c.createGroup('anna', [b1.claimed()]);
  expect(made.added).toEqual([b1.deviceId]);
  await a1.c.confirmGroup('anna', made.groupId, conversationId);
  await a1.c.setMembers('anna', conversationId, memberIds);
  await b1.c.setMembers('boris', conversationId, memberIds);
  const welcome = { seq: 1, kind: 'welcome' as const, epoch: 0, deviceId: a1.deviceId, body: made.welcome! };
  expect(await b1.c.applyLogItem('boris', conversationId, welcome)).toEqual({ epoch: 1, removed: false });
  return { a1, b1, made, welcome };
}

const refusedIn = async (c: SecretCrypto, userId: string, conversationId: string) =>
  (await c.deviceNotices(userId, conversationId)).filter((n) => n.refused).map((n) => [n.userId, n.deviceId]);

/** A commit made by a member's browser that skips every check (ts-mls itself): what only a bad member can send. */
async function rogueCommit(state: Awaited<ReturnType<typeof mls.createGroupWith>>['state'], keyPackages: string[]) {
  const cs = await mls.cipherSuite();
  const proposals = keyPackages.map((b64) => {
    const m = decodeMlsMessage(mls.fromBase64(b64), 0)![0];
    if (m.wireformat !== 'mls_key_package') throw new Error('not a key package');
    return { proposalType: 'add' as const, add: { keyPackage: m.keyPackage } };
  });
  const r = await createCommit({ state, cipherSuite: cs }, { extraProposals: proposals, ratchetTreeExtension: true });
  return {
    state: r.newState,
    commit: mls.toBase64(encodeMlsMessage(r.commit)),
    welcome: r.welcome
      ? mls.toBase64(encodeMlsMessage({ version: 'mls10', wireformat: 'mls_welcome', welcome: r.welcome }))
      : null,
  };
}

describe('a delivery service that lies about devices', () => {
  it('a ghost device under a member: not added, even once the server swaps the member’s identity key; shown', async () => {
    const { a1 } = await chat('c-ghost');
    const serverIdentity = await createIdentityKeys();
    // Unsigned, and signed by the server's own key.
    const bare = await forged('boris', 'ghost-1', null);
    const signed = await forged('boris', 'ghost-2', serverIdentity);
    const made = await a1.c.commit('anna', 'c-ghost', [bare.claimed(), signed.claimed()], []);
    expect(made.added).toEqual([]);
    expect(made.untrusted).toEqual([
      { userId: 'boris', deviceId: 'ghost-1' },
      { userId: 'boris', deviceId: 'ghost-2' },
    ]);
    await a1.c.discardCommit('anna', 'c-ghost');
    // The server now lists its key as Борис's: Анна's device keeps the key it pinned, says the key changed, and the
    // ghost stays out.
    const swapped = { userId: 'boris', publicKey: mls.toBase64(serverIdentity.publicKey), version: 2 };
    expect(await a1.c.identitiesSeen('anna', [swapped])).toEqual({ changed: ['boris'] });
    const again = await forged('boris', 'ghost-3', serverIdentity);
    const retried = await a1.c.commit('anna', 'c-ghost', [again.claimed()], []);
    expect(retried.untrusted).toEqual([{ userId: 'boris', deviceId: 'ghost-3' }]);
    await a1.c.discardCommit('anna', 'c-ghost');
    expect(await refusedIn(a1.c, 'anna', 'c-ghost')).toEqual([
      ['boris', 'ghost-1'],
      ['boris', 'ghost-2'],
      ['boris', 'ghost-3'],
    ]);
    expect(refusedDeviceText('Борис')).toBe('Неподтверждённое устройство не добавлено: Борис');
  }, 60_000);

  it('a device of someone who is not a member: not added, though their own identity key signed it; shown', async () => {
    const { a1 } = await chat('c-stranger');
    const mallory = await honest('mallory', 'm1');
    const made = await a1.c.commit('anna', 'c-stranger', [mallory.claimed()], []);
    expect(made.added).toEqual([]);
    expect(made.untrusted).toEqual([{ userId: 'mallory', deviceId: 'm1' }]);
    await a1.c.discardCommit('anna', 'c-stranger');
    expect(await refusedIn(a1.c, 'anna', 'c-stranger')).toEqual([['mallory', 'm1']]);
  }, 60_000);

  it('a known device id with a new key: not added, and a commit of a bad member adding it is not applied', async () => {
    const { a1, b1 } = await chat('c-rekey');
    // The package names Борис's device and carries its real identity signature — of the old key, not of this one.
    const d = await b1.c.deviceProof('boris');
    const fake = await forged('boris', b1.deviceId, null);
    fake.keys.identitySignature = mls.fromBase64(d.identitySignature);
    const [pkg] = await mls.generateKeyPackages(fake.keys, 1);
    const claimed = { userId: 'boris', deviceId: b1.deviceId, keyPackage: pkg!.publicPackage };
    const made = await a1.c.commit('anna', 'c-rekey', [claimed], []);
    expect(made.added).toEqual([]);
    expect(made.untrusted).toEqual([{ userId: 'boris', deviceId: b1.deviceId }]);
    await a1.c.discardCommit('anna', 'c-rekey');

    // The same for another device id of Борис, added by a member's browser that checks nothing: Борис's device
    // refuses to apply the commit and says so.
    const rogue = await rogueGroup('c-rekey-2');
    const other = await forged('boris', 'b-new', null);
    other.keys.identitySignature = mls.fromBase64(d.identitySignature);
    const [otherPkg] = await mls.generateKeyPackages(other.keys, 1);
    const commit = await rogueCommit(rogue.state, [otherPkg!.publicPackage]);
    const entry = { seq: 2, kind: 'commit' as const, epoch: 1, deviceId: 'r1', body: commit.commit };
    await expect(rogue.b.c.applyLogItem('boris', 'c-rekey-2', entry)).rejects.toMatchObject({ code: 'untrusted' });
    expect(await rogue.b.c.epoch('boris', 'c-rekey-2')).toBe(1);
    expect(await refusedIn(rogue.b.c, 'boris', 'c-rekey-2')).toEqual([['boris', 'b-new']]);
  }, 60_000);

  it('a welcome of another chat: not joined, shown in the chat it was handed out for', async () => {
    const a1 = await honest('anna', 'a-w');
    const b1 = browser();
    await b1.prepareDevice('boris');
    await vouch(b1, 'boris');
    await b1.setDeviceId('boris', 'b-w');
    // A last-resort package keeps its keys after a welcome, so the same welcome would open again.
    const lastResort = await b1.makeLastResort('boris');
    const made = await a1.c.createGroup('anna', [{ userId: 'boris', deviceId: 'b-w', keyPackage: lastResort }]);
    await a1.c.confirmGroup('anna', made.groupId, 'c-w1');
    const welcome = { seq: 1, kind: 'welcome' as const, epoch: 0, deviceId: 'a-w', body: made.welcome! };
    await b1.setMembers('boris', 'c-w1', ['anna', 'boris']);
    expect(await b1.applyLogItem('boris', 'c-w1', welcome)).toEqual({ epoch: 1, removed: false });
    // The server hands the same welcome out as another chat's.
    await b1.setMembers('boris', 'c-w2', ['anna', 'boris']);
    const replay = b1.applyLogItem('boris', 'c-w2', { ...welcome, seq: 7 });
    await expect(replay).rejects.toBeInstanceOf(SecretCryptoError);
    await expect(replay).rejects.toMatchObject({ code: 'untrusted' });
    expect(await b1.epoch('boris', 'c-w2')).toBeNull();
    expect(await refusedIn(b1, 'boris', 'c-w2')).toEqual([['', '']]);
  }, 60_000);

  it('two leaves with one identity: not added from a claim, not joined from a welcome, not applied from a commit', async () => {
    const { a1 } = await chat('c-twice');
    const b2 = await honest('boris', 'b2-twice', 3);
    // The server hands out two packages of one device.
    const made = await a1.c.commit('anna', 'c-twice', [b2.claimed(0), b2.claimed(1)], []);
    expect(made.added).toEqual(['b2-twice']);
    expect(made.untrusted).toEqual([{ userId: 'boris', deviceId: 'b2-twice' }]);
    await a1.c.discardCommit('anna', 'c-twice');

    // A member's browser that checks nothing adds the device and a second leaf naming it (ts-mls itself refuses two
    // leaves with one key): the other devices refuse its commit…
    const rogue = await rogueGroup('c-twice-2');
    const b3 = await honest('boris', 'b3-twice', 3);
    const twin = await forged('boris', 'b3-twice', null);
    twin.keys.identitySignature = mls.fromBase64((await b3.c.deviceProof('boris')).identitySignature);
    const [twinPkg] = await mls.generateKeyPackages(twin.keys, 1);
    const commit = await rogueCommit(rogue.state, [b3.claimed(0).keyPackage, twinPkg!.publicPackage]);
    const entry = { seq: 2, kind: 'commit' as const, epoch: 1, deviceId: 'r1', body: commit.commit };
    await expect(rogue.b.c.applyLogItem('boris', 'c-twice-2', entry)).rejects.toMatchObject({ code: 'untrusted' });
    expect(await refusedIn(rogue.b.c, 'boris', 'c-twice-2')).toEqual([['boris', 'b3-twice']]);
    // …and the welcome of that commit does not join the device it names twice.
    await b3.c.setMembers('boris', 'c-twice-2', ['rita', 'boris']);
    await b3.c.identitiesSeen('boris', [
      { userId: 'rita', publicKey: mls.toBase64(rogue.ritaIdentity.publicKey), version: 1 },
    ]);
    const welcome = { seq: 3, kind: 'welcome' as const, epoch: 1, deviceId: 'r1', body: commit.welcome! };
    await expect(b3.c.applyLogItem('boris', 'c-twice-2', welcome)).rejects.toMatchObject({ code: 'untrusted' });
    expect(await b3.c.epoch('boris', 'c-twice-2')).toBeNull();
    expect(await refusedIn(b3.c, 'boris', 'c-twice-2')).toEqual([['boris', 'b3-twice']]);
  }, 60_000);
  it('a member whose identity key the server says changed: nothing is sent to the chat until the change is accepted', async () => {
    const { a1, b1 } = await chat('c-reset');
    const text = { v: 1 as const, kind: 'text' as const, text: 'До смены ключа' };
    expect((await a1.c.encrypt('anna', 'c-reset', text)).ciphertext).toBeTruthy();
    // The server lists a new identity key for Борис (a reset without the old one, or the server's own).
    const other = await createIdentityKeys();
    const seen = await a1.c.identitiesSeen('anna', [
      { userId: 'boris', publicKey: mls.toBase64(other.publicKey), version: 2 },
    ]);
    expect(seen.changed).toEqual(['boris']);
    expect(await a1.c.identityChanges('anna')).toEqual(['boris']);
    const paused = await a1.c.encrypt('anna', 'c-reset', { ...text, text: 'После смены' }).catch((e: unknown) => e);
    expect(paused).toBeInstanceOf(SecretCryptoError);
    expect(paused).toMatchObject({ code: 'untrusted', message: IDENTITY_CHANGED });
    // Accepting the change on Анна's device lets her write again, and Борис reads it.
    await a1.c.identityAcknowledge('anna', 'boris');
    expect(await a1.c.identityChanges('anna')).toEqual([]);
    const sent = await a1.c.encrypt('anna', 'c-reset', { ...text, text: 'После принятия' });
    const read = await b1.c.decrypt('boris', 'c-reset', 'm-after', sent.ciphertext);
    expect(read.envelope).toMatchObject({ kind: 'text', text: 'После принятия' });
  });
});

/**
 * A chat of Рита (a member whose browser checks nothing, built on the engine and ts-mls alone, her device signed by
 * her real identity key) and an honest device of Борис, who joined from her welcome.
 */
async function rogueGroup(conversationId: string) {
  const rita = await createIdentityKeys();
  const keys: mls.DeviceKeys = { ...(await mls.createDeviceKeys('rita')), deviceId: 'r1' };
  keys.identitySignature = await signDevice(rita, 'rita', keys.signaturePublicKey);
  const [own] = await mls.generateKeyPackages(keys, 1);
  const b = await honest('boris', `b-${conversationId}`);
  const made = await mls.createGroupWith(keys, own!, [b.claimed()]);
  await b.c.identitiesSeen('boris', [{ userId: 'rita', publicKey: mls.toBase64(rita.publicKey), version: 1 }]);
  await b.c.setMembers('boris', conversationId, ['rita', 'boris']);
  const welcome = { seq: 1, kind: 'welcome' as const, epoch: 0, deviceId: 'r1', body: made.welcome! };
  expect(await b.c.applyLogItem('boris', conversationId, welcome)).toEqual({ epoch: 1, removed: false });
  return { state: made.state, b, ritaIdentity: rita };
}
