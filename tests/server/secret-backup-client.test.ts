// The recovery backup as a device runs it (src/services/secretChats/recovery-effects.ts and the crypto core in
// Node, real IndexedDB in fake-indexeddb, real WebCrypto) against the real server, on SQLite and (with TEST_PG_URL)
// PostgreSQL: leaving a chat does not cost the key, an edited message comes back with its newest text, and a message
// deleted for everyone does not come back (docs/secret-chats.md "The recovery key").
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/services/app/api';
import { createSecretCryptoCore } from '../../src/services/secretChats/crypto/secret-crypto-core';
import { createSecretStore, indexedDbBackend } from '../../src/services/secretChats/crypto/secret-store';
import { createRecoveryEffects } from '../../src/services/secretChats/recovery-effects';
import { client, startTestServer, type TestServer } from './harness';
import { secretChat } from './secret-helpers';
import { type Api, befriend, closeAll, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let browsers = 0;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

/** A browser of this person: its own store and crypto core, and the app's API client with their token. */
function browserOf(user: TestUser) {
  const crypto = createSecretCryptoCore(createSecretStore(indexedDbBackend(`backup-client-${++browsers}`)));
  const http = createApiClient({
    baseURL: `${srv.url}/api`,
    auth: { accessToken: () => user.accessToken, refreshToken: () => null, refresh: async () => null },
  });
  return { crypto, recovery: createRecoveryEffects(http, () => crypto) };
}

const kept = (conversationId: string, messageId: string, senderUserId: string, envelope: object) => ({
  messageId,
  conversationId,
  senderUserId,
  senderDeviceId: 'd1',
  epoch: 1,
  envelope: envelope as never,
});
const text = (t: string) => ({ v: 1, kind: 'text', text: t });

describe('the recovery backup run by a device', () => {
  it('keeps its key after leaving a chat, restores the newest edit, and leaves out what was deleted', async () => {
    const [anna, boris, vera] = await Promise.all(['bkanna', 'bkboris', 'bkvera'].map((n) => api.user(n)));
    await befriend(api, boris, anna);
    await befriend(api, boris, vera);
    // Борис's group with Анна and Вера, which Анна leaves; and a direct chat of Анна and Борис, which she keeps.
    const group = await secretChat(api, boris, [anna, vera], 'Дача');
    const direct = await secretChat(api, boris, [anna]);
    const a = browserOf(anna);
    const me = anna.user.id;
    // The device's own group states of the two chats (what it keeps is listed by them).
    await a.crypto.prepareDevice(me);
    await a.crypto.setDeviceId(me, 'a1');
    for (const id of [group, direct]) {
      const g = await a.crypto.createGroup(me, []);
      await a.crypto.confirmGroup(me, g.groupId, id);
    }
    await a.crypto.keepSent(me, kept(group, '0001-g1', me, text('В группе')));
    await a.crypto.keepSent(me, kept(direct, '0001-d1', me, text('Привет')));
    const made = await a.recovery.generate(me);
    await a.recovery.confirm({ userId: me, made });
    const chunks = async () => (await api.get('/api/secret/backup/chunks', anna.accessToken)).body.chunks;
    expect(await chunks()).toHaveLength(2);

    // Анна leaves the group; a text read there before is queued after (its chunk is refused with 404).
    const left = await api.post('/api/conversations/leave', { conversationId: group }, anna.accessToken);
    expect(left.status).toBe(200);
    await a.crypto.keepSent(me, kept(group, '0002-g2', vera.user.id, text('Уже без Анны')));
    await a.crypto.keepSent(me, kept(direct, '0002-d2', me, text('Опечатка')));
    await a.crypto.keepSent(me, kept(direct, '0003-d3', me, text('Удалю')));
    await a.recovery.sync(me);
    // The key stays, the direct chat's texts went up, and the left chat's queue is empty.
    expect(await a.crypto.recoveryStatus(me)).toEqual({ version: 1 });
    expect(await chunks()).toHaveLength(3);
    expect(await a.crypto.backupNext(me)).toBeNull();

    // An edit of «Опечатка» and the deletion of «Удалю» for everyone.
    await a.crypto.keepSent(
      me,
      kept(direct, '0004-e1', me, { v: 1, kind: 'edit', targetId: '0002-d2', text: 'Исправлено' }),
    );
    await a.crypto.forget(me, direct, '0003-d3');
    await a.recovery.sync(me);
    expect(await chunks()).toHaveLength(4);

    // A new browser of Анна's: the backup gives the edited text, and not the deleted one.
    const n = browserOf(anna);
    const restored = await n.recovery.restore({ userId: me, phrase: made.phrase });
    expect(restored.restored).toBeGreaterThan(0);
    const direct2 = await n.crypto.plaintexts(me, direct);
    expect(direct2.map((p) => p.messageId).sort()).toEqual(['0001-d1', '0002-d2', '0004-e1']);
    expect(direct2.find((p) => p.messageId === '0002-d2')?.actions?.edit).toEqual({
      id: '0004-e1',
      text: 'Исправлено',
    });
    expect((await n.crypto.plaintexts(me, group)).map((p) => p.messageId)).toEqual(['0001-g1']);

    // A browser that still had «Удалю» (away when it was deleted) and an unedited «Опечатка»: the restore removes the
    // one and brings the other's edit.
    const away = browserOf(anna);
    await away.crypto.keepSent(me, kept(direct, '0002-d2', me, text('Опечатка')));
    await away.crypto.keepSent(me, kept(direct, '0003-d3', me, text('Удалю')));
    await away.recovery.restore({ userId: me, phrase: made.phrase });
    const direct3 = await away.crypto.plaintexts(me, direct);
    expect(direct3.map((p) => p.messageId).sort()).toEqual(['0001-d1', '0002-d2', '0004-e1']);
    expect(direct3.find((p) => p.messageId === '0002-d2')?.actions?.edit?.text).toBe('Исправлено');

    // The key deleted from another device: a 404 that is about the key, so this one forgets it.
    expect((await api.call('DELETE', '/api/secret/backup', { token: anna.accessToken })).status).toBe(200);
    await a.crypto.keepSent(me, kept(direct, '0005-d5', me, text('После удаления ключа')));
    await a.recovery.sync(me);
    expect(await a.crypto.recoveryStatus(me)).toBeNull();
  }, 60_000);
});
