/**
 * Sales and the price history the Omnibus rule needs (docs/decisions/0025): every price a variant has had in
 * each currency, from when, appended and never rewritten; and the owner's scheduled sales with what they apply
 * to (variants, products or a category).
 *
 * Discount codes (docs/decisions/0026): the code, what it takes off (a percentage or an amount of the goods, or
 * the delivery), its limits, what it applies to, and each use an order holds or made; the cart keeps the code
 * its shopper entered, an order what it took off, spread over its lines.
 *
 * Existing variants get their current prices as listed when they were created: the shop knew no other.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('price_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    /** EUR | PLN */
    .addColumn('currency', 'text', (c) => c.notNull())
    /** The price shoppers were asked from `at` (a sale's price while it ran), in cents or grosze. */
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    /** The regular price then (the same as price_cents outside a sale). */
    .addColumn('regular_cents', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    /** listed | edited | rate | sale-started | sale-ended */
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('sale_id', 'text')
    .execute();
  await db.schema.createIndex('price_history_variant_idx').on('price_history').columns(['variant_id', 'currency', 'at']).execute();
  // A sale's start and end are written once per variant and currency, whichever node sees them first.
  await db.schema.createIndex('price_history_sale_idx').on('price_history').columns(['sale_id', 'variant_id', 'currency', 'reason']).unique().where('sale_id', 'is not', null).execute();

  await db.schema
    .createTable('sales')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** percent | price */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** Whole percent off (kind percent). */
    .addColumn('percent', 'integer')
    /** The new price in each currency (kind price: one variant). */
    .addColumn('price_cents', 'integer')
    .addColumn('price_pln', 'integer')
    /** variants | products | category */
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('label_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('label_pl', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sales_ends_idx').on('sales').column('ends_at').execute();
  await db.schema
    .createTable('sale_targets')
    .addColumn('sale_id', 'text', (c) => c.notNull())
    /** A variant's, a product's id, or a category's key, as the sale's scope says. */
    .addColumn('target', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sale_targets_pk', ['sale_id', 'target'])
    .execute();

  /** The sale that reduced the line's price when it was bought (its orders and revenue on the promotions page). */
  await db.schema.alterTable('order_lines').addColumn('sale_id', 'text').execute();
  await db.schema.createIndex('order_lines_sale_idx').on('order_lines').column('sale_id').where('sale_id', 'is not', null).execute();

  await db.schema
    .createTable('discount_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** As shoppers type it, upper-case ("KAWA10"); matched trimmed and case-insensitively. */
    .addColumn('code', 'text', (c) => c.notNull().unique())
    /** percent | amount | delivery */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('percent', 'integer')
    /** Kind amount: what it takes off the goods in each currency. */
    .addColumn('amount_cents', 'integer')
    .addColumn('amount_pln', 'integer')
    /** The goods an order must reach, in each currency (null: no minimum). */
    .addColumn('min_cents', 'integer')
    .addColumn('min_pln', 'integer')
    .addColumn('starts_at', 'text')
    .addColumn('ends_at', 'text')
    /** Uses in all (null: unlimited) and per customer (null: unlimited); `uses` counts those held and made. */
    .addColumn('max_uses', 'integer')
    .addColumn('max_per_customer', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    /** all | categories | products */
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('all'))
    /** 1: it takes off lines already on sale too. */
    .addColumn('with_sales', 'integer', (c) => c.notNull().defaultTo(0))
    /** 1: the product pages it applies to show it (an announced reduction). */
    .addColumn('advertised', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('discount_code_targets')
    .addColumn('code_id', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('discount_code_targets_pk', ['code_id', 'target'])
    .execute();
  await db.schema
    .createTable('discount_code_uses')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('code_id', 'text', (c) => c.notNull())
    /** "user:{id}" for a customer signed in, "email:{address}" otherwise (lower-case). */
    .addColumn('customer', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    /** held (the order is being paid) | used (paid) | released (let go: abandoned, replaced, expired) */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('discount_code_uses_code_idx').on('discount_code_uses').columns(['code_id', 'status']).execute();
  await db.schema.createIndex('discount_code_uses_held_idx').on('discount_code_uses').columns(['status', 'expires_at']).execute();
  /** The code the cart's shopper entered (applied while it holds). */
  await db.schema.alterTable('carts').addColumn('discount_code', 'text').execute();
  /** What the order's code took off: the goods (spread over the lines) and the delivery. */
  await db.schema.alterTable('orders').addColumn('discount_code', 'text').execute();
  await db.schema.alterTable('orders').addColumn('discount_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('orders').addColumn('delivery_discount_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('order_lines').addColumn('discount_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  /**
   * What the sales and advertised codes cover changes rarely, the catalogue version with every bag sold: a stamp of
   * its own (with this database's random id, so two databases never share a cache) lets a node reuse the sales it
   * read while only the stock moved.
   */
  await db.schema.alterTable('catalog_state').addColumn('promotions', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('catalog_state').addColumn('instance', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.updateTable('catalog_state').set({ instance: randomUUID() }).execute();

  const variants = await db.selectFrom('variants').select(['id', 'price_cents', 'price_pln', 'created_at']).execute();
  const rows = variants.flatMap((v) =>
    (['EUR', 'PLN'] as const).map((currency) => {
      const price = Number(currency === 'EUR' ? v.price_cents : v.price_pln);
      return { id: randomUUID(), variant_id: v.id, currency, price_cents: price, regular_cents: price, at: v.created_at, reason: 'listed', sale_id: null };
    }),
  );
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('price_history').values(rows.slice(i, i + 200)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalog_state').dropColumn('instance').execute();
  await db.schema.alterTable('catalog_state').dropColumn('promotions').execute();
  await db.schema.alterTable('order_lines').dropColumn('discount_cents').execute();
  await db.schema.alterTable('orders').dropColumn('delivery_discount_cents').execute();
  await db.schema.alterTable('orders').dropColumn('discount_cents').execute();
  await db.schema.alterTable('orders').dropColumn('discount_code').execute();
  await db.schema.alterTable('carts').dropColumn('discount_code').execute();
  await db.schema.dropTable('discount_code_uses').execute();
  await db.schema.dropTable('discount_code_targets').execute();
  await db.schema.dropTable('discount_codes').execute();
  await db.schema.dropIndex('order_lines_sale_idx').execute();
  await db.schema.alterTable('order_lines').dropColumn('sale_id').execute();
  await db.schema.dropTable('sale_targets').execute();
  await db.schema.dropTable('sales').execute();
  await db.schema.dropTable('price_history').execute();
}
