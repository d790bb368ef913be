// The recovery key in the crypto worker (docs/secret-chats.md "The recovery key"): making a phrase and its key,
// opening a typed phrase against the server's check value, restoring a backup into the sealed store, and the queue
// of plaintexts this device kept that the backup does not have yet. The store it returns queues each plaintext kept
// while this device holds a recovery key.
import { SecretCryptoError } from './secret-crypto';
import type { RecoveryCrypto } from './recovery-api';
import type { IdentityKeys } from './identity';
import { fromBase64 } from './mls-engine';
import {
  BACKUP_IDENTITY_OTHER,
  BackupError,
  checkKey,
  type BackupItem,
  deriveRecoveryKey,
  generatePhrase,
  isTombstone,
  makeCheck,
  newSalt,
  openChunk,
  openIdentityChunk,
  RECOVERY_ITERATIONS,
  sealChunk,
  sealIdentityChunk,
  WRONG_RECOVERY_KEY,
} from './recovery';
import { applyControl, isControl } from './secret-actions';
import type { PlaintextRecord, SecretStore } from './secret-store';

/** A chunk's JSON in UTF-8 stays under this many bytes, so its base64 (4/3 of it, with IV and tag) fits 256 K. */
const CHUNK_PLAIN_MAX = 180_000;
const utf8 = new TextEncoder();

/** Which identity key the backup of which key version holds (so it is uploaded once per key and identity). */
interface BackedUp {
  version: number;
  publicKey: string;
}

/** `adopt` keeps an identity key restored from the backup (identity-core.ts), false when it does not hold. */
export function createRecoveryCore(
  store: SecretStore,
  adopt: (userId: string, id: IdentityKeys) => Promise<boolean> = async () => false,
): { store: SecretStore; api: RecoveryCrypto } {
  /** Keys made (before the server took them) or opened (before the restore), by user. */
  const made = new Map<string, CryptoKey>();
  const opened = new Map<string, { key: CryptoKey; version: number }>();

  async function queue(userId: string, items: [string, string][]): Promise<void> {
    const q = await store.loadBackupQueue(userId);
    const known = new Set(q.map(([c, m]) => `${c}\n${m}`));
    for (const [c, m] of items) if (!known.has(`${c}\n${m}`)) q.push([c, m]);
    await store.saveBackupQueue(userId, q);
  }
  async function kept(userId: string): Promise<PlaintextRecord[]> {
    const out: PlaintextRecord[] = [];
    for (const id of await store.groupIds(userId)) out.push(...(await store.loadPlaintexts(userId, id)));
    return out;
  }

  const queued: SecretStore = {
    ...store,
    async savePlaintext(userId, record) {
      await store.savePlaintext(userId, record);
      if (await store.loadRecovery(userId)) await queue(userId, [[record.conversationId, record.messageId]]);
    },
    // Deleted for everyone: queued as well, so that the backup learns it (a queued message that is gone goes up as
    // a deletion).
    async deletePlaintext(userId, conversationId, messageId) {
      await store.deletePlaintext(userId, conversationId, messageId);
      if (await store.loadRecovery(userId)) await queue(userId, [[conversationId, messageId]]);
    },
  };

  const api: RecoveryCrypto = {
    async recoveryStatus(userId) {
      const r = await store.loadRecovery(userId);
      return r ? { version: r.version } : null;
    },
    async recoveryCreate(userId) {
      const phrase = generatePhrase();
      const salt = newSalt();
      const key = (await deriveRecoveryKey(phrase, salt, RECOVERY_ITERATIONS)) as CryptoKey;
      made.set(userId, key);
      return { phrase, salt, iterations: RECOVERY_ITERATIONS, check: await makeCheck(key) };
    },
    async recoveryConfirm(userId, version) {
      const key = made.get(userId);
      if (!key) throw new SecretCryptoError('failed', 'Ключ восстановления не создан');
      made.delete(userId);
      await store.saveRecovery(userId, { key, version });
      await store.saveBackupQueue(userId, []);
      await queue(
        userId,
        (await kept(userId)).map((r) => [r.conversationId, r.messageId]),
      );
    },
    async recoveryOpen(userId, phrase, info) {
      const key = await deriveRecoveryKey(phrase, info.salt, info.iterations);
      if (!key || !(await checkKey(key, info.check))) throw new SecretCryptoError('badKey', WRONG_RECOVERY_KEY);
      opened.set(userId, { key, version: info.version });
    },
    async recoveryRestore(userId, chunks) {
      const o = opened.get(userId);
      if (!o) throw new SecretCryptoError('badKey', WRONG_RECOVERY_KEY);
      // Every chunk opens before anything is written: a damaged backup changes nothing.
      const items: BackupItem[] = [];
      for (const c of chunks) {
        if (c.version !== o.version) continue;
        items.push(
          ...(await openChunk(o.key, { userId, version: c.version, conversationId: c.conversationId }, c.entries)),
        );
      }
      // Chunks are only ever added: of several copies of a message the latest chunk's is the newest (an edit or a
      // reaction applied since), and a deletion is final.
      const place = (r: { conversationId: string; messageId: string }) => `${r.conversationId}\n${r.messageId}`;
      const latest = new Map<string, PlaintextRecord>();
      const deleted = new Map<string, BackupItem>();
      for (const item of items) {
        if (isTombstone(item)) deleted.set(place(item), item);
        else latest.set(place(item), item);
      }
      let restored = 0;
      const inBackup = new Set<string>();
      for (const [k, d] of deleted) {
        inBackup.add(k);
        latest.delete(k);
        // Deleted for everyone while this device was away: its copy goes too.
        await store.deletePlaintext(userId, d.conversationId, d.messageId);
      }
      for (const r of latest.values()) {
        inBackup.add(place(r));
        if (await store.loadPlaintext(userId, r.conversationId, r.messageId)) continue;
        await store.savePlaintext(userId, r);
        restored++;
      }
      // Every edit and reaction of the backup applied again (by id, each once): the text shows its newest edit
      // whichever copy was kept, this device's or the backup's.
      for (const r of latest.values()) {
        if (!isControl(r.envelope) || !('targetId' in r.envelope)) continue;
        const target = await store.loadPlaintext(userId, r.conversationId, r.envelope.targetId);
        const changed = target && applyControl(target, r);
        if (changed) await store.savePlaintext(userId, changed);
      }
      opened.delete(userId);
      // From now on this device backs up too: what it read itself that the backup lacks goes first.
      await store.saveRecovery(userId, o);
      await store.saveBackupQueue(userId, []);
      await queue(
        userId,
        (await kept(userId)).filter((r) => !inBackup.has(place(r))).map((r) => [r.conversationId, r.messageId]),
      );
      return { restored };
    },
    async backupNext(userId) {
      const r = await store.loadRecovery(userId);
      if (!r) return null;
      const q = await store.loadBackupQueue(userId);
      const first = q[0];
      if (!first) return null;
      const conversationId = first[0];
      const items: BackupItem[] = [];
      const messageIds: string[] = [];
      let size = 2;
      for (const [c, m] of q) {
        if (c !== conversationId) continue;
        // Gone since it was queued: deleted for everyone (the only way a kept plaintext goes but sign-out).
        const item: BackupItem = (await store.loadPlaintext(userId, c, m)) ?? {
          messageId: m,
          conversationId: c,
          deleted: true,
        };
        messageIds.push(m);
        size += utf8.encode(JSON.stringify(item)).length + 1;
        if (items.length > 0 && size > CHUNK_PLAIN_MAX) {
          messageIds.pop();
          break;
        }
        items.push(item);
      }
      const entries = await sealChunk(r.key, { userId, version: r.version, conversationId }, items);
      return { version: r.version, conversationId, entries, messageIds };
    },
    async backupDone(userId, conversationId, messageIds) {
      const done = new Set(messageIds);
      const q = await store.loadBackupQueue(userId);
      await store.saveBackupQueue(
        userId,
        q.filter(([c, m]) => c !== conversationId || !done.has(m)),
      );
    },
    async recoveryIdentity(userId, chunks, identityPublicKey) {
      const o = opened.get(userId);
      if (!o) throw new SecretCryptoError('badKey', WRONG_RECOVERY_KEY);
      // Every chunk of no conversation must open as this person's identity under this key: a chunk the server made
      // or moved here refuses the restore. The newest one is the key.
      const own = chunks
        .filter((c) => c.conversationId === null && c.version === o.version)
        .sort((a, b) => a.seq - b.seq);
      let newest: { publicKey: string; privateKey: string } | null = null;
      for (const c of own) newest = await openIdentityChunk(o.key, userId, o.version, c.entries);
      if (!newest) return false;
      if (newest.publicKey !== identityPublicKey) throw new BackupError(BACKUP_IDENTITY_OTHER);
      const id = { publicKey: fromBase64(newest.publicKey), privateKey: fromBase64(newest.privateKey) };
      if (!(await adopt(userId, id))) throw new BackupError(BACKUP_IDENTITY_OTHER);
      await store.saveSealed(userId, 'backupIdentity', { version: o.version, publicKey: newest.publicKey });
      return true;
    },
    async backupIdentity(userId) {
      const r = await store.loadRecovery(userId);
      const id = await store.loadSealed<{ publicKey: string; privateKey: string }>(userId, 'identity');
      if (!r || !id) return null;
      const done = await store.loadSealed<BackedUp>(userId, 'backupIdentity');
      if (done && done.version === r.version && done.publicKey === id.publicKey) return null;
      const entries = await sealIdentityChunk(r.key, userId, r.version, id);
      return { version: r.version, entries, publicKey: id.publicKey };
    },
    async backupIdentityDone(userId, version, publicKey) {
      await store.saveSealed(userId, 'backupIdentity', { version, publicKey });
    },
    async recoveryForget(userId) {
      made.delete(userId);
      opened.delete(userId);
      await store.deleteRecovery(userId);
    },
  };
  return { store: queued, api };
}
