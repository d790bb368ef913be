// Threads (docs/behaviour.md §10, «Обсуждения»): a message may answer a root message of its group in a thread
// (`thread_root_id`); such replies stay out of the main timeline. `thread_follows` holds who follows which thread
// and how far they have read it; a group's owner or admins may turn threads off (`threads_off`).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('thread_root_id', 'text').execute();
  // A thread's replies in order, and the roots' summaries (count, last repliers) from one range each.
  await db.schema.createIndex('messages_thread').on('messages').columns(['thread_root_id', 'seq']).execute();
  await db.schema
    .alterTable('conversations')
    .addColumn('threads_off', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('thread_follows')
    .addColumn('root_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    // 0 once unfollowed (the row keeps the read position); writing or being mentioned sets it to 1 again.
    .addColumn('following', 'integer', (c) => c.notNull())
    .addColumn('read_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('thread_follows_pk', ['root_id', 'user_id'])
    .execute();
  await db.schema.createIndex('thread_follows_user').on('thread_follows').columns(['user_id', 'following']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('thread_follows').execute();
  await db.schema.alterTable('conversations').dropColumn('threads_off').execute();
  await db.schema.dropIndex('messages_thread').execute();
  await db.schema.alterTable('messages').dropColumn('thread_root_id').execute();
}
