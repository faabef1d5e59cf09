/**
 * Fair holds and replaced orders (docs/decisions/0031). A hold knows whose it is — the cart it was made from and
 * the client address it came from — so what one cart, customer or address holds at once can be bounded, and each of
 * them has a window of time it may hold coffee in (`stock_hold_windows`), so going to payment again does not
 * renew a hold for ever. An order a newer one replaced (the cart changed, another tab) is marked so, its payment
 * is cancelled at the provider, and should it be paid anyway it is refunded in full.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  /** The cart whose order made the hold, and the client address it came from (`ip:…`; cleared once it is not live). */
  await db.schema.alterTable('stock_reservations').addColumn('holder', 'text').execute();
  await db.schema.alterTable('stock_reservations').addColumn('client', 'text').execute();
  await db.schema.createIndex('stock_reservations_client_idx').on('stock_reservations').columns(['client', 'status']).execute();

  /** `cart:…`, `user:…` or `ip:…`: when its current stretch of holding coffee began, and until when it holds. */
  await db.schema
    .createTable('stock_hold_windows')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('held_until', 'text', (c) => c.notNull())
    .execute();

  /** When a newer order of the same cart replaced this one (its payment_status is then `replaced`). */
  await db.schema.alterTable('orders').addColumn('replaced_at', 'text').execute();
  /** When the provider confirmed the replaced order's payment was cancelled (until then each sweep asks again). */
  await db.schema.alterTable('orders').addColumn('payment_cancelled_at', 'text').execute();
  /** Why the order's coffee could not be held while it is paid (`time`, `amount`, `client`); null when held. */
  await db.schema.alterTable('orders').addColumn('hold_refused', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('hold_refused').execute();
  await db.schema.alterTable('orders').dropColumn('payment_cancelled_at').execute();
  await db.schema.alterTable('orders').dropColumn('replaced_at').execute();
  await db.schema.dropTable('stock_hold_windows').ifExists().execute();
  await db.schema.dropIndex('stock_reservations_client_idx').ifExists().execute();
  await db.schema.alterTable('stock_reservations').dropColumn('client').execute();
  await db.schema.alterTable('stock_reservations').dropColumn('holder').execute();
}
