import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { createProduct, variantsOf } from '~/modules/catalog/index.server';
import { LIMITS } from '~/modules/limits/index.server';
import { addBatch, setStockMode } from '~/modules/stock/index.server';
import { mails } from '../../../tests/fixtures/shop';
import { cancelRestockAlert, findRestockAlert, notifyRestocked, parseAlertForm, pruneRestockAlerts, subscribeToRestock } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const publicUrl = 'https://kopi.test';
const today = new Date().toISOString().slice(0, 10);

describe('the notify-me form', () => {
  it('needs an email address and consent', () => {
    expect(parseAlertForm({ variantId: 'V1', email: ' Ola@Example.COM ', consent: 'yes' })).toEqual({ ok: true, data: { variantId: 'V1', email: 'ola@example.com', consent: 'yes' } });
    expect(parseAlertForm({ variantId: 'V1', email: 'nope', consent: '' })).toEqual({
      ok: false,
      fieldErrors: { email: 'product.notify.errors.emailInvalid', consent: 'product.notify.errors.consent' },
    });
    expect(parseAlertForm({ variantId: "' or 1=1", email: '', consent: 'yes' })).toMatchObject({ ok: false, fieldErrors: { variantId: expect.any(String), email: 'product.notify.errors.emailRequired' } });
  });
});

describe.each(testDatabases())('back-in-stock notices on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());

  async function soldOutCoffee(name: string) {
    const id = await createProduct(db, {
      category: 'wholeBean',
      options: ['size'],
      variants: [
        { netWeightGrams: 250, priceCents: 1500 },
        { netWeightGrams: 1000, priceCents: 5000 },
      ],
      translations: { en: { name, description: '' }, pl: { name: `${name} PL` } },
    });
    await setStockMode(db, owner, { productId: id, label: name }, { mode: 'batches', sellWithinDays: null });
    const [small, large] = [...((await variantsOf(db, [id])).get(id) ?? [])].sort((a, b) => a.priceCents - b.priceCents);
    return { id, subject: { productId: id, label: name }, small: small.id, large: large.id };
  }
  const ask = (variantId: string, email: string, locale: 'en' | 'pl' = 'en', ip = '203.0.113.9') =>
    subscribeToRestock(db, { input: { variantId, email, consent: 'yes' }, locale, ip, publicUrl });
  const mailsTo = async (email: string) => (await mails(db)).filter((m) => m.to_address === email);

  it('confirms once with a stop link, then mails once when the owner roasts again', async () => {
    const coffee = await soldOutCoffee('Waiting');
    expect(await ask(coffee.large, 'ola@example.com', 'pl')).toEqual({ ok: true });
    // Asked twice: nothing new is sent.
    expect(await ask(coffee.large, 'ola@example.com', 'pl')).toEqual({ ok: true });
    const confirmation = await mailsTo('ola@example.com');
    expect(confirmation.map((m) => m.subject)).toEqual(['Damy znać, gdy Waiting PL — 1\u00a0kg wróci do sprzedaży']);
    const stop = /https:\/\/kopi\.test\/pl\/back-in-stock\?token=([\w-]+)/.exec(confirmation[0].text_body)?.[1];
    expect(stop).toBeDefined();
    expect(confirmation[0].text_body).toContain(`https://kopi.test/pl/product/${coffee.id}?size=1000`);

    // Nothing is back yet: nothing is sent.
    expect(await notifyRestocked(db, { publicUrl })).toBe(0);
    await addBatch(db, owner, coffee.subject, { roastedOn: today, grams: 900 });
    // 900 g make no kilogram bag: still waiting.
    expect(await notifyRestocked(db, { publicUrl })).toBe(0);
    await addBatch(db, owner, coffee.subject, { roastedOn: today, grams: 12000 });
    expect(await notifyRestocked(db, { publicUrl })).toBe(1);
    expect(await notifyRestocked(db, { publicUrl })).toBe(0);
    const sent = await mailsTo('ola@example.com');
    expect(sent.map((m) => m.subject)).toEqual(['Damy znać, gdy Waiting PL — 1\u00a0kg wróci do sprzedaży', 'Waiting PL — 1\u00a0kg – znów w sprzedaży']);
    expect(sent[1].text_body).toContain(`https://kopi.test/pl/back-in-stock?token=${stop}`);

    // The stop link's page names the coffee; its button forgets the address.
    expect(await findRestockAlert(db, stop!, 'en', publicUrl)).toMatchObject({ name: 'Waiting — 1\u00a0kg' });
    expect(await cancelRestockAlert(db, stop!)).toBe(true);
    expect(await cancelRestockAlert(db, stop!)).toBe(false);
    expect(await findRestockAlert(db, stop!, 'en', publicUrl)).toBeNull();
    expect(await db.selectFrom('stock_alerts').select('id').where('email', '=', 'ola@example.com').execute()).toEqual([]);
  });

  it('refuses a variant that can be bought, one not on sale, and one of another product', async () => {
    const coffee = await soldOutCoffee('Refusals');
    await addBatch(db, owner, coffee.subject, { roastedOn: today, grams: 500 });
    expect(await ask(coffee.small, 'a@example.com')).toEqual({ ok: false, reason: 'available' });
    expect(await ask('AAAAAAAAAAAAAAAAAAAAAA', 'a@example.com')).toEqual({ ok: false, reason: 'not_found' });
    const other = await soldOutCoffee('Other');
    expect(await subscribeToRestock(db, { input: { variantId: coffee.large, email: 'a@example.com', consent: 'yes' }, productId: other.id, locale: 'en', publicUrl })).toEqual({ ok: false, reason: 'not_found' });
    expect(await mailsTo('a@example.com')).toEqual([]);
  });

  it('is rate-limited per email, sending nothing past the limit', async () => {
    const coffee = await soldOutCoffee('Limited');
    const results = [];
    for (let i = 0; i < LIMITS.stockAlert.perEmail + 2; i++) results.push(await ask(coffee.large, 'busy@example.com', 'en', `198.51.100.${i}`));
    expect(results.filter((r) => r.ok)).toHaveLength(LIMITS.stockAlert.perEmail);
    expect(results.at(-1)).toEqual({ ok: false, reason: 'rate_limited' });
    expect(await mailsTo('busy@example.com')).toHaveLength(1);
  });

  it('forgets a notice 30 days after it was sent', async () => {
    const coffee = await soldOutCoffee('Forgotten');
    await ask(coffee.large, 'old@example.com');
    await db.updateTable('stock_alerts').set({ notified_at: new Date(Date.now() - 31 * 86_400_000).toISOString() }).where('email', '=', 'old@example.com').execute();
    await pruneRestockAlerts(db);
    expect(await db.selectFrom('stock_alerts').select('id').where('email', '=', 'old@example.com').execute()).toEqual([]);
  });
});
