/**
 * Reviews on SQLite and PostgreSQL: only a buyer with a delivered order reviews, once per coffee, edits and
 * deletes it; the stored average and count follow the published reviews (what cards, the product page, the
 * JSON-LD and the rating sort read); the owner's reply, and hiding only with a reason, kept and logged;
 * the demo customers' reviews go through the same path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { listActivity } from '~/modules/activity/index.server';
import { catalogVersion, getProduct, listProducts } from '~/modules/catalog/index.server';
import { demoCustomers, demoRating } from '~/demo/reviews';
import { payWithCard, startPayment } from '~/modules/checkout/index.server';
import { address, createCoffee, createUser, fillCart, storage, courier, freeCourier } from '../../../tests/fixtures/shop';
import { moveOrder, refundWithdrawal } from '~/modules/fulfilment/index.server';
import { findOwnOrderForWithdrawal, requestWithdrawal } from '~/modules/withdrawals/index.server';
import { TEST_CARDS, createTestPaymentProvider } from '~/modules/payments/index.server';
import { seedDemoReviews } from '~/demo/reviews.server';
import { deleteOwnReview, getOwnReview, hideReview, listOwnerReviews, listProductReviews, replyToReview, reviewedProductIds, saveReview, showReview } from './index.server';
import { parseReviewForm, publicName } from './review.schema';

const owner = { id: 'owner-1', email: 'owner@kopi.test' };

describe.each(testDatabases())('reviews on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let gayo = '';
  let java = '';
  let provider: ReturnType<typeof createTestPaymentProvider>;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    await freeCourier(db);
    provider = createTestPaymentProvider(db);
    gayo = await createCoffee(db, 'Gayo', 1250);
    java = await createCoffee(db, 'Java', 900);
  });
  afterAll(() => handle.close());

  async function buyer(name: string, products: string[], { delivered = true } = {}) {
    const user = await createUser(db, `${name.toLowerCase().replace(/\s/g, '.')}.${Math.random().toString(36).slice(2)}@example.test`);
    const cartId = await fillCart(db, user.id, products.map((id) => [id, 1] as [string, number]));
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: courier });
    if (!started.ok) throw new Error(started.reason);
    const card = { number: TEST_CARDS.success, expMonth: 12, expYear: 2040, cvc: '123' };
    const paid = await payWithCard({ db, payments: provider, contactTo: 'shop@kopi.test', kickMail: () => {} }, { userId: user.id, orderId: started.orderId, card });
    if (!paid.ok) throw new Error(paid.code);
    const fulfil = { db, publicUrl: 'https://kopi.test/' };
    await moveOrder(fulfil, owner, started.orderId, { to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456789' });
    if (delivered) await moveOrder(fulfil, owner, started.orderId, { to: 'delivered' });
    return { userId: user.id, displayName: name, orderId: started.orderId };
  }
  const figures = async (id: string) => {
    const product = (await getProduct(db, storage, id, 'en'))!;
    return { rating: product.rating, reviewCount: product.reviewCount };
  };

  it('lets only a buyer whose order was delivered review, once per coffee, and keeps the figures of the published reviews', async () => {
    expect(await figures(gayo)).toEqual({ rating: 0, reviewCount: 0 });
    const shipped = await buyer('Piotr Zieliński', [gayo], { delivered: false });
    expect(await saveReview(db, shipped, gayo, { rating: 5, body: 'Great', locale: 'pl' })).toEqual({ ok: false, reason: 'not_buyer' });
    const other = await buyer('Ewa Lis', [java]);
    expect(await saveReview(db, other, gayo, { rating: 1, body: 'Never had it', locale: 'en' })).toEqual({ ok: false, reason: 'not_buyer' });
    expect(await figures(gayo)).toEqual({ rating: 0, reviewCount: 0 });

    const anna = await buyer('Anna Maria Kowalska', [gayo, java]);
    // The "delivered" mail links to the review of each coffee of the order.
    const email = (await db.selectFrom('users').select('email').where('id', '=', anna.userId).executeTakeFirstOrThrow()).email;
    const mails = await db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', email).execute();
    const delivered = mails.find((m) => m.subject.includes('has been delivered'))!;
    expect(delivered.text_body).toContain(`Review Gayo: https://kopi.test/review?product=${gayo}`);
    expect(delivered.text_body).toContain(`Review Java: https://kopi.test/review?product=${java}`);
    expect(mails.find((m) => m.subject.includes('on its way'))!.text_body).not.toContain('/review?');
    const version = catalogVersion();
    const first = await saveReview(db, anna, gayo, { rating: 5, body: 'Wiśnie i wino.', locale: 'pl' });
    expect(first).toMatchObject({ ok: true, created: true, review: { rating: 5, body: 'Wiśnie i wino.', locale: 'pl', authorName: 'Anna K.', hiddenReason: null } });
    expect(catalogVersion()).toBeGreaterThan(version); // cached pages show the new figures
    const tom = await buyer('Tom', [gayo]);
    await saveReview(db, tom, gayo, { rating: 2, body: '', locale: 'en' });
    expect(await figures(gayo)).toEqual({ rating: 3.5, reviewCount: 2 });

    // Once per coffee: a second review replaces the first.
    const again = await saveReview(db, anna, gayo, { rating: 4, body: 'Still good.', locale: 'en' });
    expect(again).toMatchObject({ ok: true, created: false, review: { rating: 4, body: 'Still good.', locale: 'en' } });
    expect(await figures(gayo)).toEqual({ rating: 3, reviewCount: 2 });
    expect(await reviewedProductIds(db, anna.userId, [gayo, java])).toEqual(new Set([gayo]));

    const page = await listProductReviews(db, gayo);
    expect(page).toMatchObject({ total: 2, page: 1, pages: 1 });
    expect(page.items.map((r) => r.authorName)).toEqual(['Tom', 'Anna K.']); // newest first

    expect(await deleteOwnReview(db, tom.userId, gayo)).toBe(true);
    expect(await deleteOwnReview(db, tom.userId, gayo)).toBe(false);
    expect(await figures(gayo)).toEqual({ rating: 4, reviewCount: 1 });
    expect(await getOwnReview(db, tom.userId, gayo)).toBeNull();
  });

  it('takes a product withdrawn from, or an order refunded in full, as not bought', async () => {
    const [kopi, luwak] = [await createCoffee(db, 'Kopi', 1000), await createCoffee(db, 'Luwak', 2000)];
    // Withdrew from one coffee of two and got its money back: the other can still be reviewed.
    const ewa = await buyer('Ewa Lis', [kopi, luwak]);
    const order = (await findOwnOrderForWithdrawal(db, ewa.userId, ewa.orderId))!;
    const asked = await requestWithdrawal(db, order, { name: 'Ewa Lis', email: 'ewa@example.test', positions: [0], reason: '', locale: 'pl' }, { contactTo: 'shop@kopi.test' });
    if (!asked.ok) throw new Error(asked.reason);
    const services = { db, payments: provider, publicUrl: 'https://kopi.test/', log: { info() {}, warn() {}, error() {} } as never };
    expect(await refundWithdrawal(services, owner, ewa.orderId, asked.withdrawal.id)).toMatchObject({ ok: true, refundedCents: 1000 });
    expect(await saveReview(db, ewa, kopi, { rating: 1, body: 'Sent it back', locale: 'pl' })).toEqual({ ok: false, reason: 'not_buyer' });
    expect(await saveReview(db, ewa, luwak, { rating: 3, body: 'Kept it', locale: 'pl' })).toMatchObject({ ok: true });
    // A withdrawal not yet refunded counts too: the coffee is on its way back.
    const jan = await buyer('Jan Lis', [kopi, luwak]);
    const janOrder = (await findOwnOrderForWithdrawal(db, jan.userId, jan.orderId))!;
    expect(await requestWithdrawal(db, janOrder, { name: 'Jan Lis', email: 'jan@example.test', positions: [1], reason: '', locale: 'en' }, { contactTo: 'shop@kopi.test' })).toMatchObject({ ok: true });
    expect(await saveReview(db, jan, luwak, { rating: 2, body: '', locale: 'en' })).toEqual({ ok: false, reason: 'not_buyer' });
    // Refunded in full outside the shop (the provider's dashboard): nothing of it was kept.
    const tom = await buyer('Tom', [kopi]);
    await db.updateTable('orders').set({ refunded_cents: 1000 }).where('id', '=', tom.orderId).execute();
    expect(await saveReview(db, tom, kopi, { rating: 5, body: '', locale: 'en' })).toEqual({ ok: false, reason: 'not_buyer' });
  });

  it('takes a double submission as one review, and two buyers at once both count', async () => {
    const coffee = await createCoffee(db, 'Toraja', 1400);
    const [ola, jan] = [await buyer('Ola Lis', [coffee]), await buyer('Jan Lis', [coffee])];
    const outcomes = await Promise.all([
      saveReview(db, ola, coffee, { rating: 5, body: 'One', locale: 'pl' }),
      saveReview(db, ola, coffee, { rating: 4, body: 'Two', locale: 'pl' }),
      saveReview(db, jan, coffee, { rating: 2, body: '', locale: 'pl' }),
    ]);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const reviews = await listProductReviews(db, coffee);
    expect(reviews.total).toBe(2);
    const olas = reviews.items.find((r) => r.authorName === 'Ola L.')!;
    expect(await figures(coffee)).toEqual({ rating: (olas.rating + 2) / 2, reviewCount: 2 });
  });

  it('pages the reviews newest first, and sorting by rating reads the same figures', async () => {
    const ratings = [5, 4, 4, 3, 5, 2, 4];
    for (const [i, rating] of ratings.entries()) {
      const customer = await buyer(`Java Fan${i}`, [java]);
      await saveReview(db, customer, java, { rating, body: `Review ${i}`, locale: 'en' }, new Date(Date.UTC(2026, 10, 1 + i)));
    }
    const first = await listProductReviews(db, java, 1);
    const second = await listProductReviews(db, java, 2);
    expect(first).toMatchObject({ total: 7, pages: 2 });
    expect([...first.items, ...second.items].map((r) => r.body)).toEqual(ratings.map((_, i) => `Review ${i}`).reverse());
    expect((await listProductReviews(db, java, 99)).page).toBe(2);
    expect(await figures(java)).toEqual({ rating: 3.9, reviewCount: 7 });
    const sorted = await listProducts(db, storage, { locale: 'en', sort: 'rating', limit: 2, offset: 0 });
    expect(sorted.items.map((p) => [p.id, p.rating, p.reviewCount])).toEqual([
      [gayo, 4, 1],
      [java, 3.9, 7],
    ]);
  });

  it('lets the owner reply in public and hide a review only with a reason, which is kept and logged', async () => {
    const buyerOfGayo = await buyer('Karol Wójcik', [gayo]);
    const saved = await saveReview(db, buyerOfGayo, gayo, { rating: 1, body: 'Call me on 600 100 200', locale: 'pl' });
    if (!saved.ok) throw new Error('not saved');
    const id = saved.review.id;
    expect(await figures(gayo)).toEqual({ rating: 2.5, reviewCount: 2 });

    expect(await replyToReview(db, owner, id, 'Thank you, we will call.')).toBe(true);
    expect((await listProductReviews(db, gayo)).items[0]).toMatchObject({ id, reply: 'Thank you, we will call.' });

    expect(await hideReview(db, owner, id, 'personal-data')).toBe(true);
    expect(await figures(gayo)).toEqual({ rating: 4, reviewCount: 1 });
    expect((await listProductReviews(db, gayo)).items.map((r) => r.id)).not.toContain(id);
    expect(await getOwnReview(db, buyerOfGayo.userId, gayo)).toMatchObject({ hiddenReason: 'personal-data' });
    const hidden = await listOwnerReviews(db, { filter: 'hidden' });
    expect(hidden.items).toEqual([expect.objectContaining({ id, hiddenReason: 'personal-data', productName: 'Gayo', authorEmail: expect.stringContaining('karol.w') })]);

    // Edited by its author, it stays hidden: the owner's decision stands.
    await saveReview(db, buyerOfGayo, gayo, { rating: 2, body: 'Fixed', locale: 'pl' });
    expect(await figures(gayo)).toEqual({ rating: 4, reviewCount: 1 });

    expect(await showReview(db, owner, id)).toBe(true);
    expect(await figures(gayo)).toEqual({ rating: 3, reviewCount: 2 });
    const log = await listActivity(db, { subjectType: 'review', subjectId: id });
    expect(log.map((e) => [e.action, e.details.reason ?? null])).toEqual([
      ['review.shown', 'personal-data'],
      ['review.hidden', 'personal-data'],
      ['review.replied', null],
    ]);
    expect(await hideReview(db, owner, 'no-such-review', 'abuse')).toBe(false);
    expect((await listOwnerReviews(db, { filter: 'unanswered' })).items.map((r) => r.id)).not.toContain(id);
  });

  it('seeds the demo customers’ reviews through the same path, with the figures the demo data promises', async () => {
    const keys = [...new Set(demoCustomers.flatMap((c) => c.reviews.map((r) => r.product)))];
    const products = new Map<string, { id: string; priceCents: number; name: string; image: string | null }>();
    for (const key of keys) products.set(key, { id: await createCoffee(db, key, 1500), priceCents: 1500, name: key, image: null });
    const count = await seedDemoReviews(db, products);
    expect(count).toBe(demoCustomers.flatMap((c) => c.reviews).length);
    // Seeded again (every demo coffee deleted, the shop restarted): the demo customers are reused.
    const again = new Map([...products].map(([key, p]) => [key, { ...p }]));
    for (const key of keys.slice(0, 2)) again.set(key, { ...again.get(key)!, id: await createCoffee(db, `${key} again`, 1500) });
    expect(await seedDemoReviews(db, new Map(keys.slice(0, 2).map((k) => [k, again.get(k)!])))).toBeGreaterThan(0);
    for (const key of keys) expect(await figures(products.get(key)!.id), key).toEqual(demoRating(key));
    const demo = await db.selectFrom('users').select(['password_hash', 'disabled']).where('email', 'like', '%@demo.kopi.invalid').execute();
    expect(demo).toHaveLength(demoCustomers.length);
    expect(demo.every((u) => u.password_hash === null && Number(u.disabled) === 1)).toBe(true);
  });
});

describe('the review form', () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    return data;
  };
  it('wants 1 to 5 stars and takes the text as optional', () => {
    expect(parseReviewForm(form({ rating: '4', body: '  Nice \r\n cup ' }))).toEqual({ ok: true, data: { rating: 4, body: 'Nice \n cup' } });
    expect(parseReviewForm(form({ rating: '4' }))).toEqual({ ok: true, data: { rating: 4, body: '' } });
    for (const rating of ['', '0', '6', '4.5', 'five', '1e0']) {
      expect(parseReviewForm(form({ rating })), rating).toMatchObject({ ok: false, errors: { rating: 'reviews.errors.ratingRequired' } });
    }
    expect(parseReviewForm(form({ rating: '5', body: 'x'.repeat(2001) }))).toMatchObject({ ok: false, errors: { body: 'reviews.errors.bodyTooLong' } });
  });
  it('signs a review with the first name and the surname’s initial', () => {
    expect(publicName('Anna Maria Kowalska')).toBe('Anna K.');
    expect(publicName(' Tom ')).toBe('Tom');
    expect(publicName('zofia wiśniewska')).toBe('zofia W.');
  });
});
