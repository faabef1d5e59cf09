/**
 * Delivery (docs/decisions/0021): zones of countries, each with its methods (InPost locker, courier, pickup at
 * the roastery) priced by weight band, with a free-delivery threshold on the goods' gross total, and the
 * packaging weight a parcel adds to its goods. The countries the shop sells to are those of its zones.
 *
 * Every shop starts with the rates the demo shop uses (a shop that never had delivery set up can still take
 * orders): Poland by locker, courier or pickup, and the rest of the EU by courier. The owner changes them in
 * the back office.
 */
import type { Kysely } from 'kysely';

export const EU_BUT_POLAND = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'RO', 'SE', 'SI', 'SK'];

type Band = [maxGrams: number, priceCents: number];
type SeedMethod = { id: string; kind: 'locker' | 'courier' | 'pickup'; freeOverCents: number | null; bands: Band[]; pickupAddress?: string; pickupHours?: { en: string; pl: string } };

const zones: Array<{ id: string; name: string; countries: string[]; methods: SeedMethod[] }> = [
  {
    id: 'zone-poland',
    name: 'Polska',
    countries: ['PL'],
    methods: [
      { id: 'method-pl-locker', kind: 'locker', freeOverCents: 5000, bands: [[5000, 349], [10000, 449], [25000, 599]] },
      { id: 'method-pl-courier', kind: 'courier', freeOverCents: 5000, bands: [[1000, 499], [2000, 549], [5000, 649], [10000, 799], [25000, 1199]] },
      { id: 'method-pl-pickup', kind: 'pickup', freeOverCents: null, bands: [[25000, 0]], pickupAddress: 'ul. Mokotowska 12, 00-640 Warszawa', pickupHours: { en: 'Mon–Fri 9:00–17:00, Sat 10:00–14:00', pl: 'pon.–pt. 9:00–17:00, sob. 10:00–14:00' } },
    ],
  },
  {
    id: 'zone-eu',
    name: 'EU',
    countries: EU_BUT_POLAND,
    methods: [{ id: 'method-eu-courier', kind: 'courier', freeOverCents: 12000, bands: [[1000, 999], [2000, 1299], [5000, 1699], [10000, 2299], [25000, 3499]] }],
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('delivery_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    /** Grams a parcel adds to the goods' net weight (box, filling). */
    .addColumn('packaging_grams', 'integer', (c) => c.notNull())
    /** The country a shopper who has not chosen one is quoted for. */
    .addColumn('home_country', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('delivery_zones')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    /** ISO 3166-1 alpha-2 codes, comma-separated and sorted; a country belongs to one zone at most. */
    .addColumn('countries', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('delivery_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('zone_id', 'text', (c) => c.notNull().references('delivery_zones.id').onDelete('cascade'))
    /** locker | courier | pickup */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    /** Free when the goods' gross total reaches it (null: never free). */
    .addColumn('free_over_cents', 'integer')
    /** Pickup only: where and when to collect. */
    .addColumn('pickup_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pickup_hours_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pickup_hours_pl', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('delivery_methods_zone_idx').on('delivery_methods').columns(['zone_id', 'position']).execute();
  await db.schema
    .createTable('delivery_rates')
    .addColumn('method_id', 'text', (c) => c.notNull().references('delivery_methods.id').onDelete('cascade'))
    /** The band holds parcels up to and including this weight. */
    .addColumn('max_grams', 'integer', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_rates_pk', ['method_id', 'max_grams'])
    .execute();

  // An order's goods and delivery apart (their sum is its total), how and where it goes, and the phone the
  // carrier texts. Orders from before paid nothing for delivery.
  await db.schema.alterTable('orders').addColumn('goods_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.updateTable('orders').set((eb: any) => ({ goods_cents: eb.ref('total_cents') })).execute();
  await db.schema.alterTable('orders').addColumn('delivery_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  /** locker | courier | pickup; null on orders from before delivery was chosen. */
  await db.schema.alterTable('orders').addColumn('delivery_kind', 'text').execute();
  await db.schema.alterTable('orders').addColumn('delivery_method_id', 'text').execute();
  await db.schema.alterTable('orders').addColumn('delivery_country', 'text').execute();
  await db.schema.alterTable('orders').addColumn('shipping_phone', 'text', (c) => c.notNull().defaultTo('')).execute();
  /** The cheapest standard delivery offered for this parcel, at most what was paid: what withdrawing from the whole order refunds. */
  await db.schema.alterTable('orders').addColumn('standard_delivery_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  /** The delivery refunded with a withdrawal that completes the order's (art. 13 of Directive 2011/83/EU). */
  await db.schema.alterTable('withdrawals').addColumn('delivery_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  /** The locker's code (a snapshot: lockers move and close). */
  await db.schema.alterTable('orders').addColumn('delivery_point', 'text').execute();
  /** The locker's address, or where and when to collect a pickup, as the customer was shown it. */
  await db.schema.alterTable('orders').addColumn('delivery_point_address', 'text').execute();
  // What checkout pre-fills next time.
  await db.schema.alterTable('profiles').addColumn('phone', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('profiles').addColumn('country', 'text', (c) => c.notNull().defaultTo('')).execute();

  await db.insertInto('delivery_settings').values({ id: 1, packaging_grams: 150, home_country: 'PL' }).execute();
  for (const [z, zone] of zones.entries()) {
    await db.insertInto('delivery_zones').values({ id: zone.id, name: zone.name, countries: [...zone.countries].sort().join(','), position: z }).execute();
    for (const [m, method] of zone.methods.entries()) {
      await db
        .insertInto('delivery_methods')
        .values({
          id: method.id,
          zone_id: zone.id,
          kind: method.kind,
          position: m,
          active: 1,
          free_over_cents: method.freeOverCents,
          pickup_address: method.pickupAddress ?? '',
          pickup_hours_en: method.pickupHours?.en ?? '',
          pickup_hours_pl: method.pickupHours?.pl ?? '',
        })
        .execute();
      await db
        .insertInto('delivery_rates')
        .values(method.bands.map(([maxGrams, priceCents]) => ({ method_id: method.id, max_grams: maxGrams, price_cents: priceCents })))
        .execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('withdrawals').dropColumn('delivery_cents').execute();
  for (const column of ['standard_delivery_cents', 'goods_cents', 'delivery_cents', 'delivery_kind', 'delivery_method_id', 'delivery_country', 'shipping_phone', 'delivery_point', 'delivery_point_address']) {
    await db.schema.alterTable('orders').dropColumn(column).execute();
  }
  for (const column of ['phone', 'country']) await db.schema.alterTable('profiles').dropColumn(column).execute();
  for (const table of ['delivery_rates', 'delivery_methods', 'delivery_zones', 'delivery_settings']) await db.schema.dropTable(table).ifExists().execute();
}
