// Link previews (docs/behaviour.md §10.30 Link previews): `link_previews` caches what the server fetched for a URL
// (24 h, then the next message with that URL fetches it again); `message_previews` ties a message to the URL whose
// card it shows, and the sender's «Убрать предпросмотр» deletes that row.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('link_previews')
    .addColumn('url', 'text', (c) => c.primaryKey())
    // 'ready' (a card) or 'failed' (refused, unreachable, not HTML, nothing to show): both are cached.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('site_name', 'text')
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    // The re-encoded picture in the uploads storage, served at /uploads/previews/<key>.
    .addColumn('image_key', 'text')
    .addColumn('image_width', 'integer')
    .addColumn('image_height', 'integer')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_previews_image').on('link_previews').column('image_key').execute();
  await db.schema
    .createTable('message_previews')
    .addColumn('message_id', 'text', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('message_previews').execute();
  await db.schema.dropTable('link_previews').execute();
}
