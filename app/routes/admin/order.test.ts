/**
 * Cancelling on the owner's order page (on SQLite and PostgreSQL), through the route's loader and action as the
 * form posts them: an order whose goods came off the stock asks whether they go back (ticked before shipping,
 * unticked once shipped; not asked when nothing was taken); a cancel with the box ticked puts the bags back on
 * the count and the grams back in their batch, in the ledger and the activity log, and one without leaves both.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { routeArgs } from '~/http/test-args';
import { addToCart, ensureUserCart } from '~/modules/cart/index.server';
import { createProduct, variantsOf } from '~/modules/catalog/index.server';
import { payWithCard, startPayment } from '~/modules/checkout/index.server';
import { moveOrder } from '~/modules/fulfilment/index.server';
import { type PaymentProvider, TEST_CARDS, createTestPaymentProvider } from '~/modules/payments/index.server';
import { addBatch, correctStock, setStockMode } from '~/modules/stock/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import { address, courier, createUser, pickup } from '../../../tests/fixtures/shop';
import { action, loader } from './order';

const log = pino({ level: 'silent' });
const admin = { id: 'u-admin', email: 'owner@kopi.test', displayName: 'Owner', isAdmin: true, photoUrl: null };
const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const today = new Date().toISOString().slice(0, 10);

describe.each(testDatabases())('cancelling on the owner’s order page on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let payments: PaymentProvider;
  /** Capsules in packs of 10, counted in units (20 on the shelf), and a coffee in 250 g bags roasted in one 2 kg batch. */
  let pods: { id: string; variant: string };
  let beans: { id: string; variant: string };
  let untracked: string;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    payments = createTestPaymentProvider(db);
    const pack = await createProduct(db, { category: 'capsulesAndPods', options: ['pack'], variants: [{ packCount: 10, netWeightGrams: 55, priceCents: 450 }], translations: { en: { name: 'Pods' } } });
    const bag = await createProduct(db, { category: 'wholeBean', options: ['size'], variants: [{ netWeightGrams: 250, priceCents: 1500 }], translations: { en: { name: 'Gayo' } } });
    untracked = await createProduct(db, { category: 'wholeBean', priceCents: 1200, translations: { en: { name: 'Untracked' } } });
    const variants = await variantsOf(db, [pack, bag]);
    pods = { id: pack, variant: variants.get(pack)![0].id };
    beans = { id: bag, variant: variants.get(bag)![0].id };
    await setStockMode(db, owner, { productId: pods.id, label: 'Pods' }, { mode: 'units', sellWithinDays: null });
    await correctStock(db, owner, { productId: pods.id, label: 'Pods' }, { variantId: pods.variant, units: 20, reason: 'count' });
    await setStockMode(db, owner, { productId: beans.id, label: 'Gayo' }, { mode: 'batches', sellWithinDays: null });
    await addBatch(db, owner, { productId: beans.id, label: 'Gayo' }, { roastedOn: today, grams: 2000 });
  });
  afterAll(() => handle.close());

  const app = () => ({ db, storage: nullStorage, payments, log, kickMail: () => {}, shipx: null, config: { publicUrl: new URL('https://kopi.test/'), seller: {} } as never });
  const page = async (id: string) => loader(routeArgs(new Request(`http://localhost/admin/orders/${id}`), { app: app(), shopper: { user: admin }, params: { id } }) as never);
  const post = async (id: string, fields: Record<string, string>) =>
    (await action(routeArgs(new Request(`http://localhost/admin/orders/${id}`, { method: 'POST', body: new URLSearchParams(fields) }), { app: app(), shopper: { user: admin }, params: { id } }) as never)) as unknown as {
      data: { ok: boolean; moved?: string };
      init?: { status?: number } | null;
    };

  /** A customer's paid order of these variants, collected at the roastery (or sent by courier). */
  async function paidOrder(items: Array<[variantId: string, quantity: number]>, delivery: typeof pickup | typeof courier = pickup) {
    const user = await createUser(db);
    const cartId = await ensureUserCart(db, user.id);
    for (const [variantId, quantity] of items) {
      const added = await addToCart(db, cartId, variantId, quantity);
      if (!added.ok) throw new Error(JSON.stringify(added));
    }
    const started = await startPayment(db, payments, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery });
    if (!started.ok) throw new Error(started.reason);
    const paid = await payWithCard({ db, payments, contactTo: 'shop@kopi.test', kickMail: () => {}, publicUrl: 'https://kopi.test/' }, { userId: user.id, orderId: started.orderId, card });
    if (!paid.ok) throw new Error(paid.code);
    return started.orderId;
  }
  const units = async () => Number((await db.selectFrom('stock_variants').select('units').where('variant_id', '=', pods.variant).executeTakeFirstOrThrow()).units);
  const grams = async () => (await db.selectFrom('roast_batches').select('grams_left').where('product_id', '=', beans.id).executeTakeFirstOrThrow()).grams_left;
  const cancelled = async (id: string) => {
    const row = await db.selectFrom('activity_log').select('details').where('subject_id', '=', id).where('action', '=', 'order.cancelled').executeTakeFirstOrThrow();
    return JSON.parse(row.details) as { backToStock?: boolean };
  };
  const returned = (id: string) => db.selectFrom('stock_movements').select(['variant_id', 'grams', 'units', 'actor']).where('order_id', '=', id).where('kind', '=', 'returned').orderBy('variant_id').execute();

  it('asks before shipping, ticked; cancelling with the box ticked puts the bags and the grams back, in the ledger and the log', async () => {
    const id = await paidOrder([
      [pods.variant, 3],
      [beans.variant, 2],
    ]);
    const [unitsBefore, gramsBefore] = [await units(), await grams()];
    expect(await page(id)).toMatchObject({ canCancel: true, cancelBackToStock: { checked: true } });

    const answer = await post(id, { intent: 'cancel', backToStock: 'on' });
    expect(answer.data).toMatchObject({ ok: true, moved: 'cancelled' });
    expect(await units()).toBe(unitsBefore + 3);
    expect(await grams()).toBe(gramsBefore + 500);
    expect(await cancelled(id)).toMatchObject({ backToStock: true });
    expect(await returned(id)).toEqual(
      expect.arrayContaining([
        { variant_id: pods.variant, grams: null, units: 3, actor: admin.email },
        { variant_id: beans.variant, grams: 500, units: null, actor: admin.email },
      ]),
    );
    // Cancelled: nothing more to ask.
    expect(await page(id)).toMatchObject({ canCancel: false, cancelBackToStock: null });
  });

  it('cancelling with the box left unticked keeps the goods out of stock', async () => {
    const id = await paidOrder([
      [pods.variant, 2],
      [beans.variant, 1],
    ]);
    const [unitsBefore, gramsBefore] = [await units(), await grams()];
    const answer = await post(id, { intent: 'cancel' });
    expect(answer.data).toMatchObject({ ok: true, moved: 'cancelled' });
    expect(await units()).toBe(unitsBefore);
    expect(await grams()).toBe(gramsBefore);
    expect(await cancelled(id)).toMatchObject({ backToStock: false });
    expect(await returned(id)).toEqual([]);
  });

  it('asks about a shipped order unticked (only if the parcel comes back), and not at all when nothing came off the stock', async () => {
    const shipped = await paidOrder([[pods.variant, 1]], courier);
    expect((await moveOrder({ db }, admin, shipped, { to: 'shipped', carrier: 'dpd', trackingNumber: '' })).ok).toBe(true);
    expect(await page(shipped)).toMatchObject({ canCancel: true, cancelBackToStock: { checked: false } });
    const before = await units();
    expect((await post(shipped, { intent: 'cancel', backToStock: 'on' })).data).toMatchObject({ ok: true });
    expect(await units()).toBe(before + 1);

    const unknownStock = await paidOrder([[(await variantsOf(db, [untracked])).get(untracked)![0].id, 1]]);
    expect(await page(unknownStock)).toMatchObject({ canCancel: true, cancelBackToStock: null });
  });
});
