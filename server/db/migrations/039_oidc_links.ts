// The organisation's sign-in (docs/administration.md, «Вход через организацию»): which account a person of the
// OpenID Connect provider signs into, by the provider's issuer and its subject (`sub`, stable for that person; an
// e-mail is never used to match). One account has at most one link per issuer.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_links')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oidc_links_pk', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('oidc_links_user').on('oidc_links').columns(['user_id', 'issuer']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_links').execute();
}
