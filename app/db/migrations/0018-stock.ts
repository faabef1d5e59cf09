/**
 * Stock, the roaster's way (docs/decisions/0020): per product a way of keeping stock — roast batches (grams
 * roasted and left, drawn oldest first), counted units per variant, or not tracked (every product so far, so
 * nothing is sold out by this migration). Every change is a movement in a ledger; going to payment reserves
 * the order's grams or units until the reservation is taken (paid), released or expires. An order line keeps
 * the batches its coffee came from; an order paid after its stock was gone is marked to be refunded.
 * Shoppers may ask to be told when a sold-out variant is back.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // How each product's stock is kept; a product without a row is not tracked (every product so far).
  await db.schema
    .createTable('stock_settings')
    .addColumn('product_id', 'text', (c) => c.primaryKey().references('products.id').onDelete('cascade'))
    /** batches | units | untracked */
    .addColumn('mode', 'text', (c) => c.notNull())
    /** Batches roasted longer ago than this many days stop counting as stock (null: no limit). */
    .addColumn('sell_within_days', 'integer')
    /** What the pages last showed of its stock (each variant's state, the roast date): a change empties the page caches. */
    .addColumn('shown', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // What stock needs of each variant, kept by the catalogue when it writes variants: its weight (a bag draws it
  // from the batches) and, in units mode, its counted units.
  await db.schema
    .createTable('stock_variants')
    .addColumn('variant_id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('net_weight_grams', 'integer')
    .addColumn('units', 'integer')
    .execute();
  await db.schema.createIndex('stock_variants_product_idx').on('stock_variants').column('product_id').execute();
  await db.insertInto('stock_variants').columns(['variant_id', 'product_id', 'net_weight_grams', 'units']).expression(db.selectFrom('variants').select(['id', 'product_id', 'net_weight_grams', sql`null`.as('units')])).execute();

  await db.schema
    .createTable('roast_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('roasted_on', 'text', (c) => c.notNull())
    .addColumn('grams_roasted', 'integer', (c) => c.notNull())
    .addColumn('grams_left', 'integer', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('roast_batches_product_idx').on('roast_batches').columns(['product_id', 'roasted_on']).execute();

  await db.schema
    .createTable('stock_movements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('variant_id', 'text')
    .addColumn('batch_id', 'text')
    .addColumn('order_id', 'text')
    /** roasted | sold | returned | corrected */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('grams', 'integer')
    .addColumn('units', 'integer')
    /** A correction's reason: count | damaged | sample | other. */
    .addColumn('reason', 'text')
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('actor', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_movements_product_idx').on('stock_movements').columns(['product_id', 'created_at']).execute();
  await db.schema.createIndex('stock_movements_order_idx').on('stock_movements').column('order_id').execute();

  await db.schema
    .createTable('stock_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('grams', 'integer')
    .addColumn('units', 'integer')
    /** live | taken | released */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_reservations_product_idx').on('stock_reservations').columns(['product_id', 'status', 'expires_at']).execute();
  await db.schema.createIndex('stock_reservations_order_idx').on('stock_reservations').column('order_id').execute();

  /** JSON [{ batchId, roastedOn, grams }]: the roast batches the line's coffee came from. */
  await db.schema.alterTable('order_lines').addColumn('batches', 'text').execute();
  /** Set when the order was paid after its stock was gone: it is refunded in full, never shipped. */
  await db.schema.alterTable('orders').addColumn('stock_short_at', 'text').execute();
  // A cart's orders: what its own payments hold is not counted against it, on every cart view and checkout.
  await db.schema.createIndex('orders_cart_idx').on('orders').column('cart_id').execute();

  await db.schema
    .createTable('stock_alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    /** The random token of the unsubscribe link in its mails (it can only cancel this notice). */
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('notified_at', 'text')
    .execute();
  await db.schema.createIndex('stock_alerts_variant_idx').on('stock_alerts').columns(['variant_id', 'notified_at']).execute();
  await db.schema.createIndex('stock_alerts_email_idx').on('stock_alerts').columns(['variant_id', 'email']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['stock_alerts', 'stock_reservations', 'stock_movements', 'roast_batches', 'stock_variants', 'stock_settings']) await db.schema.dropTable(table).ifExists().execute();
  await db.schema.dropIndex('orders_cart_idx').ifExists().execute();
  await db.schema.alterTable('orders').dropColumn('stock_short_at').execute();
  await db.schema.alterTable('order_lines').dropColumn('batches').execute();
}
