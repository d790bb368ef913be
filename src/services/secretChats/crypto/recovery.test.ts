// The recovery key's cryptography (crypto/recovery.ts) and its part of the crypto service (recovery-core.ts), with
// real WebCrypto and IndexedDB: the phrase's form and entropy, PBKDF2 and the check value refusing a wrong phrase,
// chunks that open only with their key and in their place and refuse a changed byte, and a backup made on one
// browser filling a new one's store — all or nothing.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { BackupChunkItem } from './recovery-api';
import {
  checkKey,
  deriveRecoveryKey,
  generatePhrase,
  makeCheck,
  newSalt,
  normalizePhrase,
  openChunk,
  sealChunk,
} from './recovery';
import { type SecretCrypto, SecretCryptoError } from './secret-crypto';
import { createSecretCryptoCore } from './secret-crypto-core';
import { createSecretStore, indexedDbBackend, type PlaintextRecord } from './secret-store';

const record = (messageId: string, text: string, conversationId = 'c1'): PlaintextRecord => ({
  messageId,
  conversationId,
  senderUserId: 'alice',
  senderDeviceId: 'a1',
  epoch: 1,
  envelope: { v: 1, kind: 'text', text },
});

/** base64 with one byte of the decoded value changed. */
function flip(b64: string, at: number): string {
  const bytes = Buffer.from(b64, 'base64');
  bytes[at % bytes.length] = (bytes[at % bytes.length] as number) ^ 1;
  return bytes.toString('base64');
}

const ITER = 100_000;

describe('the recovery phrase and key', () => {
  it('is 32 base32 characters in eight groups (160 bits), read back however it is typed', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const p = generatePhrase();
      expect(p).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){7}[0-9A-HJKMNP-TV-Z]{4}$/);
      seen.add(p);
    }
    expect(seen.size).toBe(50);
    const p = generatePhrase();
    expect(normalizePhrase(p.toLowerCase().replace(/-/g, ' '))).toBe(p.replace(/-/g, ''));
    expect(normalizePhrase('0000-1111-0000-1111-0000-1111-0000-1111')).toBe(
      normalizePhrase('OOOO-IIII-oooo-llll-0000-1111-0000-1111'),
    );
    expect(normalizePhrase('короткий')).toBeNull();
    expect(normalizePhrase(`${p}-AAAA`)).toBeNull();
    expect(normalizePhrase(p.replace(/^./, 'U'))).toBeNull();
  });

  it('derives the same key from the same phrase and salt; the check value refuses any other', async () => {
    const phrase = generatePhrase();
    const salt = newSalt();
    const key = (await deriveRecoveryKey(phrase, salt, ITER)) as CryptoKey;
    expect(key.extractable).toBe(false);
    const check = await makeCheck(key);
    expect(await checkKey((await deriveRecoveryKey(phrase.toLowerCase(), salt, ITER)) as CryptoKey, check)).toBe(true);
    expect(await checkKey((await deriveRecoveryKey(generatePhrase(), salt, ITER)) as CryptoKey, check)).toBe(false);
    expect(await checkKey((await deriveRecoveryKey(phrase, newSalt(), ITER)) as CryptoKey, check)).toBe(false);
    expect(await checkKey((await deriveRecoveryKey(phrase, salt, ITER + 1)) as CryptoKey, check)).toBe(false);
    expect(await checkKey(key, flip(check, 20))).toBe(false);
    expect(await deriveRecoveryKey('не ключ', salt, ITER)).toBeNull();
  });

  it('opens a chunk only with its key, in its place, and not with a byte changed', async () => {
    const salt = newSalt();
    const key = (await deriveRecoveryKey(generatePhrase(), salt, ITER)) as CryptoKey;
    const place = { userId: 'alice', version: 1, conversationId: 'c1' };
    const records = [record('m1', 'Встреча в 7'), record('m2', 'Пароль от сейфа: 1234')];
    const sealed = await sealChunk(key, place, records);
    expect(Buffer.from(sealed, 'base64').toString('utf8')).not.toContain('Встреча');
    expect(await openChunk(key, place, sealed)).toEqual(records);
    for (const at of [0, 12, 40, Buffer.from(sealed, 'base64').length - 1])
      await expect(openChunk(key, place, flip(sealed, at))).rejects.toThrow('Резервная копия повреждена');
    await expect(openChunk(key, { ...place, userId: 'bob' }, sealed)).rejects.toThrow('Резервная копия повреждена');
    await expect(openChunk(key, { ...place, version: 2 }, sealed)).rejects.toThrow('Резервная копия повреждена');
    const other = (await deriveRecoveryKey(generatePhrase(), salt, ITER)) as CryptoKey;
    await expect(openChunk(other, place, sealed)).rejects.toThrow('Резервная копия повреждена');
    // A record that is not a message envelope refuses the chunk.
    const bad = await sealChunk(key, place, [{ ...records[0], envelope: { v: 1, kind: 'text', x: 1 } } as never]);
    await expect(openChunk(key, place, bad)).rejects.toThrow();
  });
});

let browsers = 0;
const browser = (): SecretCrypto =>
  createSecretCryptoCore(createSecretStore(indexedDbBackend(`recovery-${++browsers}`)));

/** A device with one group (conversation c1) whose plaintexts it keeps. */
async function deviceWithChat(userId: string): Promise<SecretCrypto> {
  const c = browser();
  await c.prepareDevice(userId);
  await c.setDeviceId(userId, `${userId}-d1`);
  const made = await c.createGroup(userId, []);
  await c.confirmGroup(userId, made.groupId, 'c1');
  return c;
}

/** What the server would store: the uploaded chunks. */
async function uploadAll(c: SecretCrypto, userId: string, into: BackupChunkItem[]): Promise<void> {
  for (;;) {
    const next = await c.backupNext(userId);
    if (!next) return;
    into.push({
      seq: into.length + 1,
      version: next.version,
      conversationId: next.conversationId,
      entries: next.entries,
    });
    await c.backupDone(userId, next.conversationId, next.messageIds);
  }
}

describe('the backup in the crypto service', () => {
  it('backs up what a device keeps once it has the key, and fills a new device from it', async () => {
    const a = await deviceWithChat('alice');
    const before = record('m1', 'До ключа');
    await a.keepSent('alice', before);
    // No key yet: nothing is queued.
    expect(await a.backupNext('alice')).toBeNull();
    expect(await a.recoveryStatus('alice')).toBeNull();

    const made = await a.recoveryCreate('alice');
    expect(made.phrase).toMatch(/^([0-9A-Z]{4}-){7}[0-9A-Z]{4}$/);
    expect(made.iterations).toBeGreaterThanOrEqual(600_000);
    await a.recoveryConfirm('alice', 1);
    expect(await a.recoveryStatus('alice')).toEqual({ version: 1 });
    const server: BackupChunkItem[] = [];
    await uploadAll(a, 'alice', server);
    expect(server).toHaveLength(1);
    const after = record('m2', 'После ключа');
    await a.keepSent('alice', after);
    await uploadAll(a, 'alice', server);
    expect(server).toHaveLength(2);
    expect(await a.backupNext('alice')).toBeNull();
    for (const c of server) expect(Buffer.from(c.entries, 'base64').toString('utf8')).not.toContain('ключа');

    // A new device: a wrong phrase is refused and changes nothing.
    const n = await deviceWithChat('alice');
    const info = { version: 1, salt: made.salt, iterations: made.iterations, check: made.check };
    const wrong = await n.recoveryOpen('alice', generatePhrase(), info).catch((e) => e);
    expect(wrong).toBeInstanceOf(SecretCryptoError);
    expect(wrong).toMatchObject({ code: 'badKey', message: 'Неверный ключ восстановления' });
    await expect(n.recoveryOpen('alice', 'ерунда', info)).rejects.toThrow('Неверный ключ восстановления');
    await expect(n.recoveryRestore('alice', server)).rejects.toThrow('Неверный ключ восстановления');
    expect(await n.plaintexts('alice', 'c1')).toEqual([]);
    expect(await n.recoveryStatus('alice')).toBeNull();

    // The right phrase, a chunk with a byte changed: refused whole.
    await n.recoveryOpen('alice', made.phrase.toLowerCase(), info);
    const damaged = [
      server[0] as BackupChunkItem,
      { ...(server[1] as BackupChunkItem), entries: flip(server[1]!.entries, 30) },
    ];
    await expect(n.recoveryRestore('alice', damaged)).rejects.toThrow('Резервная копия повреждена');
    expect(await n.plaintexts('alice', 'c1')).toEqual([]);

    // Intact: the history is there, read as decrypt reads kept plaintexts.
    await n.recoveryOpen('alice', made.phrase, info);
    const own = record('m3', 'Прочитано на новом');
    await n.keepSent('alice', own);
    expect(await n.recoveryRestore('alice', server)).toEqual({ restored: 2 });
    const got = await n.plaintexts('alice', 'c1');
    expect(got.map((p) => p.messageId).sort()).toEqual(['m1', 'm2', 'm3']);
    expect((await n.decrypt('alice', 'c1', 'm1', '')).envelope).toEqual(before.envelope);
    // It backs up from now on, starting with what it read itself.
    expect(await n.recoveryStatus('alice')).toEqual({ version: 1 });
    const more: BackupChunkItem[] = [];
    await uploadAll(n, 'alice', more);
    expect(more).toHaveLength(1);
    const key = (await deriveRecoveryKey(made.phrase, made.salt, made.iterations)) as CryptoKey;
    const opened = await openChunk(key, { userId: 'alice', version: 1, conversationId: 'c1' }, more[0]!.entries);
    expect(opened.map((r) => r.messageId)).toEqual(['m3']);

    // Forgotten (the key deleted): nothing more is queued.
    await n.recoveryForget('alice');
    await n.keepSent('alice', record('m4', 'Без ключа'));
    expect(await n.backupNext('alice')).toBeNull();
  }, 30_000);

  it('splits a large history into chunks that each fit the server limit', async () => {
    const a = await deviceWithChat('carol');
    const long = 'Ж'.repeat(4000);
    for (let i = 0; i < 60; i++) await a.keepSent('carol', { ...record(`m${i}`, long), senderUserId: 'carol' });
    await a.recoveryCreate('carol');
    await a.recoveryConfirm('carol', 1);
    const server: BackupChunkItem[] = [];
    await uploadAll(a, 'carol', server);
    expect(server.length).toBeGreaterThanOrEqual(3);
    for (const c of server) expect(c.entries.length).toBeLessThanOrEqual(256 * 1024);
  }, 30_000);
});
