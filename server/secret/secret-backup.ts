// The recovery key's backup (docs/secret-chats.md "The recovery key"): each person's encrypted secret-chat history
// as opaque chunks, with the recovery key's salt, iteration count and check value. Every route works on the
// caller's own backup only (there is no way to name another's), and a chunk for a conversation must name a secret
// chat the caller is in. The server never decrypts anything here.
import fp from 'fastify-plugin';
import {
  BACKUP_FULL,
  BACKUP_KEY_CHANGED,
  BACKUP_LIMITS,
  BACKUP_NOT_SET,
  type BackupInfo,
} from '../../src/contract/secret-backup';
import { membersFor } from '../conversations/membership';
import { isSecret, NOT_SECRET } from '../conversations/secret-flag';
import type { Database } from '../db/database';
import { contractRoute } from '../http/contract-route';
import { badRequest, conflict, notFound } from '../http/errors';

/** A chunk at the limit with the JSON around it. */
const CHUNK_BODY = BACKUP_LIMITS.chunkMaxChars + 4 * 1024;

export function createSecretBackups(db: Database, now: () => string) {
  async function info(userId: string): Promise<BackupInfo | null> {
    const row = await db.selectFrom('secret_backups').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return null;
    const n = await db
      .selectFrom('secret_backup_chunks')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      version: Number(row.version),
      salt: row.salt,
      iterations: Number(row.iterations),
      check: row.check_value,
      createdAt: row.created_at,
      chunks: Number(n.n),
      size: Number(row.size),
    };
  }

  return {
    info,
    /** A new recovery key: the old one's chunks go, and the version moves on so its devices stop writing. */
    async setKey(userId: string, key: { salt: string; iterations: number; check: string }): Promise<BackupInfo> {
      await db.transaction().execute(async (trx) => {
        const old = await trx
          .selectFrom('secret_backups')
          .select('version')
          .where('user_id', '=', userId)
          .executeTakeFirst();
        await trx.deleteFrom('secret_backup_chunks').where('user_id', '=', userId).execute();
        await trx.deleteFrom('secret_backups').where('user_id', '=', userId).execute();
        await trx
          .insertInto('secret_backups')
          .values({
            user_id: userId,
            version: old ? Number(old.version) + 1 : 1,
            salt: key.salt,
            iterations: key.iterations,
            check_value: key.check,
            size: 0,
            created_at: now(),
          })
          .execute();
      });
      return (await info(userId)) as BackupInfo;
    },
    async upload(
      userId: string,
      body: { version: number; conversationId?: string; entries: string },
    ): Promise<{ seq: number; size: number }> {
      if (body.conversationId) {
        await membersFor(db, body.conversationId, userId); // 404 for a non-member
        if (!(await isSecret(db, body.conversationId))) throw badRequest(NOT_SECRET);
      }
      const n = body.entries.length;
      return db.transaction().execute(async (trx) => {
        // One conditional UPDATE keeps the total under the limit on both databases, however many uploads race.
        const r = await trx
          .updateTable('secret_backups')
          .set((eb) => ({ size: eb('size', '+', n) }))
          .where('user_id', '=', userId)
          .where('version', '=', body.version)
          .where((eb) => eb('size', '<=', BACKUP_LIMITS.totalMaxChars - n))
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) {
          const row = await trx
            .selectFrom('secret_backups')
            .select(['version'])
            .where('user_id', '=', userId)
            .executeTakeFirst();
          if (!row) throw notFound(BACKUP_NOT_SET);
          if (Number(row.version) !== body.version) throw conflict(BACKUP_KEY_CHANGED);
          throw badRequest(`${BACKUP_FULL}: не больше ${BACKUP_LIMITS.totalMaxChars / (1024 * 1024)} МБ`);
        }
        const inserted = await trx
          .insertInto('secret_backup_chunks')
          .values({
            user_id: userId,
            version: body.version,
            conversation_id: body.conversationId ?? null,
            body: body.entries,
            created_at: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const size = await trx
          .selectFrom('secret_backups')
          .select('size')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        return { seq: Number(inserted.id), size: Number(size.size) };
      });
    },
    async chunks(userId: string, after: number) {
      const backup = await db
        .selectFrom('secret_backups')
        .select('version')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!backup) throw notFound(BACKUP_NOT_SET);
      const rows = await db
        .selectFrom('secret_backup_chunks')
        .select(['id', 'version', 'conversation_id', 'body'])
        .where('user_id', '=', userId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BACKUP_LIMITS.page + 1)
        .execute();
      return {
        chunks: rows.slice(0, BACKUP_LIMITS.page).map((r) => ({
          seq: Number(r.id),
          version: Number(r.version),
          conversationId: r.conversation_id,
          entries: r.body,
        })),
        hasMore: rows.length > BACKUP_LIMITS.page,
      };
    },
    /** «Удалить ключ восстановления»: the key and every chunk. */
    async remove(userId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('secret_backup_chunks').where('user_id', '=', userId).execute();
        await trx.deleteFrom('secret_backups').where('user_id', '=', userId).execute();
      });
    },
  };
}

export const secretBackupRoutes = fp(
  async (app) => {
    const { clock, db } = app;
    const backups = createSecretBackups(db, () => new Date(clock.now()).toISOString());
    contractRoute(app, 'secretBackup', async ({ userId }) => ({ backup: await backups.info(userId) }));
    contractRoute(app, 'secretBackupKey', async ({ userId, body }) => ({
      backup: await backups.setKey(userId, body),
    }));
    contractRoute(app, 'secretBackupUpload', ({ userId, body }) => backups.upload(userId, body), {
      bodyLimit: CHUNK_BODY,
    });
    contractRoute(app, 'secretBackupChunks', ({ userId, query }) => backups.chunks(userId, query.after));
    contractRoute(app, 'secretBackupDelete', async ({ userId }) => {
      await backups.remove(userId);
      return { ok: true as const };
    });
  },
  {
    name: 'secret-backup-routes',
    encapsulate: true,
    decorators: { fastify: ['clock', 'db', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
