/**
 * The cart's refusals (on SQLite and PostgreSQL), as a browser without JavaScript posts the forms and gets the
 * cart page back: a quantity outside 1–99 is a 400 and a variant switched off or unknown a 404, each with its
 * message in the page's language, and nothing in the cart changes; with JavaScript, the same answer is said
 * beside the button or the line that sent it.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { routeArgs } from '~/http/test-args';
import { renderRoute } from '~/http/test-render';
import { addToCart, ensureUserCart } from '~/modules/cart/index.server';
import { refusalMessage } from '~/modules/cart/refusal';
import { createProduct, variantsOf } from '~/modules/catalog/index.server';
import { getT } from '~/modules/i18n/index.server';
import type { Locale } from '~/modules/i18n/translate';
import { nullStorage } from '~/modules/storage/null-storage';
import { createUser } from '../../tests/fixtures/shop';
import * as cart from './cart';

const log = pino({ level: 'silent' });
/** A message as React writes it into HTML. */
const html = (locale: Locale, key: string, vars?: Record<string, number>) => getT(locale)(key, vars).replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;');

describe.each(testDatabases())('the cart’s refusals on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let small: string;
  let large: string;
  let switchedOff: string;
  let productId: string;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    productId = await createProduct(db, {
      category: 'wholeBean',
      options: ['size'],
      variants: [
        { netWeightGrams: 250, priceCents: 1500 },
        { netWeightGrams: 1000, priceCents: 5000 },
        { netWeightGrams: 500, priceCents: 2800, active: false },
      ],
      translations: { en: { name: 'Gayo' } },
    });
    const variants = (await variantsOf(db, [productId], { all: true })).get(productId)!;
    [small, large, switchedOff] = [250, 1000, 500].map((grams) => variants.find((v) => v.netWeightGrams === grams)!.id);
  });
  afterAll(() => handle.close());

  /** A customer whose cart holds two small bags. */
  async function customer() {
    const user = await createUser(db);
    const cartId = await ensureUserCart(db, user.id);
    await addToCart(db, cartId, small, 2);
    return { user: { id: user.id, email: user.email, displayName: 'Ola', isAdmin: false, photoUrl: null }, cartId };
  }
  const lines = async (cartId: string) =>
    (await db.selectFrom('cart_lines').select(['variant_id', 'quantity']).where('cart_id', '=', cartId).orderBy('variant_id').execute()).map((l) => [l.variant_id, l.quantity]);

  /** The form posted to /cart (or /pl/cart) without JavaScript, and the page that answers. */
  async function post(who: Awaited<ReturnType<typeof customer>>, fields: Record<string, string>, locale: Locale = 'en') {
    const path = locale === 'pl' ? '/pl/cart' : '/cart';
    const request = new Request(`http://localhost${path}`, { method: 'POST', body: new URLSearchParams(fields) });
    const args = routeArgs(request, { app: { db, storage: nullStorage, log, clientIp: '127.0.0.1' }, shopper: { user: who.user, cartId: who.cartId, locale } });
    return renderRoute(cart, path.slice(1), request, args.context, locale);
  }
  /** The action's own answer, as a fetcher gets it. */
  async function answer(who: Awaited<ReturnType<typeof customer>>, fields: Record<string, string>) {
    const request = new Request('http://localhost/cart', { method: 'POST', body: new URLSearchParams(fields) });
    const args = routeArgs(request, { app: { db, storage: nullStorage, log, clientIp: '127.0.0.1' }, shopper: { user: who.user, cartId: who.cartId } });
    return (await cart.action(args as never)) as unknown as { data: unknown; init?: { status?: number } | null };
  }

  it('a quantity outside 1–99 is a 400 that says which quantities there are, in either language, and changes nothing', async () => {
    const who = await customer();
    for (const quantity of ['100', '-1', '2.5', '0', 'lots']) {
      const page = await post(who, { intent: 'add', variantId: large, quantity, redirectTo: '/cart' });
      expect(page.status, quantity).toBe(400);
      expect(page.html, quantity).toContain(html('en', 'product.quantityRefused', { max: 99 }));
    }
    const set = await post(who, { intent: 'set', variantId: small, quantity: '100', redirectTo: '/cart' });
    expect(set.status).toBe(400);
    expect(set.html).toContain(html('en', 'product.quantityRefused', { max: 99 }));
    const polish = await post(who, { intent: 'add', variantId: large, quantity: '100' }, 'pl');
    expect(polish.status).toBe(400);
    expect(polish.html).toContain(html('pl', 'product.quantityRefused', { max: 99 }));
    expect(polish.html).toContain('Wybierz ilość od 1 do 99.');
    expect(await lines(who.cartId)).toEqual([[small, 2]]);
  });

  it('a variant switched off or unknown is a 404 that says it is no longer available, in either language, and changes nothing', async () => {
    const who = await customer();
    for (const fields of [
      { intent: 'add', variantId: switchedOff, quantity: '1' } as Record<string, string>,
      { intent: 'add', variantId: 'NoSuchVariant000000000', quantity: '1' },
      { intent: 'add', productId: 'NoSuchProduct000000000', quantity: '1' },
    ]) {
      const page = await post(who, { ...fields, redirectTo: `/product/${productId}` });
      expect(page.status, JSON.stringify(fields)).toBe(404);
      expect(page.html, JSON.stringify(fields)).toContain(html('en', 'product.variantGone'));
      const polish = await post(who, fields, 'pl');
      expect(polish.status).toBe(404);
      expect(polish.html).toContain(html('pl', 'product.variantGone'));
    }
    // A malformed id is refused as unreadable (400), with the same words.
    const malformed = await post(who, { intent: 'add', variantId: "' or 1=1 --", quantity: '1' });
    expect(malformed.status).toBe(400);
    expect(malformed.html).toContain(html('en', 'product.variantGone'));
    expect(await lines(who.cartId)).toEqual([[small, 2]]);
  });

  it('with JavaScript the answer carries the reason, and the button or the line says it', async () => {
    const who = await customer();
    const tooMany = await answer(who, { intent: 'add', variantId: large, quantity: '100' });
    expect(tooMany.init?.status).toBe(400);
    expect(tooMany.data).toEqual({ ok: false, error: 'invalid', field: 'quantity' });
    const gone = await answer(who, { intent: 'add', variantId: switchedOff, quantity: '1' });
    expect(gone.init?.status).toBe(404);
    expect(gone.data).toEqual({ ok: false, error: 'variant_not_found' });
    expect(await lines(who.cartId)).toEqual([[small, 2]]);

    const say = (data: unknown, where: 'add' | 'line', locale: Locale) => {
      const message = refusalMessage(data, where);
      return message && getT(locale)(message.key, message.vars);
    };
    expect(say(tooMany.data, 'add', 'en')).toBe('Choose a quantity from 1 to 99.');
    expect(say(tooMany.data, 'line', 'pl')).toBe('Wybierz ilość od 1 do 99.');
    expect(say(gone.data, 'add', 'en')).toBe('This size or grind is no longer available.');
    expect(say(gone.data, 'line', 'pl')).toBe('Ta waga lub to mielenie nie jest już dostępne.');
    expect(say({ ok: false, error: 'not_enough', left: 3 }, 'line', 'en')).toBe(getT('en')('cart.stock.lineNotEnough', { count: 3 }));
    expect(say({ ok: false, error: 'invalid', field: null }, 'add', 'en')).toBe(getT('en')('product.addFailed'));
    expect(say({ ok: true }, 'add', 'en')).toBeNull();
    expect(say({ ok: false, error: 'code', reason: 'unknown' }, 'add', 'en')).toBeNull();
  });
});
