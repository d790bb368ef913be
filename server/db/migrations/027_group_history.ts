// «История для новых участников»: whether someone who joins a group later reads its whole history (1, «Видна») or
// only what comes after their joining (0, «Скрыта»). New conversations get 1 by the column's default; the groups that
// exist keep the behaviour they had, 0. Direct and secret chats ignore it. A member's joined_seq is the group's newest
// message when they joined (0 for founders and for memberships older than this migration): receipts of the messages
// before it do not count them, whatever they may read.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('conversations')
    .addColumn('history_visible', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`UPDATE conversations SET history_visible = 0`.execute(db);
  await db.schema
    .alterTable('conversation_members')
    .addColumn('joined_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversation_members').dropColumn('joined_seq').execute();
  await db.schema.alterTable('conversations').dropColumn('history_visible').execute();
}
