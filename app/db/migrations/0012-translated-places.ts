/**
 * A product's origin and growing region in each language: Polish pages said "Java · Ijen Plateau, East
 * Java" where they should say "Jawa · Płaskowyż Ijen, Jawa Wschodnia". `products.origin` and `region` stay
 * the English (and default) words; a translation row may carry its own, empty meaning "as in English".
 *
 * Shops that started with the demo catalogue get its Polish place names here (the words are frozen in
 * this file, as a migration must be); anything the owner typed is left alone.
 */
import { type Kysely, sql } from 'kysely';

const polishPlaces: Record<string, string> = {
  Java: 'Jawa',
  'Kintamani highlands, Mount Batur': 'Wyżyna Kintamani, wulkan Batur',
  'Bajawa, Ngada highlands': 'Bajawa, wyżyna Ngada',
  'Ijen Plateau, East Java': 'Płaskowyż Ijen, Jawa Wschodnia',
  'Mount Malabar, West Java': 'Góra Malabar, Jawa Zachodnia',
  'Priangan highlands, West Java': 'Wyżyna Priangan, Jawa Zachodnia',
  'Sembalun, Mount Rinjani': 'Sembalun, wulkan Rinjani',
  'Baliem Valley, Wamena': 'Dolina Baliem, Wamena',
  'Aceh Gayo highlands': 'Wyżyna Gayo, Aceh',
  'Lintong Nihuta, Lake Toba': 'Lintong Nihuta, jezioro Toba',
  'Mandailing Natal, North Sumatra': 'Mandailing Natal, Sumatra Północna',
  'Mount Kerinci, Jambi': 'Wulkan Kerinci, Jambi',
  'Mollo highlands, West Timor': 'Wyżyna Mollo, Timor Zachodni',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('product_translations').addColumn('origin', 'text').execute();
  await db.schema.alterTable('product_translations').addColumn('region', 'text').execute();
  for (const column of ['origin', 'region'] as const) {
    for (const [english, polish] of Object.entries(polishPlaces)) {
      await sql`update product_translations set ${sql.ref(column)} = ${polish}
        where locale = 'pl' and product_id in (select id from products where ${sql.ref(column)} = ${english})`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('product_translations').dropColumn('region').execute();
  await db.schema.alterTable('product_translations').dropColumn('origin').execute();
}
