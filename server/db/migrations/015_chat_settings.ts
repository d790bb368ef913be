// Per-person chat settings, kept with the membership so they follow the person to every device: muted until a time,
// pinned (and when, for the order), archived (until a newer message than this seq, unless muted) and hidden («Удалить
// чат» of a direct chat: until a newer message than this seq). «Очистить историю» moves visible_from_seq.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of [
    ['muted_until', 'text'],
    ['pinned_at', 'text'],
    ['archived_seq', 'integer'],
    ['hidden_seq', 'integer'],
  ] as const) {
    await db.schema.alterTable('conversation_members').addColumn(name, type).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['hidden_seq', 'archived_seq', 'pinned_at', 'muted_until']) {
    await db.schema.alterTable('conversation_members').dropColumn(name).execute();
  }
}
