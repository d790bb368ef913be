import 'fake-indexeddb/auto';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { type PortLike, type SecretCrypto, SecretCryptoError, secretCryptoOverPort } from './secret-crypto';
import { createSecretCryptoCore, serveSecretCrypto } from './secret-crypto-core';
import { createSecretStore, indexedDbBackend } from './secret-store';
import { vouch } from './identity-testing';

let browsers = 0;
/** A browser: its own IndexedDB and core, reached through the request/response protocol over a real port. */
function browser(): SecretCrypto {
  const core = createSecretCryptoCore(createSecretStore(indexedDbBackend(`browser-${++browsers}`)));
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
  const first = await c.prepareDevice(userId);
  await vouch(c, userId);
  expect(first.deviceId).toBeNull();
  expect(first.registration).toMatch(/^[A-Za-z0-9+/]+=*$/);
  await c.setDeviceId(userId, deviceId);
  expect(await c.prepareDevice(userId)).toEqual({ deviceId, registration: null });
  return c.makeKeyPackages(userId, 2);
}

describe('secret crypto service (worker protocol over a port, real ts-mls and IndexedDB)', () => {
  it('creates, joins, sends, reads once, removes a device, and answers failures in Russian', async () => {
    const a1 = browser();
    const b1 = browser();
    const b2 = browser();
    await register(a1, 'alice', 'a1');
    const [kb1] = await register(b1, 'bob', 'b1');
    const [kb2] = await register(b2, 'bob', 'b2');
    const made = await a1.createGroup('alice', [
      { userId: 'bob', deviceId: 'b1', keyPackage: kb1! },
      { userId: 'bob', deviceId: 'b2', keyPackage: kb2! },
    ]);
    expect(made.added).toEqual(['b1', 'b2']);
    await a1.confirmGroup('alice', made.groupId, 'c1');
    expect(await a1.epoch('alice', 'c1')).toBe(1);
    const welcome = { seq: 1, kind: 'welcome' as const, epoch: 0, deviceId: 'a1', body: made.welcome! };
    expect(await b1.applyLogItem('bob', 'c1', welcome)).toEqual({ epoch: 1, removed: false });
    expect(await b2.applyLogItem('bob', 'c1', welcome)).toEqual({ epoch: 1, removed: false });

    const sent = await a1.encrypt('alice', 'c1', { v: 1, kind: 'text', text: 'привет' });
    expect(sent.epoch).toBe(1);
    await a1.keepSent('alice', {
      messageId: 'm1',
      conversationId: 'c1',
      senderUserId: 'alice',
      senderDeviceId: 'a1',
      epoch: 1,
      envelope: { v: 1, kind: 'text', text: 'привет' },
    });
    const read = await b1.decrypt('bob', 'c1', 'm1', sent.ciphertext);
    expect(read).toMatchObject({ senderUserId: 'alice', senderDeviceId: 'a1', envelope: { text: 'привет' } });
    // Read again (a reload): the kept plaintext, not a second decryption.
    expect(await b1.decrypt('bob', 'c1', 'm1', sent.ciphertext)).toEqual(read);
    expect((await a1.plaintexts('alice', 'c1')).map((p) => p.envelope)).toEqual([
      { v: 1, kind: 'text', text: 'привет' },
    ]);
    expect(await b1.fingerprint('bob', 'c1')).toEqual(await a1.fingerprint('alice', 'c1'));
    expect((await b1.callKey('bob', 'c1')).key).toEqual((await a1.callKey('alice', 'c1')).key);

    // A1 removes B2; the server takes it; the log brings it to the others.
    const removal = await a1.commit('alice', 'c1', [], ['b2', 'zz']);
    expect(removal).toMatchObject({ epoch: 1, removed: ['b2'], welcome: null });
    await a1.confirmCommit('alice', 'c1');
    const entry = { seq: 2, kind: 'commit' as const, epoch: 1, deviceId: 'a1', body: removal.commit };
    expect(await b1.applyLogItem('bob', 'c1', entry)).toEqual({ epoch: 2, removed: false });
    expect(await b2.applyLogItem('bob', 'c1', entry)).toMatchObject({ removed: true });
    expect(await b2.epoch('bob', 'c1')).toBeNull();
    // Applying an entry again does nothing (already applied).
    expect(await b1.applyLogItem('bob', 'c1', entry)).toEqual({ epoch: 2, removed: false });
    const after = await a1.encrypt('alice', 'c1', { v: 1, kind: 'text', text: 'без b2' });
    await expect(b2.decrypt('bob', 'c1', 'm2', after.ciphertext)).rejects.toBeInstanceOf(SecretCryptoError);
    expect((await b1.decrypt('bob', 'c1', 'm2', after.ciphertext)).envelope).toEqual({
      v: 2,
      id: after.envelope.id,
      kind: 'text',
      text: 'без b2',
    });

    // A commit made in an epoch another device's commit already ended: the log's commit wins, ours is stale.
    const mine = await b1.commit('bob', 'c1', [], []);
    const theirs = await a1.commit('alice', 'c1', [], []);
    await a1.confirmCommit('alice', 'c1');
    expect(
      await b1.applyLogItem('bob', 'c1', { seq: 3, kind: 'commit', epoch: 2, deviceId: 'a1', body: theirs.commit }),
    ).toEqual({ epoch: 3, removed: false });
    await expect(b1.confirmCommit('bob', 'c1')).rejects.toMatchObject({ code: 'stale' });
    expect(mine.epoch).toBe(2);

    const err = await b1.decrypt('bob', 'nope', 'm3', after.ciphertext).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretCryptoError);
    expect(err).toMatchObject({ code: 'notMember', message: 'Это устройство не состоит в секретном чате' });

    await b1.clear('bob');
    expect(await b1.plaintexts('bob', 'c1')).toEqual([]);
    expect(await b1.epoch('bob', 'c1')).toBeNull();
  }, 60_000);

  it('a group of one for a friend with no device: what was held goes again as copies once their device is in', async () => {
    const a1 = browser();
    await register(a1, 'alice', 'a1');
    // Борис has no device: the group is Анна's device alone (an empty commit, epoch 1 as on the server).
    const made = await a1.createGroup('alice', []);
    expect(made).toMatchObject({ added: [], welcome: null });
    await a1.confirmGroup('alice', made.groupId, 'c1');
    expect(await a1.epoch('alice', 'c1')).toBe(1);
    const texts = ['первое', 'второе'];
    const sent: string[] = [];
    for (const [i, text] of texts.entries()) {
      const r = await a1.encrypt('alice', 'c1', { v: 1, kind: 'text', text });
      sent.push(r.ciphertext);
      const messageId = `0190000${i}-0000-7000-8000-000000000000`;
      await a1.keepSent('alice', {
        messageId,
        conversationId: 'c1',
        senderUserId: 'alice',
        senderDeviceId: 'a1',
        epoch: r.epoch,
        envelope: {
          v: 1,
          kind: 'text',
          text,
          ...(i === 1 ? { replyToId: '01900000-0000-7000-8000-000000000000' } : {}),
        },
      });
      await a1.hold('alice', 'c1', messageId, ['bob']);
    }
    // Nothing to release while Борис is not in the group.
    expect(await a1.release('alice', 'c1')).toEqual([]);

    // His first device registers with a last-resort package; the adder gets that one (no other left).
    const b1 = browser();
    await b1.prepareDevice('bob');
    await vouch(b1, 'bob');
    await b1.setDeviceId('bob', 'b1');
    const lastResort = await b1.makeLastResort('bob');
    const added = await a1.commit('alice', 'c1', [{ userId: 'bob', deviceId: 'b1', keyPackage: lastResort }], []);
    expect(added.added).toEqual(['b1']);
    await a1.confirmCommit('alice', 'c1');
    const welcome = { seq: 2, kind: 'welcome' as const, epoch: 1, deviceId: 'a1', body: added.welcome! };
    expect(await b1.applyLogItem('bob', 'c1', welcome)).toEqual({ epoch: 2, removed: false });
    // The messages of epoch 1 are not his to read…
    await expect(b1.decrypt('bob', 'c1', '01900000-0000-7000-8000-000000000000', sent[0]!)).rejects.toBeInstanceOf(
      SecretCryptoError,
    );
    // …so Анна's device sends them again, once and in order.
    const copies = await a1.release('alice', 'c1');
    expect(copies.map((c) => c.envelope)).toEqual([
      { v: 1, kind: 'copy', targetId: '01900000-0000-7000-8000-000000000000', text: 'первое' },
      {
        v: 1,
        kind: 'copy',
        targetId: '01900001-0000-7000-8000-000000000000',
        text: 'второе',
        replyToId: '01900000-0000-7000-8000-000000000000',
      },
    ]);
    expect(await a1.release('alice', 'c1')).toEqual([]);
    for (const [i, c] of copies.entries()) {
      const r = await a1.encrypt('alice', 'c1', c.envelope);
      const copyId = `0190001${i}-0000-7000-8000-000000000000`;
      await b1.decrypt('bob', 'c1', copyId, r.ciphertext);
    }
    // Борис reads each under its own id, from Анна (MLS authenticated the copy's sender).
    const kept = await b1.decrypt('bob', 'c1', '01900001-0000-7000-8000-000000000000', '');
    expect(kept).toMatchObject({ senderUserId: 'alice', envelope: { kind: 'text', text: 'второе' } });
    // A copy never overwrites what a device read itself.
    const r = await a1.encrypt('alice', 'c1', {
      v: 1,
      kind: 'copy',
      targetId: '01900001-0000-7000-8000-000000000000',
      text: 'подмена',
    });
    await b1.decrypt('bob', 'c1', '01900020-0000-7000-8000-000000000000', r.ciphertext);
    expect((await b1.decrypt('bob', 'c1', '01900001-0000-7000-8000-000000000000', '')).envelope).toMatchObject({
      text: 'второе',
    });
    // The last-resort package's keys stay: handed out again, it still joins this device to another group.
    const a2 = browser();
    await register(a2, 'alice', 'a2');
    const other = await a2.createGroup('alice', [{ userId: 'bob', deviceId: 'b1', keyPackage: lastResort }]);
    await a2.confirmGroup('alice', other.groupId, 'c2');
    const otherWelcome = { seq: 9, kind: 'welcome' as const, epoch: 0, deviceId: 'a2', body: other.welcome! };
    expect(await b1.applyLogItem('bob', 'c2', otherWelcome)).toEqual({ epoch: 1, removed: false });
  }, 60_000);
});
