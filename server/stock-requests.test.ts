/**
 * Stock over HTTP against the production build, as browsers without JavaScript post the forms: the last bag in
 * two carts, where the one who comes second to payment is told what sold out and that nothing was charged
 * (never sent to an empty cart without a word); and the owner's stock page, refused to everyone else, refusing
 * bad input with its message and changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStockMode, correctStock, stockOf } from '~/modules/stock/index.server';
import { t } from '../tests/fixtures/i18n';
import { type TestShop, rawRequest, startTestShop } from './test-shop';

const form = 'application/x-www-form-urlencoded';
const ADDRESS = { fullName: 'Ola Nowak', address: 'ul. Długa 1', city: 'Kraków', zipCode: '31-001', country: 'PL', methodId: 'method-pl-courier' };
const owner = { id: null, email: 'owner@kopi.test' };
const tr = t('en');
/** A message as React writes it into HTML. */
const en = (key: string, vars?: Record<string, string | number>) => tr(key, vars).replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;');

describe('stock over HTTP', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
    const subject = { productId: shop.productId, label: 'Gayo' };
    await setStockMode(shop.db, owner, subject, { mode: 'units', sellWithinDays: null });
    await correctStock(shop.db, owner, subject, { variantId: shop.variantId, units: 1, reason: 'count' });
  });
  afterAll(() => shop.close());

  const post = (path: string, fields: Record<string, string>, cookie: string) =>
    rawRequest(shop.port, { method: 'POST', path, headers: { 'content-type': form, cookie }, body: new URLSearchParams(fields).toString() });

  it('the second shopper to reach payment for the last bag is told it sold out and that nothing was charged', async () => {
    const first = await shop.customer();
    const second = await shop.customer();
    for (const shopper of [first, second]) {
      expect((await post('/cart', { intent: 'add', variantId: shop.variantId, quantity: '1', redirectTo: '/cart' }, shopper.cookie)).status).toBe(302);
    }
    const paying = await post('/checkout', { intent: 'proceed', ...ADDRESS }, first.cookie);
    expect(paying.status).toBe(200);
    expect(paying.body).toMatch(/name="orderId" value="[\w-]+"/);

    const late = await post('/checkout', { intent: 'proceed', ...ADDRESS }, second.cookie);
    expect(late.status).toBe(409);
    expect(late.body).toContain(en('cart.stock.soldOut', { name: 'Gayo' }));
    expect(late.body).toContain(en('checkout.review.nothingLeft'));
    expect(late.body).not.toMatch(/name="orderId"/);
    // Once told, the empty cart is the cart page's.
    const again = await rawRequest(shop.port, { path: '/checkout', headers: { cookie: second.cookie } });
    expect(again.status).toBe(302);
    expect(again.headers.location).toBe('/cart');
  });

  it('the owner’s stock page is the owner’s alone, and refuses bad input with its message, changing nothing', async () => {
    const path = `/admin/products/${shop.productId}/stock`;
    const customer = await shop.customer();
    expect((await rawRequest(shop.port, { path, headers: { cookie: customer.cookie } })).status).toBe(302);
    expect((await post(path, { intent: 'correct-units', variantId: shop.variantId, units: '50', reason: 'count' }, customer.cookie)).status).toBe(302);

    const admin = await shop.admin();
    const page = await rawRequest(shop.port, { path, headers: { cookie: admin.cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain(en('admin.stock.modes.units'));
    for (const [fields, message] of [
      [{ intent: 'correct-units', variantId: shop.variantId, units: '-3', reason: 'count' }, en('admin.stock.errors.units')],
      [{ intent: 'correct-units', variantId: shop.variantId, units: '3', reason: 'theft' }, en('admin.stock.errors.reason')],
      [{ intent: 'correct-units', variantId: 'NoSuchVariant000000000', units: '3', reason: 'count' }, en('admin.stock.errors.notFound')],
      [{ intent: 'mode', mode: 'batches', sellWithinDays: '0' }, en('admin.stock.errors.sellWithinDays')],
    ] as const) {
      const refused = await post(path, fields, admin.cookie);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(refused.body).toContain(message);
    }
    expect((await post(`/admin/products/NoSuchProduct000000000/stock`, { intent: 'mode', mode: 'units' }, admin.cookie)).status).toBe(404);
    expect((await stockOf(shop.db, [shop.productId])).get(shop.productId)?.mode).toBe('units');

    const counted = await post(path, { intent: 'correct-units', variantId: shop.variantId, units: '12', reason: 'count', note: 'Shelf count' }, admin.cookie);
    expect(counted.status).toBe(200);
    expect(counted.body).toContain(en('admin.stock.saved.correct-units'));
    const units = await shop.db.selectFrom('stock_variants').select('units').where('variant_id', '=', shop.variantId).executeTakeFirstOrThrow();
    expect(units.units).toBe(12);
  });
});
