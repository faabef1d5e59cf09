/**
 * Every product's net weight in grams, for the price per kilogram shown beside its price (Directive
 * 98/6/EC). null until the owner sets it (the back office asks for it). Shops that started with the demo
 * catalogue get its weights here, by the coffees' English names (frozen in this file).
 */
import { type Kysely, sql } from 'kysely';

const demoWeights: Record<number, string[]> = {
  55: [
    'Sumatra Mandheling Capsules, 10 pcs',
    'West Java Preanger Capsules, 10 pcs',
    'Bali Kintamani Lungo Capsules, 10 pcs',
    'Toraja Espresso Capsules, 10 pcs',
  ],
  120: [
    'Gayo Drip Bags, 10 × 12 g',
    'Bali Kintamani Drip Bags, 10 × 12 g',
    'Toraja Drip Bags, 10 × 12 g',
    'Papua Wamena Drip Bags, 10 × 12 g',
    'Java Ijen Drip Bags, 10 × 12 g',
  ],
  126: ['Lintong Espresso Pods (ESE), 18 pcs'],
  250: [
    'Gayo Wine Natural',
    'Mandheling Grade 1',
    'Lintong Lake Toba',
    'Kerinci Red Honey',
    'Java Ijen Plateau',
    'West Java Preanger Natural',
    'Toraja Sapan',
    'Bali Kintamani Natural',
    'Flores Bajawa Honey',
    'Papua Wamena Baliem Valley',
    'Lombok Sembalun Anaerobic',
    'Java Malabar, Ground for Filter',
    'Sulawesi Kalosi, Ground for Moka Pot',
    'Aceh Gayo, Ground for French Press',
    'Bali Kintamani, Ground for Filter',
    'Flores Manggarai Dark, Ground for Espresso',
    'West Timor Mollo, Ground for AeroPress',
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('products').addColumn('net_weight_grams', 'integer').execute();
  for (const [grams, names] of Object.entries(demoWeights)) {
    await sql`update products set net_weight_grams = ${Number(grams)}
      where id in (select product_id from product_translations where locale = 'en' and name in (${sql.join(names)}))`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('products').dropColumn('net_weight_grams').execute();
}
