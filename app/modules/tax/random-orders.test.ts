/**
 * VAT on many real orders (docs/decisions/0027): seeded-random carts — several coffees and other goods, random
 * quantities, a percentage, amount or free-delivery code on some, paid or free delivery in Poland, a pickup, or
 * the EU courier to Germany, before OSS, under it, and under it with prices that follow the buyer's VAT — are
 * paid through the real checkout, and what each order stores must add up to what it charged, to the cent.
 * Deterministic: VAT_SEED replays a run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { enterCode } from '~/modules/cart/index.server';
import { type PaymentServices, payWithCard, startPayment } from '~/modules/checkout/index.server';
import { TEST_CARDS, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { type CodeInput, createCode } from '~/modules/promotions/index.server';
import { vatPartsOf } from '~/modules/orders/index.server';
import { address, createCoffee, createUser, fillCart, storage } from '../../../tests/fixtures/shop';
import { SHIPPED_RATES } from './rates';
import { type TaxClass, grossAtRate, vatIn } from './vat';
import { saveOssSetting } from './index.server';

const SEED = Number(process.env.VAT_SEED ?? 20261128);
const CARTS = 150;
const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

const goods: ReadonlyArray<{ name: string; cents: number; taxClass: TaxClass }> = [
  { name: 'Los Gayo', cents: 890, taxClass: 'coffee' },
  { name: 'Los Java', cents: 1250, taxClass: 'coffee' },
  { name: 'Los Bali', cents: 1599, taxClass: 'coffee' },
  { name: 'Los Sidamo', cents: 2190, taxClass: 'coffee' },
  { name: 'Los Kerinci', cents: 2460, taxClass: 'coffee' },
  { name: 'Los Huila', cents: 3333, taxClass: 'coffee' },
  { name: 'Los Kubek', cents: 1190, taxClass: 'other' },
  { name: 'Los Młynek', cents: 4999, taxClass: 'other' },
  { name: 'Los Filtry', cents: 590, taxClass: 'other' },
];
type Code = { code: string; kind: 'percent'; percent: number } | { code: string; kind: 'amount'; amountCents: number } | { code: string; kind: 'delivery' };
const codes: readonly Code[] = [
  { code: 'LOS10', kind: 'percent', percent: 10 },
  { code: 'LOS25', kind: 'percent', percent: 25 },
  { code: 'LOS5EUR', kind: 'amount', amountCents: 500 },
  { code: 'LOS15EUR', kind: 'amount', amountCents: 1500 },
  { code: 'LOSFREE', kind: 'delivery' },
];
/** Where the orders go, and what the default rates (migration 0019) charge for a parcel of weightless goods. */
const destinations = [
  { country: 'PL', methodId: 'method-pl-courier', bandCents: 499, freeOverCents: 5000 },
  { country: 'PL', methodId: 'method-pl-pickup', bandCents: 0, freeOverCents: null },
  { country: 'DE', methodId: 'method-eu-courier', bandCents: 999, freeOverCents: 12_000 },
] as const;

describe.each(testDatabases())('VAT on random orders on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let services: PaymentServices;
  const products: Array<(typeof goods)[number] & { id: string }> = [];
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    services = { db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test', kickMail: () => {} };
    for (const item of goods) {
      const id = await createCoffee(db, item.name, item.cents);
      if (item.taxClass !== 'coffee') await db.updateTable('products').set({ tax_class: item.taxClass }).where('id', '=', id).execute();
      products.push({ ...item, id });
    }
    const none: CodeInput = { code: '', kind: 'percent', percent: null, amountCents: null, amountPln: null, minimumCents: null, minimumPln: null, startsAt: null, endsAt: null, maxUses: null, maxPerCustomer: null, scope: 'all', targets: [], withSales: false, advertised: false };
    for (const c of codes) {
      const made = await createCode(db, owner, { ...none, code: c.code, kind: c.kind, ...(c.kind === 'percent' ? { percent: c.percent } : c.kind === 'amount' ? { amountCents: c.amountCents, amountPln: c.amountCents * 4 } : {}) });
      expect(made.ok).toBe(true);
    }
  });
  afterAll(async () => {
    await saveOssSetting(db, owner, false, false);
    await handle.close();
  });

  it(`${CARTS} seeded-random carts paid at checkout: each line’s and the delivery’s net + VAT is its gross, the parts add up to the charge, the VAT to the order’s (seed ${SEED})`, async () => {
    const r = random(SEED);
    const failures: string[] = [];
    const seen = { discounted: 0, freeByCode: 0, freeByThreshold: 0, paidDelivery: 0, rates: new Set<number>(), splitDelivery: 0 };
    for (let i = 0; i < CARTS; i++) {
      // A third before OSS, a third under it at one price everywhere, a third under it with prices following the VAT.
      const oss = i >= CARTS / 3;
      const follow = i >= (2 * CARTS) / 3;
      if (i === Math.ceil(CARTS / 3) || i === Math.ceil((2 * CARTS) / 3)) await saveOssSetting(db, owner, oss, follow);

      const user = await createUser(db);
      const chosen = [...products].sort(() => r.next() - 0.5).slice(0, 1 + r.int(3));
      const quantities = chosen.map(() => 1 + r.int(r.next() < 0.8 ? 2 : 8));
      const cartId = await fillCart(
        db,
        user.id,
        chosen.map((p, k) => [p.id, quantities[k]!]),
      );
      const code = r.next() < 0.45 ? r.pick(codes) : null;
      if (code) expect(await enterCode(db, storage, { cartId, typed: code.code, locale: 'en', currency: 'EUR', userId: user.id, email: user.email, ip: null })).toMatchObject({ ok: true });
      const roll = r.int(100);
      const destination = roll < 45 ? destinations[0] : roll < 60 ? destinations[1] : destinations[2];

      // What the order must charge, worked out here from the price list, the code and the delivery table.
      const taxCountry = oss && destination.country !== 'PL' ? destination.country : 'PL';
      const rates = SHIPPED_RATES[taxCountry];
      const unitOf = (p: (typeof products)[number]) => (follow && taxCountry !== 'PL' ? grossAtRate(p.cents, SHIPPED_RATES.PL[p.taxClass], rates[p.taxClass]) : p.cents);
      const goodsCents = chosen.reduce((sum, p, k) => sum + unitOf(p) * quantities[k]!, 0);
      const discountCents = !code || code.kind === 'delivery' ? 0 : Math.min(goodsCents - 100, code.kind === 'percent' ? Math.round((goodsCents * code.percent) / 100) : Math.min(goodsCents, code.amountCents));
      const paidGoods = goodsCents - discountCents;
      const overThreshold = destination.freeOverCents !== null && paidGoods >= destination.freeOverCents;
      const deliveryCents = code?.kind === 'delivery' || overThreshold ? 0 : destination.bandCents;

      const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: { country: destination.country, methodId: destination.methodId } });
      if (!started.ok) throw new Error(`cart ${i}: ${started.reason}`);
      expect(await payWithCard(services, { userId: user.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });

      const order = await db
        .selectFrom('orders')
        .select(['total_cents', 'goods_cents', 'delivery_cents', 'vat_cents', 'delivery_tax', 'tax_country', 'payment_status'])
        .where('id', '=', started.orderId)
        .executeTakeFirstOrThrow();
      const lines = await db
        .selectFrom('order_lines')
        .select(['product_id', 'unit_price_cents', 'quantity', 'discount_cents', 'tax_rate_bp', 'net_cents', 'vat_cents'])
        .where('order_id', '=', started.orderId)
        .orderBy('position')
        .execute();
      const delivery = vatPartsOf(order.delivery_tax);
      const label = `cart ${i} (${chosen.map((p, k) => `${quantities[k]} × ${p.cents}`).join(' + ')}, ${code?.code ?? 'no code'}, ${destination.methodId}${oss ? ', OSS' : ''}${follow ? ', prices follow' : ''})`;
      const check = (what: string, actual: unknown, expected: unknown) => {
        if (JSON.stringify(actual) !== JSON.stringify(expected)) failures.push(`${label}: ${what} ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
      };

      check('payment', [order.payment_status, started.amountCents], ['succeeded', Number(order.total_cents)]);
      check('tax country', order.tax_country, taxCountry);
      check('goods, delivery, total', [Number(order.goods_cents), Number(order.delivery_cents), Number(order.total_cents)], [goodsCents, deliveryCents, paidGoods + deliveryCents]);
      check('discount over the lines', lines.reduce((sum, l) => sum + Number(l.discount_cents), 0), discountCents);
      for (const line of lines) {
        const product = products.find((p) => p.id === line.product_id)!;
        const gross = Number(line.unit_price_cents) * Number(line.quantity) - Number(line.discount_cents);
        check(`${product.name} price and rate`, [Number(line.unit_price_cents), Number(line.tax_rate_bp)], [unitOf(product), rates[product.taxClass]]);
        check(`${product.name} net + VAT`, Number(line.net_cents) + Number(line.vat_cents), gross);
        check(`${product.name} VAT`, Number(line.vat_cents), vatIn(gross, Number(line.tax_rate_bp)));
        seen.rates.add(Number(line.tax_rate_bp));
      }
      for (const part of delivery) {
        check(`delivery at ${part.rateBp} net + VAT`, part.netCents + part.vatCents, part.grossCents);
        check(`delivery at ${part.rateBp} VAT`, part.vatCents, vatIn(part.grossCents, part.rateBp));
        check(`delivery at ${part.rateBp} follows a line’s rate`, lines.some((l) => Number(l.tax_rate_bp) === part.rateBp), true);
      }
      check('delivery parts', delivery.reduce((sum, p) => sum + p.grossCents, 0), deliveryCents);
      const linesGross = lines.reduce((sum, l) => sum + Number(l.net_cents) + Number(l.vat_cents), 0);
      check('lines + delivery = total', linesGross + delivery.reduce((sum, p) => sum + p.grossCents, 0), Number(order.total_cents));
      check('VAT of the parts = the order’s', lines.reduce((sum, l) => sum + Number(l.vat_cents), 0) + delivery.reduce((sum, p) => sum + p.vatCents, 0), Number(order.vat_cents));

      if (discountCents > 0) seen.discounted += 1;
      if (code?.kind === 'delivery' && destination.bandCents > 0) seen.freeByCode += 1;
      else if (overThreshold) seen.freeByThreshold += 1;
      if (deliveryCents > 0) seen.paidDelivery += 1;
      if (delivery.length > 1) seen.splitDelivery += 1;
    }
    expect(failures).toEqual([]);
    // The run covered what it is for: codes, each way delivery ends up free or paid, and several rates.
    expect(seen.discounted).toBeGreaterThan(20);
    expect(seen.freeByCode).toBeGreaterThan(3);
    expect(seen.freeByThreshold).toBeGreaterThan(10);
    expect(seen.paidDelivery).toBeGreaterThan(20);
    expect(seen.splitDelivery).toBeGreaterThan(3);
    expect([...seen.rates].sort((a, b) => a - b)).toEqual([700, 1900, 2300]);
  }, 60_000);
});
