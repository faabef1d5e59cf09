/**
 * Orders, their lines, processed payment-provider events (webhook idempotency) and the test provider's
 * simulated payments. An order is created pending before payment and becomes paid from the provider's
 * confirmation. At most one pending order per customer and cart fingerprint (partial unique index), so two
 * tabs paying the same cart share one order and one payment.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('cart_id', 'text')
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('EUR'))
    .addColumn('payment_provider', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text', (c) => c.unique())
    .addColumn('payment_client_secret', 'text')
    .addColumn('cart_fingerprint', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('shipping_status', 'text', (c) => c.notNull().defaultTo('processing'))
    .addColumn('shipping_full_name', 'text', (c) => c.notNull())
    .addColumn('shipping_address', 'text', (c) => c.notNull())
    .addColumn('shipping_city', 'text', (c) => c.notNull())
    .addColumn('shipping_zip_code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .execute();
  // My Orders: a customer's paid orders, newest first.
  await db.schema.createIndex('orders_user_created_idx').on('orders').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createIndex('orders_pending_cart_uq')
    .on('orders')
    .columns(['user_id', 'cart_fingerprint'])
    .unique()
    .where(sql.ref('payment_status'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('order_lines')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('unit_price_cents', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('image', 'text')
    .addPrimaryKeyConstraint('order_lines_pk', ['order_id', 'position'])
    .execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('test_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['test_payments', 'payment_events', 'order_lines', 'orders']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
