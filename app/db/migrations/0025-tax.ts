/**
 * VAT (docs/decisions/0027): what each product is taxed as, the owner's rate overrides and OSS setting, and
 * on every order line, delivery and refund the net amount, rate and VAT as charged — stored, never recomputed.
 *
 * Orders placed before this were all taxed in Poland (the shop was not registered for OSS) at 23%, the rate
 * of roasted coffee, on what each line cost after its discount and on what the delivery cost; their refunds
 * split the same way in proportion.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  /** coffee | other */
  await db.schema.alterTable('products').addColumn('tax_class', 'text', (c) => c.notNull().defaultTo('coffee')).execute();
  await db.schema
    .createTable('tax_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    /** 1 once the shop is registered for OSS (past the EU's €10,000): consumers elsewhere in the EU pay their country's VAT. */
    .addColumn('oss_registered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text')
    .execute();
  await db.insertInto('tax_settings').values({ id: 1 }).execute();
  await db.schema
    .createTable('tax_rates')
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('tax_class', 'text', (c) => c.notNull())
    /** The owner's rate in basis points, in place of the one Kopi ships with. */
    .addColumn('rate_bp', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tax_rates_pk', ['country', 'tax_class'])
    .execute();

  await db.schema.alterTable('order_lines').addColumn('tax_rate_bp', 'integer').execute();
  await db.schema.alterTable('order_lines').addColumn('net_cents', 'integer').execute();
  await db.schema.alterTable('order_lines').addColumn('vat_cents', 'integer').execute();
  /** The country whose VAT the order was charged (PL, or the consumer's under OSS). */
  await db.schema.alterTable('orders').addColumn('tax_country', 'text').execute();
  /** All the VAT in the amount charged (lines and delivery). */
  await db.schema.alterTable('orders').addColumn('vat_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  /** The delivery's parts as JSON [{rateBp, grossCents, netCents, vatCents}] (one per rate of its goods). */
  await db.schema.alterTable('orders').addColumn('delivery_tax', 'text').execute();
  await db.schema.alterTable('refunds').addColumn('vat_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  /** The refund's parts per rate as JSON, like an order's delivery. */
  await db.schema.alterTable('refunds').addColumn('tax', 'text').execute();

  // Earlier orders: Polish VAT at 23% (all the shop sold was coffee).
  const rate = 2300;
  const vat = (gross: number) => Math.sign(gross) * Math.round((Math.abs(gross) * rate) / (10_000 + rate));
  const part = (gross: number) => ({ rateBp: rate, grossCents: gross, netCents: gross - vat(gross), vatCents: vat(gross) });
  for (let offset = 0; ; offset += 500) {
    const orders = await db.selectFrom('orders').select(['id', 'delivery_cents']).orderBy('id').limit(500).offset(offset).execute();
    if (orders.length === 0) break;
    for (const order of orders) {
      const lines = await db.selectFrom('order_lines').select(['position', 'unit_price_cents', 'quantity', 'discount_cents']).where('order_id', '=', order.id).execute();
      let total = 0;
      for (const line of lines) {
        const p = part(Number(line.unit_price_cents) * Number(line.quantity) - Number(line.discount_cents));
        total += p.vatCents;
        await db.updateTable('order_lines').set({ tax_rate_bp: rate, net_cents: p.netCents, vat_cents: p.vatCents }).where('order_id', '=', order.id).where('position', '=', line.position).execute();
      }
      const delivery = Number(order.delivery_cents) === 0 ? [] : [part(Number(order.delivery_cents))];
      total += delivery.reduce((sum, p) => sum + p.vatCents, 0);
      await db.updateTable('orders').set({ tax_country: 'PL', vat_cents: total, delivery_tax: JSON.stringify(delivery) }).where('id', '=', order.id).execute();
    }
  }
  const refunds = await db.selectFrom('refunds').select(['id', 'amount_cents']).execute();
  for (const refund of refunds) {
    const p = part(Number(refund.amount_cents));
    await db.updateTable('refunds').set({ vat_cents: p.vatCents, tax: JSON.stringify(p.grossCents === 0 ? [] : [p]) }).where('id', '=', refund.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refunds').dropColumn('tax').execute();
  await db.schema.alterTable('refunds').dropColumn('vat_cents').execute();
  await db.schema.alterTable('orders').dropColumn('delivery_tax').execute();
  await db.schema.alterTable('orders').dropColumn('vat_cents').execute();
  await db.schema.alterTable('orders').dropColumn('tax_country').execute();
  await db.schema.alterTable('order_lines').dropColumn('vat_cents').execute();
  await db.schema.alterTable('order_lines').dropColumn('net_cents').execute();
  await db.schema.alterTable('order_lines').dropColumn('tax_rate_bp').execute();
  await db.schema.dropTable('tax_rates').execute();
  await db.schema.dropTable('tax_settings').execute();
  await db.schema.alterTable('products').dropColumn('tax_class').execute();
}
