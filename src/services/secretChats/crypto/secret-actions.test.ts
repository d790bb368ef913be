// Edits and reactions in secret chats: the pure rules (secret-actions.ts), then through the real crypto core (real
// ts-mls, the sealed store on fake-indexeddb): applied on decrypt and when sent, persisted, kept while their target
// is unread, order-independent, an edit by someone else ignored, and a deleted message forgotten.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { SecretEnvelope } from '../../../machines/secretChats/secretChat/secretChat.protocol';
import { applyControl, reactionsOf, shownOf, timeOfId } from './secret-actions';
import type { SecretCrypto, SecretPlaintext } from './secret-crypto';
import { createSecretCryptoCore } from './secret-crypto-core';
import { createSecretStore, indexedDbBackend } from './secret-store';
import { vouch } from './identity-testing';

/** UUIDv7-shaped ids whose time is `ms`. */
const idAt = (ms: number, tail = '0') =>
  `${ms
    .toString(16)
    .padStart(12, '0')
    .replace(/^(.{8})(.{4})$/, '$1-$2')}-7000-8000-${tail.padStart(12, '0')}`;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const M1 = idAt(T0);
const E1 = idAt(T0 + 1000);
const E2 = idAt(T0 + 2000);
const R1 = idAt(T0 + 3000);
const R2 = idAt(T0 + 4000);
const R3 = idAt(T0 + 5000);

const kept = (messageId: string, senderUserId: string, envelope: SecretEnvelope): SecretPlaintext => ({
  messageId,
  conversationId: 'c1',
  senderUserId,
  senderDeviceId: `${senderUserId}-d`,
  epoch: 1,
  envelope,
});
const text = kept(M1, 'alice', { v: 1, kind: 'text', text: 'привет' });
const edit = (id: string, by: string, t: string) => kept(id, by, { v: 1, kind: 'edit', targetId: M1, text: t });
const react = (id: string, by: string, emoji: string) => kept(id, by, { v: 1, kind: 'reaction', targetId: M1, emoji });

describe('applying edits and reactions', () => {
  it('reads the time of a UUIDv7 id, and nothing of another', () => {
    expect(timeOfId(E1)).toBe(new Date(T0 + 1000).toISOString());
    expect(timeOfId('m1')).toBeNull();
  });

  it("takes the author's latest edit whatever the order, and ignores anyone else's", () => {
    const a = applyControl(applyControl(text, edit(E2, 'alice', 'второй'))!, edit(E1, 'alice', 'первый'));
    expect(a).toBeNull();
    const b = applyControl(applyControl(text, edit(E1, 'alice', 'первый'))!, edit(E2, 'alice', 'второй'))!;
    expect(shownOf(b)).toEqual({ text: 'второй', edited: new Date(T0 + 2000).toISOString(), reactions: [] });
    expect(applyControl(text, edit(E1, 'bob', 'чужой'))).toBeNull();
    expect(shownOf(text)).toEqual({ text: 'привет', edited: null, reactions: [] });
  });

  it('toggles each sender’s reaction in id order, once per control message', () => {
    let t = text;
    for (const c of [react(R2, 'bob', '👍'), react(R1, 'bob', '👍'), react(R3, 'alice', '❤️'), react(R1, 'bob', '👍')])
      t = applyControl(t, c) ?? t;
    // bob on then off (R1, R2 whatever the arrival order), alice's heart; R1 twice counts once.
    expect(reactionsOf(t.actions)).toEqual([{ emoji: '❤️', userIds: ['alice'] }]);
    t = applyControl(t, react(idAt(T0 + 6000), 'bob', '❤️'))!;
    t = applyControl(t, react(idAt(T0 + 7000), 'carol', '😮'))!;
    expect(shownOf(t).reactions).toEqual([
      { emoji: '❤️', userIds: ['alice', 'bob'] },
      { emoji: '😮', userIds: ['carol'] },
    ]);
  });

  it('applies nothing to another message or to an edit', () => {
    const other = kept(idAt(T0 + 9), 'alice', { v: 1, kind: 'text', text: 'другое' });
    expect(applyControl(other, edit(E1, 'alice', 'x'))).toBeNull();
    expect(applyControl(edit(E2, 'alice', 'y'), edit(E1, 'alice', 'x'))).toBeNull();
  });
});

let browsers = 0;
const browser = (): SecretCrypto =>
  createSecretCryptoCore(createSecretStore(indexedDbBackend(`actions-${++browsers}`)));

/** Alice's device a1 and Bob's b1 in one group (conversation c1). */
async function pair() {
  const a1 = browser();
  const b1 = browser();
  await a1.prepareDevice('alice');
  await vouch(a1, 'alice');
  await a1.setDeviceId('alice', 'a1');
  await b1.prepareDevice('bob');
  await vouch(b1, 'bob');
  await b1.setDeviceId('bob', 'b1');
  const [kb1] = await b1.makeKeyPackages('bob', 1);
  const made = await a1.createGroup('alice', [{ userId: 'bob', deviceId: 'b1', keyPackage: kb1! }]);
  await a1.confirmGroup('alice', made.groupId, 'c1');
  await b1.applyLogItem('bob', 'c1', { seq: 1, kind: 'welcome', epoch: 0, deviceId: 'a1', body: made.welcome! });
  /** Alice sends: encrypted, kept as sent (and applied on her device). */
  const send = async (messageId: string, envelope: SecretEnvelope) => {
    const sent = await a1.encrypt('alice', 'c1', envelope);
    // Kept as sent: version 2, with its own id and its target's.
    await a1.keepSent('alice', {
      ...kept(messageId, 'alice', sent.envelope),
      senderDeviceId: 'a1',
      epoch: sent.epoch,
    });
    return { ciphertext: sent.ciphertext, id: sent.envelope.id };
  };
  return { a1, b1, send };
}

describe('edits and reactions through the crypto core', () => {
  it('applies them on both devices, keeps them across a reload, and waits for a target not read yet', async () => {
    const { a1, b1, send } = await pair();
    const { ciphertext: c1 } = await send(M1, { v: 1, kind: 'text', text: 'привет' });
    const { ciphertext: c2, id: editId } = await send(E1, { v: 1, kind: 'edit', targetId: M1, text: 'привет всем' });
    const { ciphertext: c3 } = await send(R1, { v: 1, kind: 'reaction', targetId: M1, emoji: '👍' });
    // Alice's own device: applied as sent; the edit's time is its sender-chosen id's.
    const mine = await a1.decrypt('alice', 'c1', M1, '');
    expect(shownOf(mine)).toEqual({
      text: 'привет всем',
      edited: timeOfId(editId!),
      reactions: [{ emoji: '👍', userIds: ['alice'] }],
    });
    // Bob reads the edit and the reaction before the text: they wait, then apply when it is read.
    await b1.decrypt('bob', 'c1', E1, c2);
    await b1.decrypt('bob', 'c1', R1, c3);
    const read = await b1.decrypt('bob', 'c1', M1, c1);
    expect(shownOf(read).text).toBe('привет всем');
    expect(shownOf(read).reactions).toEqual([{ emoji: '👍', userIds: ['alice'] }]);
    // Asked again (a reload): the kept plaintext with what was applied.
    expect(shownOf(await b1.decrypt('bob', 'c1', M1, '')).text).toBe('привет всем');
    // The same store opened anew (another page load): still there.
    const reloaded = createSecretCryptoCore(createSecretStore(indexedDbBackend(`actions-${browsers}`)));
    expect(shownOf(await reloaded.decrypt('bob', 'c1', M1, '')).reactions).toHaveLength(1);
  });

  it("ignores an edit of someone else's message, and forgets a deleted one", async () => {
    const { a1, b1, send } = await pair();
    const { ciphertext: c1 } = await send(M1, { v: 1, kind: 'text', text: 'привет' });
    await b1.decrypt('bob', 'c1', M1, c1);
    // Bob "edits" Alice's message: his device sends it, and hers refuses to apply it.
    const forged = await b1.encrypt('bob', 'c1', { v: 1, kind: 'edit', targetId: M1, text: 'подделка' });
    const { ciphertext } = forged;
    await b1.keepSent('bob', kept(E1, 'bob', forged.envelope));
    await a1.decrypt('alice', 'c1', E1, ciphertext);
    expect(shownOf(await a1.decrypt('alice', 'c1', M1, '')).text).toBe('привет');
    expect(shownOf(await b1.decrypt('bob', 'c1', M1, '')).text).toBe('привет');
    // Deleted for everyone: the plaintext goes, and the message no longer reads.
    await b1.forget('bob', 'c1', M1);
    await expect(b1.decrypt('bob', 'c1', M1, '')).rejects.toThrow();
    expect((await b1.plaintexts('bob', 'c1')).map((p) => p.messageId)).not.toContain(M1);
  });
});
