/**
 * Variants (docs/decisions/0020): what a shopper buys is a variant of a product — its SKU, net weight, grind or
 * pack size, price, and whether it is on sale. Every existing product becomes one variant with its price and
 * weight (and no options), so the shop reads as before; carts hold variants; order lines keep a snapshot of the
 * variant they were (SKU, label, weight), filled in here for past orders whose product still exists.
 */
import { type Kysely, sql } from 'kysely';
import { newId } from '../ids.server';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('variants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('sku', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('net_weight_grams', 'integer')
    .addColumn('grind', 'text')
    .addColumn('pack_count', 'integer')
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('variants_product_idx').on('variants').columns(['product_id', 'position']).execute();
  /** The options the product is sold by, in order: '' (one way), 'size', 'grind', 'size,grind' or 'pack'. */
  await db.schema.alterTable('products').addColumn('options', 'text', (c) => c.notNull().defaultTo('')).execute();

  // One variant per product, with its price and weight.
  const taken = new Set<string>();
  for (let after = ''; ; ) {
    const products: Array<{ id: string; price_cents: number; net_weight_grams: number | null; created_at: string; name: string | null }> = await db
      .selectFrom('products')
      .leftJoin('product_translations as en', (join) => join.onRef('en.product_id', '=', 'products.id').on('en.locale', '=', 'en'))
      .select(['products.id', 'products.price_cents', 'products.net_weight_grams', 'products.created_at', 'en.name as name'])
      .where('products.id', '>', after)
      .orderBy('products.id')
      .limit(500)
      .execute();
    if (products.length === 0) break;
    after = products[products.length - 1].id;
    await db
      .insertInto('variants')
      .values(
        products.map((p) => ({
          id: newId(),
          product_id: p.id,
          sku: uniqueSku(p.name ?? '', p.net_weight_grams, taken),
          position: 0,
          net_weight_grams: p.net_weight_grams,
          grind: null,
          pack_count: null,
          price_cents: p.price_cents,
          active: 1,
          created_at: p.created_at,
          updated_at: p.created_at,
        })),
      )
      .execute();
  }

  // A cart line is a variant: the table is made again with the variant in its key.
  await db.schema
    .createTable('cart_items')
    .addColumn('cart_id', 'text', (c) => c.notNull().references('carts.id').onDelete('cascade'))
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cart_items_pk', ['cart_id', 'variant_id'])
    .execute();
  await sql`insert into cart_items (cart_id, variant_id, quantity, added_at)
    select l.cart_id, v.id, l.quantity, l.added_at from cart_lines l join variants v on v.product_id = l.product_id`.execute(db);
  await db.schema.dropTable('cart_lines').execute();
  await db.schema.alterTable('cart_items').renameTo('cart_lines').execute();

  // Order lines keep the variant they were.
  await db.schema.alterTable('order_lines').addColumn('variant_id', 'text').execute();
  await db.schema.alterTable('order_lines').addColumn('sku', 'text').execute();
  await db.schema.alterTable('order_lines').addColumn('variant_label', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('order_lines').addColumn('net_weight_grams', 'integer').execute();
  await sql`update order_lines set
      variant_id = (select v.id from variants v where v.product_id = order_lines.product_id),
      sku = (select v.sku from variants v where v.product_id = order_lines.product_id),
      net_weight_grams = (select v.net_weight_grams from variants v where v.product_id = order_lines.product_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['net_weight_grams', 'variant_label', 'sku', 'variant_id']) await db.schema.alterTable('order_lines').dropColumn(column).execute();
  await db.schema
    .createTable('cart_items')
    .addColumn('cart_id', 'text', (c) => c.notNull().references('carts.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cart_items_pk', ['cart_id', 'product_id'])
    .execute();
  await sql`insert into cart_items (cart_id, product_id, quantity, added_at)
    select l.cart_id, v.product_id, max(l.quantity), min(l.added_at) from cart_lines l join variants v on v.id = l.variant_id group by l.cart_id, v.product_id`.execute(db);
  await db.schema.dropTable('cart_lines').execute();
  await db.schema.alterTable('cart_items').renameTo('cart_lines').execute();
  await db.schema.alterTable('products').dropColumn('options').execute();
  await db.schema.dropTable('variants').execute();
}

/** "GAYO-WINE-NATURAL-250": the name's letters and the weight, made unique with a number (frozen here). */
function uniqueSku(name: string, grams: number | null, taken: Set<string>): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ł/gi, 'L')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '');
  const base = [words || 'KOPI', grams ? String(grams) : ''].filter(Boolean).join('-');
  let sku = base;
  for (let n = 2; taken.has(sku); n++) sku = `${base}-${n}`;
  taken.add(sku);
  return sku;
}
