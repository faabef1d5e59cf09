/**
 * Variants on SQLite and PostgreSQL: a coffee sold by size and grind or by the pack, each variant with its SKU,
 * weight and price; the card's "from" price and default; labels in both languages; edits that keep the variants
 * carts hold; SKUs unique across the shop; and everything a form could get wrong refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { addToCart, getCart } from '~/modules/cart/index.server';
import { getT } from '~/modules/i18n/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import {
  type ProductInput,
  type VariantInput,
  SkuTakenError,
  createProduct,
  getProduct,
  getProductRecord,
  listProducts,
  productInputSchema,
  updateProduct,
  variantLabel,
} from './index.server';

const storage = nullStorage;

const bag = (grams: number, grind: VariantInput['grind'], priceCents: number, extra: Partial<VariantInput> = {}): VariantInput => ({ netWeightGrams: grams, grind, priceCents, ...extra });
const frinsa = (variants: VariantInput[], extra: Partial<ProductInput> = {}): ProductInput => ({
  category: 'wholeBean',
  options: ['size', 'grind'],
  variants,
  translations: { en: { name: 'Java Frinsa' }, pl: { name: 'Jawa Frinsa' } },
  ...extra,
});

describe.each(testDatabases())('variants on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());

  it('sells a coffee by size and grind: labels in both languages, the card shows "from" its cheapest, the page every variant', async () => {
    const id = await createProduct(handle.db, frinsa([bag(250, 'wholeBean', 2190), bag(250, 'espresso', 2190), bag(1000, 'wholeBean', 7490), bag(1000, 'espresso', 7690)]));
    const product = (await getProduct(handle.db, storage, id, 'pl'))!;
    expect(product.options).toEqual(['size', 'grind']);
    expect(product.variants.map((v) => [v.netWeightGrams, v.grind, v.priceCents])).toEqual([
      [250, 'wholeBean', 2190],
      [250, 'espresso', 2190],
      [1000, 'wholeBean', 7490],
      [1000, 'espresso', 7690],
    ]);
    expect(product.variants.map((v) => v.sku)).toEqual(['JAVA-FRINSA-250-WHOLEBEAN', 'JAVA-FRINSA-250-ESPRESSO', 'JAVA-FRINSA-1000-WHOLEBEAN', 'JAVA-FRINSA-1000-ESPRESSO']);
    expect(product).toMatchObject({ priceCents: 2190, priceFrom: true, netWeightGrams: 250, defaultVariant: { grind: 'wholeBean', netWeightGrams: 250 } });
    expect(variantLabel(product.variants[3], product.options, getT('en'), 'en')).toBe('1\u00a0kg, espresso');
    expect(variantLabel(product.variants[3], product.options, getT('pl'), 'pl')).toBe('1\u00a0kg, do ekspresu');

    // One price for every variant: no "from".
    const same = await createProduct(handle.db, frinsa([bag(250, 'filter', 1500), bag(250, 'frenchPress', 1500)], { translations: { en: { name: 'Toraja' } } }));
    expect(await getProduct(handle.db, storage, same, 'en')).toMatchObject({ priceFrom: false, priceCents: 1500 });
    // Sorting by price reads the cheapest variant.
    const ascending = await listProducts(handle.db, storage, { locale: 'en', sort: 'price-asc', limit: 12, offset: 0 });
    expect(ascending.items.map((p) => p.id)).toEqual([same, id]);
  });

  it('sells drip bags by the pack, and a product sold one way as one variant without options', async () => {
    const id = await createProduct(handle.db, {
      category: 'dripCoffeeBags',
      options: ['pack'],
      variants: [
        { packCount: 10, netWeightGrams: 120, priceCents: 1290, sku: 'GAYO-DRIP-10' },
        { packCount: 30, netWeightGrams: 360, priceCents: 3490, sku: 'gayo-drip-30' },
      ],
      translations: { en: { name: 'Gayo Drip Bags' } },
    });
    const product = (await getProduct(handle.db, storage, id, 'pl'))!;
    expect(product.variants.map((v) => v.sku)).toEqual(['GAYO-DRIP-10', 'GAYO-DRIP-30']);
    expect(product.variants.map((v) => variantLabel(v, product.options, getT('pl'), 'pl'))).toEqual(['10 szt.', '30 szt.']);
    const simple = await createProduct(handle.db, { category: 'wholeBean', priceCents: 990, netWeightGrams: 200, translations: { en: { name: 'Plain' } } });
    const plain = (await getProduct(handle.db, storage, simple, 'en'))!;
    expect(plain).toMatchObject({ options: [], priceFrom: false, variants: [{ priceCents: 990, netWeightGrams: 200, grind: null, packCount: null }] });
    expect(variantLabel(plain.variants[0], plain.options, getT('en'), 'en')).toBe('');
  });

  it('keeps the variants an edit names (and carts holding them), deletes the others, and switches variants off', async () => {
    const id = await createProduct(handle.db, frinsa([bag(250, 'wholeBean', 1990), bag(1000, 'wholeBean', 6490)], { translations: { en: { name: 'Kerinci' } } }));
    const [small, large] = (await getProductRecord(handle.db, storage, id))!.variants;
    const added = await addToCart(handle.db, null, large.id, 2);
    if (!added.ok) throw new Error('not added');
    await updateProduct(handle.db, id, frinsa([{ ...large, priceCents: 6290 }, bag(500, 'espresso', 3590), { ...small, active: false }], { translations: { en: { name: 'Kerinci' } } }));
    const record = (await getProductRecord(handle.db, storage, id))!;
    expect(record.variants.map((v) => [v.id === large.id, v.id === small.id, v.priceCents, v.active])).toEqual([
      [true, false, 6290, true],
      [false, false, 3590, true],
      [false, true, 1990, false],
    ]);
    // The cart's 1 kg line is still there, at today's price; the switched-off 250 g is not sold.
    expect((await getCart(handle.db, storage, added.cartId, 'en', 'EUR')).lines).toMatchObject([{ variantId: large.id, quantity: 2, unitPriceCents: 6290 }]);
    expect(await addToCart(handle.db, added.cartId, small.id)).toEqual({ ok: false, reason: 'variant_not_found' });
    const shown = (await getProduct(handle.db, storage, id, 'en'))!;
    expect(shown.variants.map((v) => v.id)).not.toContain(small.id);
    expect(shown).toMatchObject({ priceCents: 3590, netWeightGrams: 500 });

    // Dropping the 1 kg from the product: the cart says its line is gone.
    await updateProduct(handle.db, id, frinsa([bag(500, 'espresso', 3590, { id: record.variants[1].id })], { translations: { en: { name: 'Kerinci' } } }));
    expect(await getCart(handle.db, storage, added.cartId, 'en', 'EUR')).toMatchObject({ lines: [], removedVariantIds: [large.id] });

    // A product sold one way keeps its one variant, given again without its id.
    const plain = await createProduct(handle.db, { category: 'wholeBean', priceCents: 990, translations: { en: { name: 'Plain' } } });
    const [only] = (await getProductRecord(handle.db, storage, plain))!.variants;
    await updateProduct(handle.db, plain, { category: 'wholeBean', priceCents: 1090, translations: { en: { name: 'Plain' } } });
    expect((await getProductRecord(handle.db, storage, plain))!.variants).toMatchObject([{ id: only.id, sku: only.sku, priceCents: 1090 }]);
  });

  it('keeps SKUs unique across the shop: a given one another product has is refused, made ones step aside', async () => {
    await createProduct(handle.db, frinsa([bag(250, 'wholeBean', 1990, { sku: 'TAKEN-1' })], { translations: { en: { name: 'Bajawa' } } }));
    await expect(createProduct(handle.db, frinsa([bag(250, 'wholeBean', 1990, { sku: 'taken-1' })], { translations: { en: { name: 'Other' } } }))).rejects.toBeInstanceOf(SkuTakenError);
    const twin = await createProduct(handle.db, frinsa([bag(250, 'wholeBean', 1990)], { translations: { en: { name: 'Bajawa' } } }));
    const again = await createProduct(handle.db, frinsa([bag(250, 'wholeBean', 1990)], { translations: { en: { name: 'Bajawa' } } }));
    const skus = [twin, again].map(async (id) => (await getProductRecord(handle.db, storage, id))!.variants[0].sku);
    expect(await Promise.all(skus)).toEqual(['BAJAWA-250-WHOLEBEAN', 'BAJAWA-250-WHOLEBEAN-2']);
    // Two variants of one product may swap their SKUs in one edit.
    const id = await createProduct(handle.db, frinsa([bag(250, 'wholeBean', 1990, { sku: 'SWAP-A' }), bag(1000, 'wholeBean', 5990, { sku: 'SWAP-B' })], { translations: { en: { name: 'Swap' } } }));
    const [a, b] = (await getProductRecord(handle.db, storage, id))!.variants;
    await updateProduct(handle.db, id, frinsa([{ ...a, sku: 'SWAP-B' }, { ...b, sku: 'SWAP-A' }], { translations: { en: { name: 'Swap' } } }));
    expect((await getProductRecord(handle.db, storage, id))!.variants.map((v) => v.sku)).toEqual(['SWAP-B', 'SWAP-A']);
  });
});

describe('a product’s variants as the form gives them', () => {
  const problems = (input: ProductInput) => {
    const parsed = productInputSchema.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };
  it('refuses a combination twice, values the options do not have or lack, no variant on sale, and odd option sets', () => {
    expect(problems(frinsa([bag(250, 'wholeBean', 1990), bag(250, 'wholeBean', 2090)]))).toEqual(['variants.1: productForm.errors.variantTwice']);
    expect(problems(frinsa([bag(250, null, 1990)]))).toEqual(['variants.0: productForm.errors.variantGrind']);
    expect(problems(frinsa([{ grind: 'espresso', priceCents: 100 }]))).toEqual(['variants.0: productForm.errors.variantSize']);
    expect(problems(frinsa([bag(250, 'espresso', 1990, { packCount: 10 })]))).toEqual(['variants.0: productForm.errors.variantPack']);
    expect(problems(frinsa([bag(250, 'espresso', 1990, { active: false })]))).toEqual(['variants: productForm.errors.noActiveVariant']);
    expect(problems(frinsa([]))).toContain('variants: productForm.errors.noVariants');
    expect(problems(frinsa([bag(250, 'espresso', 1990)], { options: ['grind', 'size'] }))).toEqual(['options: productForm.errors.options']);
    expect(problems(frinsa([bag(250, 'espresso', 1990)], { options: ['pack', 'size'] }))).toEqual(['options: productForm.errors.options']);
    expect(problems(frinsa([bag(250, 'espresso', 1990, { sku: 'A' }), bag(1000, 'espresso', 5990, { sku: 'a' })]))).toEqual(['variants.1: productForm.errors.skuTwice']);
    expect(problems(frinsa([bag(250, 'espresso', 1990, { sku: 'ŁÓDŹ 1' })]))).toEqual(['variants.0.sku: productForm.errors.sku']);
    expect(problems(frinsa([bag(250, 'espresso', -1)]))).toEqual(['variants.0.priceCents: productForm.errors.price']);
    expect(problems({ category: 'wholeBean', translations: { en: { name: 'No price' } } })).toEqual(['priceCents: productForm.errors.price']);
  });

  it('refuses whole bean on ground coffee, switched off or not, with its message in both languages', () => {
    const ground = (variants: VariantInput[]) => frinsa(variants, { category: 'groundCoffee' });
    expect(problems(ground([bag(250, 'filter', 1990), bag(250, 'wholeBean', 1990)]))).toEqual(['variants.1: productForm.errors.groundWholeBean']);
    expect(problems(ground([bag(250, 'filter', 1990), bag(1000, 'wholeBean', 5990, { active: false })]))).toEqual(['variants.1: productForm.errors.groundWholeBean']);
    expect(problems(frinsa([{ grind: 'wholeBean', priceCents: 1990 }], { category: 'groundCoffee', options: ['grind'] }))).toEqual(['variants.0: productForm.errors.groundWholeBean']);
    // Ground coffee in its grinds, and whole-bean coffee ground to order, are fine.
    expect(problems(ground([bag(250, 'filter', 1990), bag(250, 'espresso', 1990)]))).toEqual([]);
    expect(problems(frinsa([bag(250, 'wholeBean', 1990), bag(250, 'espresso', 1990)]))).toEqual([]);
    expect(getT('en')('admin.productForm.errors.groundWholeBean')).toBe('Ground coffee has no whole bean: choose a grind.');
    expect(getT('pl')('admin.productForm.errors.groundWholeBean')).toBe('Kawa mielona nie ma wersji ziarnistej: wybierz rodzaj mielenia.');
  });
});
