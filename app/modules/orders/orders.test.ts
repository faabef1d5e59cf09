import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { settlePayment, startPayment } from '~/modules/checkout/index.server';
import { address, pickup, createCoffee, createUser, fillCart, storage } from '../../../tests/fixtures/shop';
import { createTestPaymentProvider } from '~/modules/payments/index.server';
import { getOrderForUser, listOrders, orderLabel } from './index.server';

describe('order label', () => {
  it('is the last 6 characters of the id in upper case', () => {
    expect(orderLabel('aBcDeF_gh-ij9k')).toBe('GH-IJ9K'.slice(-6));
    expect(orderLabel('x7k2qa')).toBe('X7K2QA');
  });
});

describe.each(testDatabases())('orders on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let user: { id: string; email: string };
  let other: { id: string; email: string };
  const placed: string[] = [];
  let pendingId = '';

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const provider = createTestPaymentProvider(db);
    const gayo = await createCoffee(db, 'Gayo', 1250, ['products/gayo']);
    user = await createUser(db);
    other = await createUser(db);
    for (let i = 1; i <= 12; i++) {
      const cartId = await fillCart(db, user.id, [[gayo, i]]);
      const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup });
      if (!started.ok) throw new Error(started.reason);
      await settlePayment({ db, payments: provider, contactTo: 'shop@kopi.test', kickMail: () => {} }, (_trx, markPaid) => markPaid(started.paymentId));
      placed.push(started.orderId);
    }
    const cartId = await fillCart(db, user.id, [[gayo, 1]]);
    const pending = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup });
    if (!pending.ok) throw new Error(pending.reason);
    pendingId = pending.orderId;
  });
  afterAll(() => handle.close());

  it('lists paid orders newest first, 10 at a time', async () => {
    const first = await listOrders(db, storage, user.id);
    expect(first.orders.map((o) => o.id)).toEqual([...placed].reverse().slice(0, 10));
    expect(first.hasMore).toBe(true);
    const second = await listOrders(db, storage, user.id, { offset: 10 });
    expect(second.orders.map((o) => o.id)).toEqual([placed[1], placed[0]]);
    expect(second.hasMore).toBe(false);
    expect(first.orders.some((o) => o.id === pendingId)).toBe(false);
    expect(await listOrders(db, storage, other.id)).toEqual({ orders: [], hasMore: false });
  });

  it('shows what My Orders needs', async () => {
    const [newest] = (await listOrders(db, storage, user.id, { limit: 1 })).orders;
    expect(newest).toMatchObject({
      id: placed[11],
      label: placed[11].slice(-6).toUpperCase(),
      totalCents: 12 * 1250,
      currency: 'EUR',
      paymentStatus: 'succeeded',
      shippingStatus: 'processing',
      shipping: address,
      lines: [{ title: 'Gayo', unitPriceCents: 1250, quantity: 12, image: { src: '/images/products/gayo-640.webp' } }],
    });
    expect(Date.parse(newest.createdAt)).not.toBeNaN();
    expect(newest.paidAt).not.toBeNull();
  });

  it('never shows another customer their order', async () => {
    expect(await getOrderForUser(db, storage, user.id, placed[0])).toMatchObject({ id: placed[0] });
    expect(await getOrderForUser(db, storage, other.id, placed[0])).toBeNull();
    expect(await getOrderForUser(db, storage, user.id, 'no-such-order')).toBeNull();
    expect(await getOrderForUser(db, storage, user.id, "' or 1=1 --")).toBeNull();
    expect(await getOrderForUser(db, storage, user.id, pendingId)).toMatchObject({ paymentStatus: 'pending' });
  });
});
