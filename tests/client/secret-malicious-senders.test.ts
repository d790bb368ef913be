// A delivery service that lies, against the clients' own code: each device is the crypto worker's core (real
// ts-mls, the sealed store on fake-indexeddb) and the views' rules (shownText, messageRows), and the "server" here
// is a log and a message list this file tampers with on purpose. Every case checks that the attack is refused and
// that the device says so (docs/secret-chats.md "What the server can still do").
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  SecretCryptoError,
  type SecretCrypto,
  type LogItem as SecretLogItem,
} from '../../src/services/secretChats/crypto/secret-crypto';
import { vouch } from '../../src/services/secretChats/crypto/identity-testing';
import { createSecretCryptoCore } from '../../src/services/secretChats/crypto/secret-crypto-core';
import {
  createSecretStore,
  indexedDbBackend,
  type SecretStore,
} from '../../src/services/secretChats/crypto/secret-store';
import * as mls from '../../src/services/secretChats/crypto/mls-engine';
import { shownOf } from '../../src/services/secretChats/crypto/secret-actions';
import type { SecretPlaintext } from '../../src/services/secretChats/crypto/secret-crypto';
import {
  FORGED_NOTICE,
  type SecretText,
  shownText,
} from '../../src/machines/secretChats/secretDevice/secretDevice.protocol';
import type { SecretEnvelope } from '../../src/machines/secretChats/secretChat/secretChat.protocol';
import { messageRows } from '../../src/ui/conversation/view-model';
import { menuItems } from '../../src/ui/conversation/message-actions';
import { message, person } from './chat-fixtures';

let n = 0;
interface Device {
  userId: string;
  deviceId: string;
  core: SecretCrypto;
  store: SecretStore;
}
async function device(userId: string, deviceId: string): Promise<Device> {
  const store = createSecretStore(indexedDbBackend(`malicious-senders-${++n}`));
  const core = createSecretCryptoCore(store);
  await core.prepareDevice(userId);
  await vouch(core, userId);
  await core.setDeviceId(userId, deviceId);
  return { userId, deviceId, core, store };
}

/** Анна (a1), Борис (b1) and Вера (v1) in one secret chat, c1; the "server" keeps its log and its messages. */
async function chat() {
  const a1 = await device('anna', 'a1');
  const b1 = await device('boris', 'b1');
  const v1 = await device('vera', 'v1');
  const claimed = [];
  for (const d of [b1, v1]) {
    const [keyPackage] = await d.core.makeKeyPackages(d.userId, 1);
    claimed.push({ userId: d.userId, deviceId: d.deviceId, keyPackage: keyPackage! });
  }
  const made = await a1.core.createGroup('anna', claimed);
  await a1.core.confirmGroup('anna', made.groupId, 'c1');
  const log: SecretLogItem[] = [{ seq: 1, kind: 'welcome', epoch: 0, deviceId: 'a1', body: made.welcome! }];
  for (const d of [b1, v1]) await d.core.applyLogItem(d.userId, 'c1', log[0]!);
  let seq = 1;
  let serverIds = 0;
  /** A device sends; the server gives the message an id and stores its ciphertext under the real sender. */
  async function send(from: Device, envelope: SecretEnvelope) {
    const sent = await from.core.encrypt(from.userId, 'c1', envelope);
    const messageId = `s${++serverIds}`;
    await from.core.keepSent(from.userId, {
      messageId,
      conversationId: 'c1',
      senderUserId: from.userId,
      senderDeviceId: from.deviceId,
      epoch: sent.epoch,
      envelope: sent.envelope,
    });
    return { messageId, ciphertext: sent.ciphertext, senderId: from.userId };
  }
  /** A device commits (adds and removes nothing: an update of its own leaf, with a path); the server logs it. */
  async function update(from: Device) {
    const c = await from.core.commit(from.userId, 'c1', [], []);
    await from.core.confirmCommit(from.userId, 'c1');
    const item: SecretLogItem = { seq: ++seq, kind: 'commit', epoch: c.epoch, deviceId: from.deviceId, body: c.commit };
    log.push(item);
    return item;
  }
  return { a1, b1, v1, send, update, log };
}

/** What a device shows of a message: its row as the conversation view builds it, from what the device read. */
function rowOf(reader: Device, m: { messageId: string; senderId: string }, read: SecretPlaintext) {
  const shown = shownOf(read);
  const known: SecretText = {
    status: 'text',
    text: shown.text,
    replyToId: null,
    from: read.senderUserId,
    ...(shown.reactions.length ? { reactions: shown.reactions } : {}),
  };
  const people = new Map([
    ['anna', person('anna', 'Анна')],
    ['boris', person('boris', 'Борис')],
    ['vera', person('vera', 'Вера')],
  ]);
  const [row] = messageRows(
    [message(m.messageId, m.senderId, 1, { type: 'ENCRYPTED', content: 'QUJD', conversationId: 'c1' })],
    [],
    { me: reader.userId, conversationId: 'c1', isGroup: true, people, secret: { [m.messageId]: known } },
  );
  return { row: row!, known: shownText(known, m.senderId) };
}

describe('a delivery service that lies about senders and message ids', () => {
  it('credits Анна’s words to Борис: every device shows «Сообщение не прошло проверку», under nobody’s name', async () => {
    const { a1, b1, v1, send } = await chat();
    const real = await send(a1, { v: 1, kind: 'text', text: 'Встречаемся в семь' });
    // The server names Борис as the sender of Анна's ciphertext.
    const forged = { ...real, senderId: 'boris' };
    for (const reader of [b1, v1]) {
      const read = await reader.core.decrypt(reader.userId, 'c1', forged.messageId, forged.ciphertext);
      // MLS authenticated Анна's device, whatever the server says.
      expect(read).toMatchObject({ senderUserId: 'anna', senderDeviceId: 'a1' });
      const { row, known } = rowOf(reader, forged, read);
      expect(known).toEqual({ status: 'forged' });
      expect(row.unverified).toBe(true);
      // Not Борис's words, nor Анна's: the bubble has no text, nothing to quote, edit or react to.
      expect(row.text).toBe('');
      expect(menuItems(row, { canPin: false, pinned: new Set() }).map((i) => i.action)).not.toContain('quote');
    }
    expect(FORGED_NOTICE).toBe('Сообщение не прошло проверку');
    // Under its true sender it reads as usual (the check can pass).
    const read = await v1.core.decrypt('vera', 'c1', real.messageId, '');
    expect(rowOf(v1, real, read).known).toMatchObject({ status: 'text', text: 'Встречаемся в семь' });
  });

  it('swaps two messages’ server ids: an edit and a reaction stay on the message they were made for', async () => {
    const { a1, b1, v1, send } = await chat();
    const first = await send(a1, { v: 1, kind: 'text', text: 'первое' });
    const second = await send(a1, { v: 1, kind: 'text', text: 'второе' });
    // Борис reads both (honestly delivered) and reacts to the first; Анна edits the first. The views name the
    // server's ids; the devices seal the senders' ids of the targets into the ciphertexts.
    await b1.core.decrypt('boris', 'c1', first.messageId, first.ciphertext);
    await b1.core.decrypt('boris', 'c1', second.messageId, second.ciphertext);
    const reaction = await send(b1, { v: 1, kind: 'reaction', targetId: first.messageId, emoji: '👍' });
    const edit = await send(a1, { v: 1, kind: 'edit', targetId: first.messageId, text: 'первое, исправлено' });
    // To Вера the server delivers each text under the other's id, then the controls.
    await v1.core.decrypt('vera', 'c1', second.messageId, first.ciphertext);
    await v1.core.decrypt('vera', 'c1', first.messageId, second.ciphertext);
    await v1.core.decrypt('vera', 'c1', reaction.messageId, reaction.ciphertext);
    await v1.core.decrypt('vera', 'c1', edit.messageId, edit.ciphertext);
    const underFirst = shownOf(await v1.core.decrypt('vera', 'c1', first.messageId, ''));
    const underSecond = shownOf(await v1.core.decrypt('vera', 'c1', second.messageId, ''));
    // The message the server now calls "first" is the second text: neither the edit nor the reaction moved to it.
    expect(underFirst).toMatchObject({ text: 'второе', edited: null, reactions: [] });
    // They apply to the text they were made for, wherever the server put it.
    expect(underSecond).toMatchObject({ text: 'первое, исправлено', reactions: [{ emoji: '👍', userIds: ['boris'] }] });
  });

  it('replays a text under a new server id: refused with a reason, the first one unchanged', async () => {
    const { a1, v1, send } = await chat();
    const m = await send(a1, { v: 1, kind: 'text', text: 'один раз' });
    await v1.core.decrypt('vera', 'c1', m.messageId, m.ciphertext);
    const again = await v1.core.decrypt('vera', 'c1', 's-replayed', m.ciphertext).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(SecretCryptoError);
    expect((again as SecretCryptoError).message).toMatch(/[а-я]/);
    expect((await v1.core.plaintexts('vera', 'c1')).map((p) => p.messageId)).toEqual([m.messageId]);
  });

  it('an edit by someone other than the author is not applied, even under a server id that names the author', async () => {
    const { a1, b1, v1, send } = await chat();
    const text = await send(a1, { v: 1, kind: 'text', text: 'моё' });
    await b1.core.decrypt('boris', 'c1', text.messageId, text.ciphertext);
    const fake = await send(b1, { v: 1, kind: 'edit', targetId: text.messageId, text: 'подделка' });
    await v1.core.decrypt('vera', 'c1', text.messageId, text.ciphertext);
    // The server says Анна sent the edit: MLS says Борис, and only the author edits.
    await v1.core.decrypt('vera', 'c1', fake.messageId, fake.ciphertext);
    expect(shownOf(await v1.core.decrypt('vera', 'c1', text.messageId, '')).text).toBe('моё');
  });
});

describe('a delivery service that replays and reorders commits', () => {
  async function fingerprintOf(d: Device) {
    return (await d.core.fingerprint(d.userId, 'c1')).digits;
  }

  it('a replayed commit, or one delivered ahead of its turn, is refused with a reason and changes nothing', async () => {
    const { a1, b1, v1, update, send } = await chat();
    const first = await update(a1); // epoch 1 → 2
    await b1.core.applyLogItem('boris', 'c1', first);
    const second = await update(b1); // epoch 2 → 3
    // Вера gets the second before the first: refused (a gap), her state as it was.
    const before = await fingerprintOf(v1);
    const early = await v1.core.applyLogItem('vera', 'c1', second).catch((e: unknown) => e);
    expect(early).toMatchObject({ code: 'gap' });
    expect((early as Error).message).toBe('Пропущены коммиты группы');
    expect(await v1.core.epoch('vera', 'c1')).toBe(1);
    expect(await fingerprintOf(v1)).toEqual(before);
    // In order they apply.
    await v1.core.applyLogItem('vera', 'c1', first);
    await v1.core.applyLogItem('vera', 'c1', second);
    expect(await v1.core.epoch('vera', 'c1')).toBe(3);
    // The first again, labelled as the current epoch's: MLS reads its real epoch and refuses it.
    const replay = await v1.core.applyLogItem('vera', 'c1', { ...first, seq: 99, epoch: 3 }).catch((e: unknown) => e);
    expect(replay).toMatchObject({ code: 'stale', message: 'Коммит устарел: эпоха уже сменилась' });
    expect(await v1.core.epoch('vera', 'c1')).toBe(3);
    // And the group still works for her.
    await a1.core.applyLogItem('anna', 'c1', second);
    const fresh = await send(a1, { v: 1, kind: 'text', text: 'после всех' });
    expect((await v1.core.decrypt('vera', 'c1', fresh.messageId, fresh.ciphertext)).envelope).toMatchObject({
      text: 'после всех',
    });
  });
});

describe('post-compromise security: a stolen device state', () => {
  it('reads what is sent until its device commits an update of its own leaf, and nothing after', async () => {
    const { a1, b1, v1, send, update } = await chat();
    // Борис's device's state is copied (a stolen profile) in epoch 1.
    const stolen = mls.decodeState((await b1.store.loadGroup('boris', 'c1'))!);
    const before = await send(a1, { v: 1, kind: 'text', text: 'до обновления' });
    // The copy reads epoch 1: the test could fail.
    const opened = await mls.decryptMessage(stolen, before.ciphertext);
    expect(new TextDecoder().decode(opened.payload)).toContain('до обновления');
    // Борис's device updates its leaf with a path: new secrets the copy has no key to.
    const commit = await update(b1);
    for (const d of [a1, v1]) await d.core.applyLogItem(d.userId, 'c1', commit);
    const after = await send(a1, { v: 1, kind: 'text', text: 'после обновления' });
    // The copy cannot follow the commit (the path was sealed to the others' keys), nor read what follows it.
    await expect(mls.processCommit(opened.state, commit.body)).rejects.toThrow();
    await expect(mls.decryptMessage(opened.state, after.ciphertext)).rejects.toMatchObject({ code: 'gap' });
    // The members read it.
    for (const d of [b1, v1])
      expect((await d.core.decrypt(d.userId, 'c1', after.messageId, after.ciphertext)).envelope).toMatchObject({
        text: 'после обновления',
      });
  });
});
