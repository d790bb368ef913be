// «Открытая» group (docs/behaviour.md §10.25): listed in «Открытые группы» while the directory is on and joined with
// one click. Every group there is now stays invitation-only. The directory's own switch is a server setting.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('conversations')
    .addColumn('open', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversations').dropColumn('open').execute();
}
