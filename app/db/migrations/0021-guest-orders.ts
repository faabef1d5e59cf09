/**
 * Orders from guests (docs/decisions/0022), when the owner accepts them: an order no longer needs an account
 * (`user_id` may be null; the customer is its email), a guest's order has a private key for the link its mails
 * carry, and a guest's pending order is reused per cart as a customer's is per account. The owner's choice is
 * `delivery_settings.guest_checkout` (off: guests sign in first, as the specification says).
 *
 * SQLite cannot drop a NOT NULL in place: the table is rebuilt as SQLite documents it (foreign keys off, a new
 * table with the same definition but that one constraint, the rows copied, the old one dropped, the new one
 * renamed, its indexes made again, the foreign keys checked).
 */
import { type Kysely, sql } from 'kysely';

const NOT_NULL_USER = /"user_id" text not null references/;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter.constructor.name.startsWith('Postgres');
  if (postgres) await sql`alter table orders alter column user_id drop not null`.execute(db);
  else await rebuildOrdersWithOptionalUser(db);

  /** The key in a guest's order link (random, 128 bits); null for a customer's order. */
  await db.schema.alterTable('orders').addColumn('guest_key', 'text').execute();
  // A guest's pending order, one per cart and fingerprint (a customer's is one per account and fingerprint).
  await db.schema
    .createIndex('orders_pending_guest_cart_uq')
    .on('orders')
    .columns(['cart_id', 'cart_fingerprint'])
    .unique()
    .where(sql<boolean>`payment_status = 'pending' and user_id is null`)
    .execute();
  await db.schema.alterTable('delivery_settings').addColumn('guest_checkout', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

async function rebuildOrdersWithOptionalUser(db: Kysely<any>): Promise<void> {
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'orders'`.execute(db);
  const definition = table.rows[0]?.sql ?? '';
  if (!NOT_NULL_USER.test(definition)) throw new Error('orders.user_id is not defined as expected');
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'orders' and sql is not null`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      const rebuilt = definition.replace(/^create table "orders"/i, 'create table "orders_rebuilt"').replace(NOT_NULL_USER, '"user_id" text references');
      await sql.raw(rebuilt).execute(trx);
      await sql`insert into orders_rebuilt select * from orders`.execute(trx);
      await sql`drop table orders`.execute(trx);
      await sql`alter table orders_rebuilt rename to orders`.execute(trx);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`rebuilding orders broke ${broken.rows.length} references`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('delivery_settings').dropColumn('guest_checkout').execute();
  await db.schema.dropIndex('orders_pending_guest_cart_uq').execute();
  await db.schema.alterTable('orders').dropColumn('guest_key').execute();
}
