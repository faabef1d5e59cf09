/**
 * A sale ending between the review and the payment (docs/decisions/0025): within the order's hold the customer
 * pays the price they confirmed; once the hold has lapsed, the order is re-priced — the card is not charged, the
 * shopper reviews the new total — and an order whose prices still hold is paid as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { getOrderForUser } from '~/modules/orders/index.server';
import { TEST_BLIK, TEST_CARDS, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { createSale, stopSale } from '~/modules/promotions/index.server';
import { type PaymentServices, payWithCard, startAsyncPayment, startPayment } from './index.server';
import { address, createCoffee, createUser, fillCart, pickup, storage } from '../../../tests/fixtures/shop';

const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };

describe.each(testDatabases())('a sale ending between review and payment on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let services: PaymentServices;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    services = { db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test', kickMail: () => {} };
  });
  afterAll(() => handle.close());

  /** A customer's order of one bag of a coffee 20% off (20.00 → 16.00), its payment created, then the sale ended. */
  async function orderedOnSale(name: string, currency: 'EUR' | 'PLN' = 'EUR') {
    const coffee = await createCoffee(db, name, 2000);
    const sale = await createSale(db, owner, { scope: 'products', targets: [coffee], kind: 'percent', percent: 20, priceCents: null, pricePln: null, startsAt: null, endsAt: new Date(Date.now() + 86_400_000), label: { en: '', pl: '' } });
    if (!sale.ok) throw new Error(sale.error);
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[coffee, 1]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency, cartId, address, delivery: pickup });
    if (!started.ok) throw new Error(started.reason);
    await stopSale(db, owner, sale.id);
    return { userId: user.id, cartId, orderId: started.orderId, amountCents: started.amountCents };
  }
  /** The order's hold runs out: made 16 minutes ago, its holds (if any) expired a minute ago. */
  const lapse = async (orderId: string) => {
    await db.updateTable('orders').set({ created_at: new Date(Date.now() - 16 * 60_000).toISOString() }).where('id', '=', orderId).execute();
    await db.updateTable('stock_reservations').set({ expires_at: new Date(Date.now() - 60_000).toISOString() }).where('order_id', '=', orderId).execute();
  };
  const paid = async (o: { userId: string; orderId: string }) => (await getOrderForUser(db, storage, o.userId, o.orderId))!;

  it('keeps the confirmed sale price when payment starts within the hold', async () => {
    const o = await orderedOnSale('Gayo Sale One');
    expect(o.amountCents).toBe(1600);
    expect(await payWithCard(services, { userId: o.userId, orderId: o.orderId, card })).toEqual({ ok: true, orderId: o.orderId });
    expect((await paid(o)).totalCents).toBe(1600);
  });

  it('re-prices an order whose hold lapsed: the card is not charged, and paying again asks the regular price', async () => {
    const o = await orderedOnSale('Gayo Sale Two');
    await lapse(o.orderId);
    expect(await payWithCard(services, { userId: o.userId, orderId: o.orderId, card })).toEqual({ ok: false, code: 'prices_changed' });
    expect((await paid(o)).paymentStatus).toBe('pending');
    const again = await startPayment(db, provider, { userId: o.userId, email: 'x@example.com', locale: 'en', currency: 'EUR', cartId: o.cartId, address, delivery: pickup });
    expect(again).toMatchObject({ ok: true, amountCents: 2000 });
  });

  it('refuses BLIK on a lapsed order whose prices changed, in złoty too', async () => {
    const o = await orderedOnSale('Gayo Sale Three', 'PLN');
    await lapse(o.orderId);
    expect(await startAsyncPayment(services, { userId: o.userId, orderId: o.orderId, method: 'blik', code: TEST_BLIK.success })).toEqual({ ok: false, code: 'prices_changed' });
  });
});
