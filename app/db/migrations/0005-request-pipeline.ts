/**
 * The request pipeline: one table of attempts for every abuse limit (sign-ups, contact messages, logins,
 * reset requests; it replaces the login-only `auth_failures`, whose rows only counted the last hour), and the
 * consenting visitor's analytics id on an order, so the server records the purchase when the order is paid.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('scope_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_events_scope_idx').on('rate_events').columns(['kind', 'scope_key', 'created_at']).execute();
  await db.schema.createIndex('rate_events_created_idx').on('rate_events').column('created_at').execute();
  await db.schema.dropTable('auth_failures').ifExists().execute();

  await db.schema.alterTable('orders').addColumn('visitor_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('visitor_id').execute();
  await db.schema.dropTable('rate_events').ifExists().execute();
}
