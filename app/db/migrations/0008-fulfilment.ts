/** Fulfilment: how and when an order was shipped and delivered (carrier and tracking number shown to the customer). */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('carrier', 'text').execute();
  await db.schema.alterTable('orders').addColumn('tracking_number', 'text').execute();
  await db.schema.alterTable('orders').addColumn('shipped_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('delivered_at', 'text').execute();
  // The owner's order list: paid orders newest first, optionally by status.
  await db.schema.createIndex('orders_paid_status_idx').on('orders').columns(['payment_status', 'shipping_status', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_paid_status_idx').ifExists().execute();
  for (const column of ['delivered_at', 'shipped_at', 'tracking_number', 'carrier']) await db.schema.alterTable('orders').dropColumn(column).execute();
}
