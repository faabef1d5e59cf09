/**
 * A product page's chosen variant (on SQLite and PostgreSQL): a combination the coffee is sold in is a 200; one it
 * is not (a value it does not have, two values it does not combine, a variant switched off) is the same page —
 * the coffee and its picker, saying the combination is not offered — with a 404, in either language. The page
 * caches keep only the 200: a URL cached while its variant was sold is dropped when the owner switches it off.
 * The JSON-LD gives each variant's offer the availability its stock shows (in stock, limited, out of stock).
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { type PageCache as PageCacheType, PageCache, isStorableResponse } from '~/http/page-cache.server';
import { sharedPagesMiddleware } from '~/http/shared-pages.server';
import { routeArgs } from '~/http/test-args';
import { renderRoute } from '~/http/test-render';
import { type VariantInput, catalogVersion, createProduct, getProductRecord, updateProduct } from '~/modules/catalog/index.server';
import { getT } from '~/modules/i18n/index.server';
import type { Locale } from '~/modules/i18n/translate';
import { correctStock, setStockMode } from '~/modules/stock/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import * as product from './product';

const log = pino({ level: 'silent' });
const text = (locale: Locale, key: string) => getT(locale)(key).replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;');

describe.each(testDatabases())('a product page’s chosen variant on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let id: string;
  const ground = (variants: VariantInput[]) => ({
    category: 'groundCoffee' as const,
    options: ['size', 'grind'] as ('size' | 'grind')[],
    variants,
    translations: { en: { name: 'Toraja Sapan' }, pl: { name: 'Toraja Sapan' } },
  });

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    id = await createProduct(
      db,
      ground([
        { netWeightGrams: 250, grind: 'filter', priceCents: 1600 },
        { netWeightGrams: 250, grind: 'espresso', priceCents: 1600 },
        { netWeightGrams: 1000, grind: 'filter', priceCents: 5200 },
        { netWeightGrams: 1000, grind: 'espresso', priceCents: 5200, active: false },
      ]),
    );
  });
  afterAll(() => handle.close());

  const app = (extra: object = {}) => ({ db, storage: nullStorage, log, config: { publicUrl: new URL('https://kopi.test/') } as never, nonce: 'n0nce', formKey: 'f0rmkey', ...extra });
  async function get(search: string, locale: Locale = 'en') {
    const path = `${locale === 'pl' ? '/pl' : ''}/product/${id}`;
    const request = new Request(`http://localhost${path}${search}`);
    return renderRoute(product, `${locale === 'pl' ? 'pl/' : ''}product/:id`, request, routeArgs(request, { app: app(), shopper: { locale } }).context, locale);
  }

  it('a combination on sale is a 200 showing its price', async () => {
    for (const search of ['', '?size=1000&grind=filter', '?size=250&grind=espresso', '?reviews=2']) {
      const page = await get(search);
      expect(page.status, search).toBe(200);
      expect(page.html, search).toContain('data-testid="product-price"');
      expect(page.html, search).not.toContain('data-testid="not-offered"');
    }
  });

  it('a combination not offered, an unknown value or a switched-off variant is a 404 with the coffee, its picker and the words', async () => {
    for (const search of ['?size=250&grind=wholeBean', '?size=999&grind=filter', '?size=&grind=filter', '?size=1000&grind=espresso', '?grind=espresso&size=1000', '?grind=tea']) {
      const page = await get(search);
      expect(page.status, search).toBe(404);
      expect(page.html, search).toContain('data-testid="not-offered"');
      expect(page.html, search).toContain(text('en', 'variant.notOffered'));
      expect(page.html, search).toContain('data-testid="variant-picker"');
      expect(page.html, search).toContain('Toraja Sapan');
      expect(page.html, search).not.toContain('data-testid="product-price"');
    }
    const polish = await get('?size=250&grind=wholeBean', 'pl');
    expect(polish.status).toBe(404);
    expect(polish.html).toContain(text('pl', 'variant.notOffered'));
  });

  it('the shared-page cache keeps the 200 only, and forgets it when the variant is switched off', async () => {
    const pages: PageCacheType = new PageCache(catalogVersion);
    const shopper = { user: { id: 'u-1', email: 'ola@example.test', displayName: 'Ola', isAdmin: false, photoUrl: null }, cartId: null };
    /** The product page as a signed-in customer with a cookie asks for it, through the shared-page middleware. */
    async function shared(search: string) {
      const request = new Request(`http://localhost/product/${id}${search}`);
      const { context } = routeArgs(request, { app: app({ sharedPages: pages }), shopper });
      const next = async () => {
        const page = await renderRoute(product, 'product/:id', request, context);
        return new Response(page.html, { status: page.status, headers: { 'content-type': 'text/html; charset=utf-8' } });
      };
      const response = (await sharedPagesMiddleware({ request, context, params: {}, unstable_pattern: '' } as never, next as never)) as Response;
      return { status: response.status, fromCache: response.headers.get('x-page-cache') === 'shared' };
    }
    expect(await shared('?size=250&grind=wholeBean')).toEqual({ status: 404, fromCache: false });
    expect(await shared('?size=250&grind=wholeBean')).toEqual({ status: 404, fromCache: false });
    expect(pages.size).toBe(0);
    // The cookie-less page cache stores by the same rule.
    expect(isStorableResponse(new Response('', { status: 404, headers: { 'content-type': 'text/html' } }))).toBe(false);

    expect(await shared('?size=1000&grind=filter')).toEqual({ status: 200, fromCache: false });
    expect(await shared('?size=1000&grind=filter')).toEqual({ status: 200, fromCache: true });
    // The owner switches the kilo of filter off: the cached 200 is gone, and the page is a 404 again and again.
    const record = (await getProductRecord(db, nullStorage, id))!;
    const variants = record.variants.map((v) => ({ id: v.id, netWeightGrams: v.netWeightGrams, grind: v.grind, priceCents: v.prices.EUR, active: v.grind === 'filter' && v.netWeightGrams === 1000 ? false : v.active }));
    expect((await updateProduct(db, id, ground(variants))).ok).toBe(true);
    expect(await shared('?size=1000&grind=filter')).toEqual({ status: 404, fromCache: false });
    expect(await shared('?size=1000&grind=filter')).toEqual({ status: 404, fromCache: false });
    expect((await get('?size=1000&grind=filter')).status).toBe(404);
  });

  it('the JSON-LD gives each variant its availability: in stock, limited (“only N left”), out of stock', async () => {
    const capsules = await createProduct(db, {
      category: 'capsulesAndPods',
      options: ['pack'],
      variants: [
        { packCount: 10, netWeightGrams: 55, priceCents: 450 },
        { packCount: 50, netWeightGrams: 275, priceCents: 1900 },
        { packCount: 100, netWeightGrams: 550, priceCents: 3500 },
      ],
      translations: { en: { name: 'Capsules' }, pl: { name: 'Kapsułki' } },
    });
    const owner = { id: null, email: 'owner@kopi.test' };
    const subject = { productId: capsules, label: 'Capsules' };
    await setStockMode(db, owner, subject, { mode: 'units', sellWithinDays: null });
    const record = (await getProductRecord(db, nullStorage, capsules))!;
    const byPack = new Map(record.variants.map((v) => [v.packCount, v]));
    await correctStock(db, owner, subject, { variantId: byPack.get(10)!.id, units: 40, reason: 'count' });
    await correctStock(db, owner, subject, { variantId: byPack.get(50)!.id, units: 3, reason: 'count' });
    await correctStock(db, owner, subject, { variantId: byPack.get(100)!.id, units: 0, reason: 'count' });
    for (const locale of ['en', 'pl'] as const) {
      const path = `${locale === 'pl' ? '/pl' : ''}/product/${capsules}`;
      const request = new Request(`http://localhost${path}`);
      const loaded = (await product.loader(routeArgs(request, { app: app(), shopper: { locale }, params: { id: capsules } }) as never)) as { jsonLd: { '@type': string; hasVariant: Array<{ sku: string; offers: { availability: string } }> } };
      expect(loaded.jsonLd['@type']).toBe('ProductGroup');
      const availability = Object.fromEntries(loaded.jsonLd.hasVariant.map((v) => [v.sku, v.offers.availability]));
      expect(availability).toEqual({
        [byPack.get(10)!.sku]: 'https://schema.org/InStock',
        [byPack.get(50)!.sku]: 'https://schema.org/LimitedAvailability',
        [byPack.get(100)!.sku]: 'https://schema.org/OutOfStock',
      });
    }
  });
});
