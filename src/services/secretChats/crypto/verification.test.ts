// «Проверить шифрование» and «новое устройство» (docs/secret-chats.md, "Verification"), and the known answers this
// project can check honestly: ts-mls 1.6.4's npm package ships no RFC 9420 test vectors (nor its own tests), so the
// fingerprint is pinned against an independent implementation of its definition, the MLS exporter against one of
// RFC 9420's ExpandWithLabel over node's HMAC, the tree math against the RFC's own 8-leaf example, and two
// independently built group states must agree on the epoch authenticator and the exporter.
import 'fake-indexeddb/auto';
import { createHash, createHmac } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import { mlsExporter } from 'ts-mls/keySchedule.js';
import { left, parent, right, root, sibling, toNodeIndex } from 'ts-mls/treemath.js';
import { describe, expect, it } from 'vitest';
import {
  type ClaimedKeyPackage,
  cipherSuite,
  commitChanges,
  createDeviceKeys,
  createGroupWith,
  type DeviceKeys,
  FINGERPRINT_EMOJI,
  fingerprint,
  fingerprintOf,
  generateKeyPackages,
  joinFromWelcome,
  type OwnKeyPackage,
  processCommit,
  toBase64,
} from './mls-engine';
import { type PortLike, type SecretCrypto, secretCryptoOverPort } from './secret-crypto';
import { createSecretCryptoCore, serveSecretCrypto } from './secret-crypto-core';
import { createSecretStore, indexedDbBackend } from './secret-store';
import { membersOf, newDevicesOf } from './verification';
import { vouch } from './identity-testing';

const FORMAT = { digits: /^\d{5}$/, emoji: new Set<string>(FINGERPRINT_EMOJI) };
function expectFormat(fp: { digits: string[]; emoji: string[] }) {
  expect(fp.digits).toHaveLength(12);
  for (const g of fp.digits) expect(g).toMatch(FORMAT.digits);
  expect(fp.emoji).toHaveLength(8);
  for (const e of fp.emoji) expect(FORMAT.emoji.has(e)).toBe(true);
}

async function device(userId: string, deviceId: string) {
  const keys: DeviceKeys = { ...(await createDeviceKeys(userId)), deviceId };
  return { keys, packages: await generateKeyPackages(keys, 2) };
}
const claim = (d: { keys: DeviceKeys; packages: OwnKeyPackage[] }): ClaimedKeyPackage => ({
  userId: d.keys.userId,
  deviceId: d.keys.deviceId as string,
  keyPackage: d.packages[0]!.publicPackage,
});

/** The fingerprint's definition again, over node's hashes: what fingerprintOf must give. */
function referenceFingerprint(groupId: string, leaves: { id: string; key: Uint8Array }[]) {
  const lines = leaves.map((l) => `${l.id}=${Buffer.from(l.key).toString('base64')}`).sort();
  const h1 = createHash('sha512')
    .update(`beseda fingerprint v1\n${groupId}\n${lines.join('\n')}`)
    .digest();
  const digits = Array.from({ length: 12 }, (_, g) =>
    String(Number(h1.readUIntBE(g * 5, 5) % 100000)).padStart(5, '0'),
  );
  const h2 = createHash('sha256').update(h1).digest();
  const bits = [...h2.subarray(0, 6)].map((b) => b.toString(2).padStart(8, '0')).join('');
  const emoji = Array.from(
    { length: 8 },
    (_, i) => FINGERPRINT_EMOJI[Number.parseInt(bits.slice(i * 6, i * 6 + 6), 2)],
  );
  return { digits, emoji };
}

describe('fingerprint', () => {
  it('has a fixed list of 64 distinct emoji', () => {
    expect(new Set(FINGERPRINT_EMOJI).size).toBe(64);
  });

  it('gives the known answer for fixed keys, in any order of the members', async () => {
    const key = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + n) & 255);
    const leaves = [
      { userId: 'anna', deviceId: 'd1', signaturePublicKey: key(1) },
      { userId: 'boris', deviceId: 'd2', signaturePublicKey: key(2) },
    ];
    const fp = await fingerprintOf('AAECAw==', leaves);
    expectFormat(fp);
    expect(fp).toEqual(
      referenceFingerprint('AAECAw==', [
        { id: 'boris:d2', key: key(2) },
        { id: 'anna:d1', key: key(1) },
      ]),
    );
    expect(await fingerprintOf('AAECAw==', [...leaves].reverse())).toEqual(fp);
    expect(fp).toEqual(KNOWN);
    // Another key, another device or another group: another fingerprint.
    expect(await fingerprintOf('AAECAw==', [leaves[0]!, { ...leaves[1]!, signaturePublicKey: key(3) }])).not.toEqual(
      fp,
    );
    expect(await fingerprintOf('AAECAw==', [leaves[0]!])).not.toEqual(fp);
    expect(await fingerprintOf('AAECBA==', leaves)).not.toEqual(fp);
  });

  it('is the same on every device of the group and changes when a member’s device set changes', async () => {
    const a1 = await device('anna', 'a1');
    const b1 = await device('boris', 'b1');
    const b2 = await device('boris', 'b2');
    const made = await createGroupWith(a1.keys, a1.packages[0]!, [claim(b1)]);
    const sB1 = (await joinFromWelcome(b1.keys, b1.packages, made.welcome as string))!.state;
    const before = await fingerprint(made.state);
    expectFormat(before);
    expect(await fingerprint(sB1)).toEqual(before);

    // Борис's second device, added by Анна's commit: a notice for Борис, a new fingerprint everywhere.
    const add = await commitChanges(made.state, [claim(b2)], []);
    const sB1after = (await processCommit(sB1, add.commit)).state;
    const sB2 = (await joinFromWelcome(b2.keys, b2.packages, add.welcome as string))!.state;
    const after = await fingerprint(add.state);
    expect(after).not.toEqual(before);
    expect(await fingerprint(sB1after)).toEqual(after);
    expect(await fingerprint(sB2)).toEqual(after);
    expect(membersOf(sB2)).toEqual([
      { userId: 'anna', deviceIds: ['a1'] },
      { userId: 'boris', deviceIds: ['b1', 'b2'] },
    ]);
    expect(newDevicesOf(sB1, sB1after, '2026-01-01T00:00:00.000Z')).toEqual([
      { epoch: 2, at: '2026-01-01T00:00:00.000Z', userId: 'boris', deviceId: 'b2' },
    ]);
    // A member with no device yet joins with their first: it is named as the first one.
    const c1 = await device('vera', 'c1');
    const more = await commitChanges(add.state, [claim(c1)], []);
    expect(newDevicesOf(add.state, more.state, 'x')).toEqual([
      { epoch: 3, at: 'x', userId: 'vera', deviceId: 'c1', first: true },
    ]);

    // Removing the device gives another fingerprint again.
    const removal = await commitChanges(add.state, [], ['b2']);
    expect(await fingerprint(removal.state)).not.toEqual(after);

    // Two independently built states of one epoch agree on the epoch authenticator and the exporter.
    const cs = await cipherSuite();
    const ctx = new TextEncoder().encode('ctx');
    for (const s of [sB1after, sB2])
      expect(toBase64(s.keySchedule.epochAuthenticator)).toBe(toBase64(add.state.keySchedule.epochAuthenticator));
    const exported = await Promise.all(
      [add.state, sB1after, sB2].map((s) => mlsExporter(s.keySchedule.exporterSecret, 'beseda test', ctx, 32, cs)),
    );
    expect(new Set(exported.map(toBase64)).size).toBe(1);
  });
});

/** HKDF-Expand (RFC 5869) over node's HMAC-SHA256. */
function hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array {
  const out: Buffer[] = [];
  let t = Buffer.alloc(0);
  for (let i = 1; Buffer.concat(out).length < length; i++) {
    t = createHmac('sha256', prk)
      .update(Buffer.concat([t, info, Buffer.from([i])]))
      .digest();
    out.push(t);
  }
  return new Uint8Array(Buffer.concat(out).subarray(0, length));
}
/** RFC 9420 section 8, ExpandWithLabel: KDFLabel is uint16 length, opaque label<V> = "MLS 1.0 " + Label, opaque context<V>. */
function expandWithLabel(secret: Uint8Array, label: string, context: Uint8Array, length: number) {
  const l = Buffer.from(`MLS 1.0 ${label}`);
  // Vectors here are under 64 bytes: a one-byte variable-length prefix (RFC 9000, section 16).
  const info = Buffer.concat([
    Buffer.from([length >> 8, length & 255, l.length]),
    l,
    Buffer.from([context.length]),
    context,
  ]);
  return hkdfExpand(secret, info, length);
}

describe('RFC 9420 key schedule and tree math (ciphersuite 1)', () => {
  it('MLS-Exporter is ExpandWithLabel(DeriveSecret(exporter_secret, label), "exported", Hash(context), length)', async () => {
    const cs = await cipherSuite();
    const secret = Uint8Array.from({ length: 32 }, (_, i) => i);
    const context = new TextEncoder().encode('context');
    const derived = expandWithLabel(secret, 'beseda call', new Uint8Array(0), 32);
    const expected = expandWithLabel(derived, 'exported', createHash('sha256').update(context).digest(), 32);
    expect(toBase64(await mlsExporter(secret, 'beseda call', context, 32, cs))).toBe(toBase64(expected));
  });

  it('tree math gives RFC 9420’s 8-leaf tree (section 4.2, Appendix C)', () => {
    const n = toNodeIndex;
    expect(root(8)).toBe(7);
    expect([left(n(7)), right(n(7)), left(n(3)), right(n(11))]).toEqual([3, 11, 1, 13]);
    expect([parent(n(0), 8), parent(n(1), 8), parent(n(3), 8), parent(n(11), 8)]).toEqual([1, 3, 7, 7]);
    expect([sibling(n(0), 8), sibling(n(3), 8), sibling(n(13), 8)]).toEqual([2, 11, 9]);
    expect(root(5)).toBe(7);
  });
});

let browsers = 0;
/** A browser: its IndexedDB (by name, so a reload opens the same) and core, through the worker protocol. */
function browser(name = `verify-${++browsers}`): SecretCrypto {
  const core = createSecretCryptoCore(createSecretStore(indexedDbBackend(name)));
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
async function register(c: SecretCrypto, userId: string, deviceId: string) {
  await c.prepareDevice(userId);
  await vouch(c, userId);
  await c.setDeviceId(userId, deviceId);
  const [kp] = await c.makeKeyPackages(userId, 1);
  return { userId, deviceId, keyPackage: kp as string };
}

describe('verification in the crypto service', () => {
  it('lists devices, matches across devices, and keeps «новое устройство» notices across a reload', async () => {
    const a1 = browser();
    const bName = `verify-b1-${++browsers}`;
    const b1 = browser(bName);
    const b2 = browser();
    await register(a1, 'anna', 'a1');
    const kb1 = await register(b1, 'boris', 'b1');
    const made = await a1.createGroup('anna', [kb1]);
    await a1.confirmGroup('anna', made.groupId, 'c1');
    expect((await b1.join('boris', 'c1', made.welcome as string)).joined).toBe(true);
    const first = await a1.verification('anna', 'c1');
    expect(first.ownDeviceId).toBe('a1');
    expect(first.members).toEqual([
      { userId: 'anna', deviceIds: ['a1'] },
      { userId: 'boris', deviceIds: ['b1'] },
    ]);
    expect((await b1.verification('boris', 'c1')).fingerprint).toEqual(first.fingerprint);
    expect(await a1.deviceNotices('anna', 'c1')).toEqual([]);

    // Анна's device adds Борис's new one; Борис's first device applies the commit from the log.
    const kb2 = await register(b2, 'boris', 'b2');
    const commit = await a1.commit('anna', 'c1', [kb2], []);
    await a1.confirmCommit('anna', 'c1');
    const at = '2026-11-25T12:00:00.000Z';
    await b1.applyLogItem('boris', 'c1', {
      seq: 5,
      kind: 'commit',
      epoch: commit.epoch,
      deviceId: 'a1',
      body: commit.commit,
      createdAt: at,
    });
    expect((await b2.join('boris', 'c1', commit.welcome as string)).joined).toBe(true);
    const [va, vb1, vb2] = await Promise.all([
      a1.verification('anna', 'c1'),
      b1.verification('boris', 'c1'),
      b2.verification('boris', 'c1'),
    ]);
    expect(va.fingerprint).not.toEqual(first.fingerprint);
    expect(vb1.fingerprint).toEqual(va.fingerprint);
    expect(vb2.fingerprint).toEqual(va.fingerprint);
    expect(vb2.members[1]).toEqual({ userId: 'boris', deviceIds: ['b1', 'b2'] });
    expect(vb2.ownDeviceId).toBe('b2');
    expect((await a1.deviceNotices('anna', 'c1')).map((n) => [n.userId, n.deviceId, n.epoch])).toEqual([
      ['boris', 'b2', 2],
    ]);
    expect(await b1.deviceNotices('boris', 'c1')).toEqual([{ epoch: 2, at, userId: 'boris', deviceId: 'b2' }]);
    // The new device itself joined by its welcome: no notice of itself.
    expect(await b2.deviceNotices('boris', 'c1')).toEqual([]);
    // A reload (a new core over the same IndexedDB) still has the notice, and the group list is unchanged.
    expect(await browser(bName).deviceNotices('boris', 'c1')).toEqual([
      { epoch: 2, at, userId: 'boris', deviceId: 'b2' },
    ]);
    expect(await createSecretStore(indexedDbBackend(bName)).groupIds('boris')).toEqual(['c1']);
  });
});

/** Pinned: devices of different versions of the app must show the same fingerprint for the same group. */
const KNOWN = {
  digits: ['31679', '12282', '03789', '14216', '36273', '63569', '11943', '56563', '99702', '22631', '91458', '36006'],
  emoji: ['🐔', '🌽', '🐍', '🐶', '🐸', '🐸', '🎈', '🦊'],
};
