// Polls («Опрос», docs/behaviour.md §10.33 Polls): a POLL message's question and options (`polls`), and the votes.
// A ballot row per voter and poll is the lock a re-vote takes (two tabs of one person are serialised on it); each
// chosen option is a row of `poll_votes`, unique per voter, so a double click can never count a person twice.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('polls')
    .addColumn('message_id', 'text', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    // The options' texts as a JSON array; an option's id is its index.
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('multiple', 'integer', (c) => c.notNull())
    .addColumn('anonymous', 'integer', (c) => c.notNull())
    // A quiz: the index of its right option (null: a plain poll).
    .addColumn('correct_option', 'integer')
    .addColumn('explanation', 'text')
    .addColumn('closed_at', 'text')
    // Every vote, retraction and closing bumps it in its transaction: the row lock orders a poll's changes, and
    // clients drop an update older than the one they have.
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('poll_ballots')
    .addColumn('message_id', 'text', (c) => c.notNull().references('polls.message_id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('voted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_ballots_pk', ['message_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('poll_votes')
    .addColumn('message_id', 'text', (c) => c.notNull().references('polls.message_id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('option', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_votes_pk', ['message_id', 'user_id', 'option'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('poll_votes').execute();
  await db.schema.dropTable('poll_ballots').execute();
  await db.schema.dropTable('polls').execute();
}
