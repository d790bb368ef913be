// Deletions since a time (GET /api/messages/deleted): a device that was closed catches up on the messages deleted
// meanwhile. Only deleted rows are indexed, so the index stays as small as the deletions.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('messages_deleted_at')
    .on('messages')
    .column('deleted_at')
    .where(sql.ref('deleted_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_deleted_at').execute();
}
