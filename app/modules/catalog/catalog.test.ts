import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCatalogue } from '../../../tests/fixtures/fake-catalogue';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { nullStorage } from '~/modules/storage/null-storage';
import {
  PAGE_SIZE,
  type ProductInput,
  catalogVersion,
  countProducts,createProduct,
  deleteProduct,
  getProduct,
  getProductsByIds,
  listProducts,
  onCatalogChange,
  rebuildSearchText,
  searchTerms,
  updateProduct,
} from './index.server';
import type { SortOrder } from './catalog.types';

const storage = nullStorage;

function input(overrides: Partial<ProductInput> & { name?: string } = {}): ProductInput {
  const { name = 'Gayo Natural', ...rest } = overrides;
  return {
    category: 'wholeBean',
    priceCents: 1250,
    translations: { en: { name, description: 'A sweet cup.', notes: ['plum'] } },
    ...rest,
  };
}

describe.each(testDatabases())('catalog on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await handle.db.deleteFrom('product_images').execute();
    await handle.db.deleteFrom('product_translations').execute();
    await handle.db.deleteFrom('products').execute();
    await handle.db.deleteFrom('search_words').execute();
  });

  const list = (options: { q?: string; category?: ProductInput['category']; sort?: SortOrder; page?: number; locale?: 'en' | 'pl' } = {}) =>
    listProducts(handle.db, storage, {
      locale: options.locale ?? 'en',
      q: options.q,
      category: options.category ?? undefined,
      sort: options.sort,
      limit: PAGE_SIZE,
      offset: ((options.page ?? 1) - 1) * PAGE_SIZE,
    });
  const names = async (q: string) => (await list({ q })).items.map((p) => p.name).sort();

  it('creates a product and reads it back in full', async () => {
    const id = await createProduct(handle.db, {
      category: 'groundCoffee',
      priceCents: 1890,
      origin: 'Sumatra',
      region: 'Aceh Gayo highlands',
      process: 'wetHulled',
      roast: 'mediumDark',
      altitudeMin: 1200,
      altitudeMax: 1600,
      translations: {
        en: { name: 'Gayo Mountain', description: 'Cedar and dark chocolate.', notes: ['cedar', 'dark chocolate'] },
        pl: {
          name: 'Górska Gayo',
          description: 'Cedr i gorzka czekolada.',
          notes: ['cedr', 'gorzka czekolada'],
          region: 'Wyżyna Gayo, Aceh',
        },
      },
      images: ['products/gayo/a', 'products/gayo/b'],
    });
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const en = await getProduct(handle.db, storage, id, 'en');
    expect(en).toMatchObject({
      id,
      name: 'Gayo Mountain',
      category: 'groundCoffee',
      priceCents: 1890,
      rating: 0, // no review yet: the stars come only from reviews (app/modules/reviews)
      reviewCount: 0,
      origin: 'Sumatra',
      region: 'Aceh Gayo highlands',
      process: 'wetHulled',
      roast: 'mediumDark',
      altitudeMin: 1200,
      altitudeMax: 1600,
      notes: ['cedar', 'dark chocolate'],
      description: 'Cedar and dark chocolate.',
    });
    expect(en!.images.map((i) => i.src)).toEqual(['/images/products/gayo/a-640.webp', '/images/products/gayo/b-640.webp']);
    expect(en!.image).toEqual(en!.images[0]);
    expect(en!.createdAt).toBe(en!.updatedAt);

    const pl = await getProduct(handle.db, storage, id, 'pl');
    expect(pl).toMatchObject({
      name: 'Górska Gayo',
      description: 'Cedr i gorzka czekolada.',
      notes: ['cedr', 'gorzka czekolada'],
      // The region in Polish; the origin has none, so it stays the product's own.
      origin: 'Sumatra',
      region: 'Wyżyna Gayo, Aceh',
    });
    const card = (await list({ locale: 'pl', q: 'Górska' })).items[0];
    expect(card).toMatchObject({ origin: 'Sumatra', region: 'Wyżyna Gayo, Aceh' });
    expect((await list({ q: 'wyzyna gayo' })).items.map((p) => p.id), 'the Polish region is searchable').toEqual([id]);
  });

  it('falls back to English per field when Polish is missing or empty', async () => {
    const none = await createProduct(handle.db, input({ name: 'Only English' }));
    const partial = await createProduct(
      handle.db,
      input({
        translations: {
          en: { name: 'Java Estate', description: 'English text.', notes: ['caramel'] },
          pl: { name: '', description: 'Polski opis.', notes: [] },
        },
      }),
    );
    expect(await getProduct(handle.db, storage, none, 'pl')).toMatchObject({
      name: 'Only English',
      description: 'A sweet cup.',
      notes: ['plum'],
    });
    expect(await getProduct(handle.db, storage, partial, 'pl')).toMatchObject({
      name: 'Java Estate',
      description: 'Polski opis.',
      notes: ['caramel'],
    });
    const { items } = await list({ locale: 'pl' });
    expect(items.map((p) => p.name).sort()).toEqual(['Java Estate', 'Only English']);
  });

  it('returns null for unknown and malformed ids', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', '', '../etc/passwd', "x' or 1=1 --", 'a'.repeat(65)]) {
      expect(await getProduct(handle.db, storage, id, 'en')).toBeNull();
    }
  });

  it('lists newest first, 12 a page, with hasMore', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await createProduct(handle.db, input({ name: `Coffee ${i}` })));
    const newest = [...ids].reverse();

    const page1 = await list();
    expect(page1.items.map((p) => p.id)).toEqual(newest.slice(0, 12));
    expect(page1.hasMore).toBe(true);
    const page2 = await list({ page: 2 });
    expect(page2.items.map((p) => p.id)).toEqual(newest.slice(12, 24));
    expect(page2.hasMore).toBe(true);
    const page3 = await list({ page: 3 });
    expect(page3.items.map((p) => p.id)).toEqual(newest.slice(24));
    expect(page3.hasMore).toBe(false);
    expect(await countProducts(handle.db)).toBe(25);
  });

  it('orders by id when created at the same instant', async () => {
    const createdAt = '2024-05-01T10:00:00.000Z';
    const ids = [
      await createProduct(handle.db, input(), { createdAt }),
      await createProduct(handle.db, input(), { createdAt }),
      await createProduct(handle.db, input(), { createdAt }),
    ];
    expect((await list()).items.map((p) => p.id)).toEqual([...ids].sort().reverse());
  });

  it('sorts by price both ways and by rating in the database, ties newest first, pages that never overlap', async () => {
    const made: Array<{ id: string; price: number; rating: number; reviews: number; at: number }> = [];
    for (let i = 0; i < 15; i++) {
      const price = 900 + (i % 5) * 300; // prices repeat, so ties are decided by age
      const rating = [4.8, 4.2, 4.8, 3.9, 4.5][i % 5]!;
      const reviews = i % 3;
      const id = await createProduct(handle.db, input({ name: `Coffee ${i}`, priceCents: price, category: i % 2 ? 'groundCoffee' : 'wholeBean' }));
      // The figures the reviews module keeps (app/modules/reviews/reviews.test.ts checks how).
      await handle.db.updateTable('products').set({ rating, review_count: reviews }).where('id', '=', id).execute();
      made.push({ id, price, rating, reviews, at: i });
    }
    const newestFirst = (a: (typeof made)[0], b: (typeof made)[0]) => b.at - a.at;
    const expected = {
      'price-asc': [...made].sort((a, b) => a.price - b.price || newestFirst(a, b)),
      'price-desc': [...made].sort((a, b) => b.price - a.price || newestFirst(a, b)),
      rating: [...made].sort((a, b) => b.rating - a.rating || b.reviews - a.reviews || newestFirst(a, b)),
      newest: [...made].sort(newestFirst),
    } as const;
    for (const [sort, order] of Object.entries(expected) as Array<[SortOrder, typeof made]>) {
      const page1 = await list({ sort });
      const page2 = await list({ sort, page: 2 });
      expect([...page1.items, ...page2.items].map((p) => p.id), sort).toEqual(order.map((p) => p.id));
    }
    const ground = await list({ sort: 'price-desc', category: 'groundCoffee' });
    expect(ground.items.map((p) => p.id)).toEqual(expected['price-desc'].filter((p) => p.at % 2).map((p) => p.id));
  });

  it('filters by category and gives the first image, or null', async () => {
    await createProduct(handle.db, input({ name: 'Beans', category: 'wholeBean', images: ['p/1', 'p/2'] }));
    await createProduct(handle.db, input({ name: 'Pods', category: 'capsulesAndPods' }));
    await createProduct(handle.db, input({ name: 'Loose', category: null }));

    const { items, hasMore } = await list({ category: 'wholeBean' });
    expect(items.map((p) => p.name)).toEqual(['Beans']);
    expect(hasMore).toBe(false);
    expect(items[0].image).toEqual({
      src: '/images/p/1-640.webp',
      srcSet: '/images/p/1-320.webp 320w, /images/p/1-640.webp 640w, /images/p/1-1200.webp 1200w',
      width: 1200,
      height: 1500,
    });
    const all = await list();
    expect(all.items.find((p) => p.name === 'Pods')!.image).toBeNull();
    expect(all.items.find((p) => p.name === 'Loose')!.category).toBeNull();
  });

  describe('search', () => {
    beforeEach(async () => {
      await createProduct(handle.db, {
        category: 'wholeBean',
        priceCents: 2100,
        origin: 'Sumatra',
        region: 'Aceh Gayo highlands',
        translations: {
          en: {
            name: 'Gayo Wine Natural',
            description: 'Dark chocolate, red wine and a long finish.',
            notes: ['dark chocolate'],
          },
          pl: {
            name: 'Gayo Winna Naturalna',
            description: 'Gorzka czekolada, czerwone wino i długi finisz.',
            notes: ['gorzka czekolada'],
          },
        },
      });
      await createProduct(handle.db, {
        category: 'capsulesAndPods',
        priceCents: 899,
        origin: 'Java',
        translations: {
          en: { name: 'Java Espresso Pods', description: 'Ten pods with notes of cocoa (100% arabica).', notes: ['cocoa'] },
          pl: { name: 'Kapsułki Jawa', description: 'Dziesięć kapsułek o smaku, który przypomina czekoladę.', notes: ['kakao'] },
        },
      });
      await createProduct(handle.db, {
        category: 'dripCoffeeBags',
        priceCents: 1190,
        origin: 'Bali',
        translations: {
          en: { name: 'Kintamani Drip_Bags', description: 'Citrus and brown sugar.', notes: ['orange'] },
          pl: { name: 'Kintamani saszetki', description: 'Cytrusy i brązowy cukier.', notes: ['pomarańcza'] },
        },
      });
    });

    it('finds English words case-insensitively', async () => {
      expect(await names('CHOCOLATE')).toEqual(['Gayo Wine Natural']);
      expect(await names('espresso')).toEqual(['Java Espresso Pods']);
    });

    it('finds Polish words, with or without accents', async () => {
      expect(await names('czekolada')).toEqual(['Gayo Wine Natural']);
      expect(await names('czekoladę')).toEqual(['Java Espresso Pods']);
      expect(await names('czekolade')).toEqual(['Java Espresso Pods']);
      expect(await names('czekolad')).toEqual(['Gayo Wine Natural', 'Java Espresso Pods']);
      expect(await names('BRĄZOWY')).toEqual(['Kintamani Drip_Bags']);
      expect(await names('dlugi')).toEqual(['Gayo Wine Natural']);
    });

    it('finds category words in both languages', async () => {
      expect(await names('capsules')).toEqual(['Java Espresso Pods']);
      expect(await names('kapsułki')).toEqual(['Java Espresso Pods']);
      expect(await names('ziarnista')).toEqual(['Gayo Wine Natural']);
      expect(await names('wholeBean')).toEqual(['Gayo Wine Natural']);
    });

    it('needs every term to match', async () => {
      expect(await names('gayo czekolada')).toEqual(['Gayo Wine Natural']);
      expect(await names('java czekolad')).toEqual(['Java Espresso Pods']);
      expect(await names('java czekolada')).toEqual([]);
      expect(await names('java wine')).toEqual([]);
      expect(await names('sumatra aceh')).toEqual(['Gayo Wine Natural']);
    });

    it('matches short terms and substrings', async () => {
      expect(await names('ja')).toEqual(['Java Espresso Pods']);
      expect(await names('ja pods')).toEqual(['Java Espresso Pods']);
      expect(await names('intam')).toEqual(['Kintamani Drip_Bags']);
    });

    it('returns nothing when nothing matches', async () => {
      expect(await list({ q: 'matcha' })).toEqual({ items: [], hasMore: false });
    });

    it('treats % and _ literally', async () => {
      expect(await names('%')).toEqual(['Java Espresso Pods']);
      expect(await names('100%')).toEqual(['Java Espresso Pods']);
      expect(await names('_')).toEqual(['Kintamani Drip_Bags']);
      expect(await names('drip_bags')).toEqual(['Kintamani Drip_Bags']);
      expect(await names('g_yo')).toEqual([]);
      expect(await names('%chocolate')).toEqual([]);
      expect(await names('"cocoa"')).toEqual([]);
      expect(await names('\\')).toEqual([]);
    });

    it('never fails on odd input', async () => {
      for (const q of [
        '"',
        '""',
        '*',
        'NEAR(a b)',
        'a OR b',
        '^gayo',
        '-gayo',
        'gayo:',
        '\u0000',
        '\ud800',
        '☕ kawa',
        "'; drop table products; --",
      ]) {
        await expect(list({ q }), q).resolves.toMatchObject({ hasMore: false });
      }
      expect(await names('gayo\u0000')).toEqual(['Gayo Wine Natural']);
    });

    it('combines search with the category filter and paginates results', async () => {
      expect((await list({ q: 'czekolad', category: 'capsulesAndPods' })).items.map((p) => p.name)).toEqual([
        'Java Espresso Pods',
      ]);
      for (let i = 0; i < 13; i++) await createProduct(handle.db, input({ name: `Extra ${i}`, category: 'groundCoffee' }));
      const page1 = await list({ q: 'extra' });
      expect(page1.items).toHaveLength(12);
      expect(page1.hasMore).toBe(true);
      expect((await list({ q: 'extra', page: 2 })).items.map((p) => p.name)).toEqual(['Extra 0']);
    });
  });

  it('agrees with a plain scan on a generated catalogue', async () => {
    const ids = await createFakeCatalogue(handle.db, 300, { images: ['fake/a', 'fake/b'] });
    expect(ids).toHaveLength(300);
    expect(await countProducts(handle.db)).toBe(300);
    const rows = await handle.db.selectFrom('products').select(['id', 'search_text', 'created_at']).execute();
    rows.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
    for (const q of ['czekolada', 'kapsułki papua', 'nr 12', 'no. 299', 'ja', 'jaśmin cedr', 'honey', 'zzz', 'a e']) {
      const terms = searchTerms(q);
      const expected = rows.filter((r) => terms.every((t) => r.search_text.includes(t))).map((r) => r.id);
      const got = await listProducts(handle.db, storage, { locale: 'pl', q, limit: 500, offset: 0 });
      expect(
        got.items.map((p) => p.id),
        q,
      ).toEqual(expected);
    }
    const { items } = await list({ locale: 'pl' });
    expect(items[0]).toMatchObject({ id: ids[299], name: expect.stringContaining('nr 300') });
    expect(items[0].image?.src).toMatch(/^\/images\/fake\/[ab]-640\.webp$/);
  });

  it('updates a product, its translations, images and search text', async () => {
    const id = await createProduct(handle.db, input({ name: 'Old Name', images: ['img/1', 'img/2'] }));
    const before = (await getProduct(handle.db, storage, id, 'en'))!;
    const version = catalogVersion();
    const seen: number[] = [];
    const unsubscribe = onCatalogChange((v) => seen.push(v));

    const result = await updateProduct(handle.db, id, {
      category: 'groundCoffee',
      priceCents: 1500,
      translations: { en: { name: 'New Name', description: 'Fresh text.' }, pl: { name: 'Nowa nazwa' } },
      images: ['img/2', 'img/3'],
    });
    unsubscribe();
    expect(result).toEqual({ ok: true, removedImages: ['img/1'] });
    expect(catalogVersion()).toBe(version + 1);
    expect(seen).toEqual([version + 1]);

    const after = (await getProduct(handle.db, storage, id, 'pl'))!;
    expect(after).toMatchObject({
      name: 'Nowa nazwa',
      description: 'Fresh text.',
      category: 'groundCoffee',
      priceCents: 1500,
      notes: [],
    });
    expect(after.images.map((i) => i.src)).toEqual(['/images/img/2-640.webp', '/images/img/3-640.webp']);
    expect(after.createdAt).toBe(before.createdAt);
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect(await names('old')).toEqual([]);
    expect(await names('nowa')).toEqual(['New Name']);
    expect(await names('mielona')).toEqual(['New Name']);

    expect(await updateProduct(handle.db, 'AAAAAAAAAAAAAAAAAAAAAA', input())).toEqual({ ok: false, reason: 'not_found' });
    expect(await updateProduct(handle.db, '../x', input())).toEqual({ ok: false, reason: 'not_found' });
  });

  it('deletes a product and everything it owns', async () => {
    const id = await createProduct(handle.db, input({ name: 'Doomed Toraja', images: ['img/a', 'img/b'] }));
    const keep = await createProduct(handle.db, input({ name: 'Kept Toraja' }));
    const version = catalogVersion();

    expect(await deleteProduct(handle.db, id)).toEqual({ ok: true, images: ['img/a', 'img/b'] });
    expect(catalogVersion()).toBe(version + 1);
    expect(await getProduct(handle.db, storage, id, 'en')).toBeNull();
    expect(await names('toraja')).toEqual(['Kept Toraja']);
    expect(await handle.db.selectFrom('product_images').selectAll().where('product_id', '=', id).execute()).toEqual([]);
    expect(await handle.db.selectFrom('product_translations').selectAll().where('product_id', '=', id).execute()).toEqual([]);

    expect(await deleteProduct(handle.db, id)).toEqual({ ok: false, reason: 'not_found' });
    expect(catalogVersion()).toBe(version + 1);
    expect((await getProductsByIds(handle.db, storage, [id, keep, 'bad id!'], 'en')).size).toBe(1);
  });

  it('gets products by ids', async () => {
    const a = await createProduct(handle.db, input({ name: 'A', priceCents: 100 }));
    const b = await createProduct(handle.db, input({ name: 'B', priceCents: 200 }));
    const found = await getProductsByIds(handle.db, storage, [a, b, a, 'AAAAAAAAAAAAAAAAAAAAAA', ''], 'en');
    expect([...found.keys()].sort()).toEqual([a, b].sort());
    expect(found.get(b)).toMatchObject({ name: 'B', priceCents: 200 });
    expect((await getProductsByIds(handle.db, storage, [], 'en')).size).toBe(0);
  });

  it('rebuilds stale search text', async () => {
    await createProduct(handle.db, input({ name: 'Flores Bajawa' }));
    await handle.db.updateTable('products').set({ search_text: '' }).execute();
    expect(await names('bajawa')).toEqual([]);
    expect(await rebuildSearchText(handle.db)).toBe(1);
    expect(await names('bajawa')).toEqual(['Flores Bajawa']);
    expect(await rebuildSearchText(handle.db)).toBe(0);
  });
});
