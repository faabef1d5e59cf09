/**
 * Back office, part 2: refunds (each one the provider made, with its amount and whether the provider has
 * confirmed it), how much of an order was refunded and when it was cancelled, the test provider's refunds,
 * and contact messages the owner has handled.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('orders').addColumn('cancelled_at', 'text').execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    // The provider's refund id (Stripe `re_…`); null for a refund known only from a charge's refunded total.
    .addColumn('provider_refund_id', 'text', (c) => c.unique())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    // pending | succeeded | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .execute();
  await db.schema.createIndex('refunds_order_idx').on('refunds').columns(['order_id', 'created_at']).execute();
  // The dashboard: refunds made in a period.
  await db.schema.createIndex('refunds_created_idx').on('refunds').columns(['created_at']).execute();
  // The dashboard: paid orders in a period.
  await db.schema.createIndex('orders_paid_at_idx').on('orders').columns(['paid_at']).execute();

  await db.schema.alterTable('test_payments').addColumn('card_last4', 'text').execute();
  await db.schema
    .createTable('test_refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('contact_messages').addColumn('handled_at', 'text').execute();
  await db.schema.alterTable('contact_messages').addColumn('handled_by', 'text').execute();
  await db.schema.createIndex('contact_messages_created_idx').on('contact_messages').columns(['created_at']).execute();
  await db.schema.createIndex('contact_messages_handled_idx').on('contact_messages').columns(['handled_at']).execute();
  // The dashboard's funnel reads each step's visitors in a period from the index alone (SQLite: 184 → 68 ms
  // for 100,000 events); it replaces the (name, created_at) index, its prefix.
  await db.schema.createIndex('analytics_events_funnel_idx').on('analytics_events').columns(['name', 'created_at', 'visitor_id']).execute();
  await db.schema.dropIndex('analytics_events_name_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('analytics_events_name_idx').on('analytics_events').columns(['name', 'created_at']).execute();
  await db.schema.dropIndex('analytics_events_funnel_idx').ifExists().execute();
  await db.schema.dropIndex('contact_messages_handled_idx').ifExists().execute();
  await db.schema.dropIndex('contact_messages_created_idx').ifExists().execute();
  await db.schema.alterTable('contact_messages').dropColumn('handled_by').execute();
  await db.schema.alterTable('contact_messages').dropColumn('handled_at').execute();
  await db.schema.dropTable('test_refunds').ifExists().execute();
  await db.schema.alterTable('test_payments').dropColumn('card_last4').execute();
  await db.schema.dropIndex('orders_paid_at_idx').ifExists().execute();
  await db.schema.dropTable('refunds').ifExists().execute();
  await db.schema.alterTable('orders').dropColumn('cancelled_at').execute();
  await db.schema.alterTable('orders').dropColumn('refunded_cents').execute();
}
