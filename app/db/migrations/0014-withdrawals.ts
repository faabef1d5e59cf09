/**
 * Withdrawals from a contract made through the shop (art. 11a of Directive 2011/83/EU): who withdrew, from
 * which order and which of its products, why if they said, in which language, and when. The lines are the
 * products' ids, titles and quantities as the order had them (JSON), so the record stands on its own. Once
 * the owner refunds it, the amount and the moment are kept on it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('withdrawals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('refunded_cents', 'integer')
    .addColumn('refunded_at', 'text')
    .execute();
  await db.schema.createIndex('withdrawals_order_idx').on('withdrawals').column('order_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('withdrawals').ifExists().execute();
}
