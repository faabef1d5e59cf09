/**
 * Two currencies with fixed prices (docs/decisions/0023): every variant and every delivery rate has a price in
 * euros and in złoty, the product keeps its lowest złoty price beside its lowest euro price (the grid's price
 * sort), and the owner's currency settings say which currency each language's pages show by default (euros, as
 * the specification has it) and the shop rate and rounding that propose złoty prices.
 *
 * Existing prices get złoty prices proposed at the starting rate (4.25, ending in .99), exactly as the owner's
 * "Propose prices" would, so its first list is empty: the owner reviews them on the currencies page.
 */
import { type Kysely, sql } from 'kysely';

const START_RATE = 42_500;
const SCALE = 10_000;

/** A frozen copy of app/modules/pricing/currencies.ts `proposePrice`, so this migration never changes. */
function propose(euroCents: number, ending: number): number {
  const grosze = (euroCents * START_RATE) / SCALE;
  const below = Math.floor((grosze - ending) / 100) * 100 + ending;
  const nearest = grosze - below < below + 100 - grosze ? below : below + 100;
  return Math.max(nearest, ending === 0 ? 100 : ending);
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('variants').addColumn('price_pln', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('products').addColumn('price_pln', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('delivery_rates').addColumn('price_pln', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('delivery_methods').addColumn('free_over_pln', 'integer').execute();
  await db.schema
    .createTable('currency_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    /** The currency each language's pages show a shopper who has not chosen one. */
    .addColumn('default_en', 'text', (c) => c.notNull().defaultTo('EUR'))
    .addColumn('default_pl', 'text', (c) => c.notNull().defaultTo('EUR'))
    /** Złoty per euro in ten-thousandths (4.25 → 42500), used only to propose prices. */
    .addColumn('rate', 'integer', (c) => c.notNull().defaultTo(START_RATE))
    /** '99' | '49' | '00': how proposed prices end. */
    .addColumn('rounding', 'text', (c) => c.notNull().defaultTo('99'))
    .execute();
  await db.insertInto('currency_settings').values({ id: 1 }).execute();
  await db.schema.createIndex('products_price_pln_idx').on('products').column('price_pln').execute();

  const variants = await db.selectFrom('variants').select(['id', 'price_cents']).execute();
  for (const v of variants) await db.updateTable('variants').set({ price_pln: propose(Number(v.price_cents), 99) }).where('id', '=', v.id).execute();
  // Each product's lowest złoty price among its active variants (none active: its lowest of all).
  await sql`update products set price_pln = coalesce(
    (select min(price_pln) from variants where variants.product_id = products.id and variants.active = 1),
    (select min(price_pln) from variants where variants.product_id = products.id), 0)`.execute(db);
  const rates = await db.selectFrom('delivery_rates').select(['method_id', 'max_grams', 'price_cents']).execute();
  for (const r of rates) {
    const pln = Number(r.price_cents) === 0 ? 0 : propose(Number(r.price_cents), 99);
    await db.updateTable('delivery_rates').set({ price_pln: pln }).where('method_id', '=', r.method_id).where('max_grams', '=', r.max_grams).execute();
  }
  // Every price has its złoty amount now. On PostgreSQL (where several nodes may run while they are upgraded) the
  // default goes: a node still on the old code cannot add a variant or a band that would sell for 0 zł, its insert
  // fails instead. SQLite cannot drop a default in place, and runs one node.
  if (db.getExecutor().adapter.constructor.name.startsWith('Postgres')) {
    await sql`alter table variants alter column price_pln drop default`.execute(db);
    await sql`alter table delivery_rates alter column price_pln drop default`.execute(db);
  }
  const methods = await db.selectFrom('delivery_methods').select(['id', 'free_over_cents']).where('free_over_cents', 'is not', null).execute();
  for (const m of methods) {
    const euro = Number(m.free_over_cents);
    await db.updateTable('delivery_methods').set({ free_over_pln: euro === 0 ? 0 : propose(euro, 99) }).where('id', '=', m.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('products_price_pln_idx').execute();
  await db.schema.dropTable('currency_settings').execute();
  await db.schema.alterTable('delivery_methods').dropColumn('free_over_pln').execute();
  await db.schema.alterTable('delivery_rates').dropColumn('price_pln').execute();
  await db.schema.alterTable('products').dropColumn('price_pln').execute();
  await db.schema.alterTable('variants').dropColumn('price_pln').execute();
}
