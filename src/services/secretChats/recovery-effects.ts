// The recovery key's effects over the REST API (src/contract/secret-backup.ts) and the crypto service
// (docs/secret-chats.md "The recovery key"): its status, making and confirming a key, restoring a backup, deleting
// it, and uploading the plaintexts this device keeps while it holds the key. Node tests run them with a crypto core
// in-process.
import { RequestFailure } from '../../contract/failure';
import type { ApiClient } from '../app/api';
import type { BackupChunkItem } from './crypto/recovery-api';
import { type SecretCrypto, SecretCryptoError } from './crypto/secret-crypto';
import {
  NO_RECOVERY_KEY,
  type RecoveryMade,
  type RecoveryStatus,
} from '../../machines/secretChats/secretRecovery/secretRecovery.protocol';

export interface RecoveryEffects {
  status(userId: string): Promise<RecoveryStatus>;
  generate(userId: string): Promise<RecoveryMade>;
  /** «Я сохранил ключ»: the server takes the key, and this device uploads everything it keeps. */
  confirm(input: { userId: string; made: RecoveryMade }): Promise<void>;
  restore(input: { userId: string; phrase: string }): Promise<{ restored: number }>;
  remove(userId: string): Promise<void>;
  /** Uploads what waits (once at a time; a call meanwhile makes it look again when done). */
  sync(userId: string): Promise<void>;
}

const status = (e: unknown) => (e instanceof RequestFailure ? e.status : null);

export function createRecoveryEffects(api: ApiClient, crypto: () => SecretCrypto): RecoveryEffects {
  const running = new Map<string, { again: boolean; done: Promise<void> }>();

  /** Whether the server still has the key of this version. */
  async function keyStands(version: number): Promise<boolean> {
    const { backup } = await api.call('secretBackup');
    return backup !== null && backup.version === version;
  }

  async function upload(userId: string): Promise<void> {
    const c = crypto();
    // The person's identity key goes into the backup first, once per key and identity.
    const identity = await c.backupIdentity(userId);
    if (identity) {
      try {
        await api.call('secretBackupUpload', { body: { version: identity.version, entries: identity.entries } });
      } catch (e) {
        if (status(e) === 404 || status(e) === 409) {
          await c.recoveryForget(userId);
          return;
        }
        throw e;
      }
      await c.backupIdentityDone(userId, identity.version, identity.publicKey);
    }
    for (;;) {
      const next = await c.backupNext(userId);
      if (!next) return;
      try {
        await api.call('secretBackupUpload', {
          body: { version: next.version, conversationId: next.conversationId, entries: next.entries },
        });
      } catch (e) {
        // A 404 is either the key deleted or the chat left (or deleted): the key's own status tells which. A chat
        // this person is no longer in takes no more chunks, and what waited for it leaves the queue.
        if (status(e) === 404 && (await keyStands(next.version))) {
          await c.backupDone(userId, next.conversationId, next.messageIds);
          continue;
        }
        // The key was deleted or replaced (409) from another device: this one stops backing up.
        if (status(e) === 404 || status(e) === 409) {
          await c.recoveryForget(userId);
          return;
        }
        throw e;
      }
      await c.backupDone(userId, next.conversationId, next.messageIds);
    }
  }

  const effects: RecoveryEffects = {
    async status(userId) {
      const [{ backup }, here] = await Promise.all([api.call('secretBackup'), crypto().recoveryStatus(userId)]);
      return {
        hasKey: backup !== null,
        createdAt: backup?.createdAt ?? null,
        here: backup !== null && here?.version === backup.version,
      };
    },
    generate: (userId) => crypto().recoveryCreate(userId),
    async confirm({ userId, made }) {
      const { backup } = await api.call('secretBackupKey', {
        body: { salt: made.salt, iterations: made.iterations, check: made.check },
      });
      if (!backup) throw new RequestFailure(null, null);
      await crypto().recoveryConfirm(userId, backup.version);
      await effects.sync(userId);
    },
    async restore({ userId, phrase }) {
      const c = crypto();
      const { backup } = await api.call('secretBackup');
      if (!backup) throw new SecretCryptoError('noDevice', NO_RECOVERY_KEY);
      await c.recoveryOpen(userId, phrase, backup);
      const chunks: BackupChunkItem[] = [];
      let after = 0;
      for (;;) {
        const page = await api.call('secretBackupChunks', { query: { after } });
        chunks.push(...page.chunks);
        const last = page.chunks.at(-1);
        if (!page.hasMore || !last) break;
        after = last.seq;
      }
      // A browser without the identity key takes it from the backup and signs itself with it, needing no old device.
      if (!(await c.identityStatus(userId)).publicKey) {
        const { identities } = await api.call('secretIdentities', { query: { userIds: userId } });
        const serverKey = identities.find((i) => i.userId === userId)?.publicKey;
        if (serverKey) {
          await c.prepareDevice(userId);
          await c.recoveryIdentity(userId, chunks, serverKey);
        }
      }
      // Chunks of no conversation are the identity key's.
      const r = await c.recoveryRestore(
        userId,
        chunks.filter((ch) => ch.conversationId !== null),
      );
      // What this device read itself and the backup lacks goes up now.
      void effects.sync(userId).catch(() => undefined);
      return r;
    },
    async remove(userId) {
      await api.call('secretBackupDelete');
      await crypto().recoveryForget(userId);
    },
    sync(userId) {
      const now = running.get(userId);
      if (now) {
        now.again = true;
        return now.done;
      }
      const entry = { again: false, done: Promise.resolve() };
      entry.done = (async () => {
        try {
          do {
            entry.again = false;
            await upload(userId);
          } while (entry.again);
        } finally {
          running.delete(userId);
        }
      })();
      running.set(userId, entry);
      return entry.done;
    },
  };
  return effects;
}
