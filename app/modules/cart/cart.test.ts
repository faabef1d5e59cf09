import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { createProduct, deleteProduct, updateProduct } from '~/modules/catalog/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import {
  addToCart,
  cartFormSchema,
  changeLineQuantity,
  claimCart,
  defaultVariantOf,
  ensureUserCart,
  countCartItems,
  getCart,
  pruneCartRequests,
  removeFromCart,
  setLineQuantity,
} from './index.server';

const storage = nullStorage;

/** Each test coffee is sold one way: its one variant is what the cart holds. */
const variantIds = new Map<string, string>();
const v = (productId: string) => variantIds.get(productId) ?? productId;

async function product(db: Executor, name: string, priceCents: number, images: string[] = []) {
  const id = await createProduct(db, {
    category: 'wholeBean',
    priceCents,
    translations: { en: { name, description: '' }, pl: { name: `${name} PL` } },
    images,
  });
  variantIds.set(id, (await defaultVariantOf(db, id))!);
  return id;
}

async function newCart(db: Executor, productId: string, quantity = 1): Promise<string> {
  const result = await addToCart(db, null, v(productId), quantity);
  if (!result.ok) throw new Error('product not found');
  return result.cartId;
}

describe.each(testDatabases())('cart on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: Executor;
  let gayo: string;
  let java: string;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    gayo = await product(db, 'Gayo', 1250, ['img/gayo']);
    java = await product(db, 'Java', 899);
  });
  afterAll(() => handle.close());

  const lines = async (cartId: string) => (await getCart(db, storage, cartId, 'en', 'EUR')).lines.map((l) => [l.name, l.quantity]);

  it('reads no cart as an empty cart', async () => {
    const empty = { id: null, currency: 'EUR', lines: [], totalCents: 0, count: 0, removedVariantIds: [], stockCapped: [], code: null };
    expect(await getCart(db, storage, null, 'en', 'EUR')).toEqual(empty);
    expect(await getCart(db, storage, 'AAAAAAAAAAAAAAAAAAAAAA', 'en', 'EUR')).toEqual(empty);
    expect(await countCartItems(db, null)).toBe(0);
    expect(await countCartItems(db, 'AAAAAAAAAAAAAAAAAAAAAA')).toBe(0);
  });

  it('creates a cart on the first add and grows the line on the next', async () => {
    const cartId = await newCart(db, gayo);
    expect(cartId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await addToCart(db, cartId, v(gayo))).toEqual({ ok: true, cartId, repeated: false });
    expect(await lines(cartId)).toEqual([['Gayo', 2]]);
    expect(await countCartItems(db, cartId)).toBe(2);
  });

  it('caps a line at 99', async () => {
    const cartId = await newCart(db, gayo, 60);
    await addToCart(db, cartId, v(gayo), 60);
    expect(await lines(cartId)).toEqual([['Gayo', 99]]);
    await addToCart(db, cartId, v(java), 500);
    expect(await lines(cartId)).toEqual([
      ['Gayo', 99],
      ['Java', 99],
    ]);
    await changeLineQuantity(db, cartId, v(java), 5);
    await setLineQuantity(db, cartId, v(gayo), 150);
    expect(await lines(cartId)).toEqual([
      ['Gayo', 99],
      ['Java', 99],
    ]);
  });

  it('totals in cents from current prices, in the language asked', async () => {
    const cartId = await newCart(db, gayo, 3);
    await addToCart(db, cartId, v(java));
    const cart = await getCart(db, storage, cartId, 'pl', 'EUR');
    expect(cart).toMatchObject({ id: cartId, totalCents: 3 * 1250 + 899, count: 4, removedVariantIds: [], stockCapped: [] });
    expect(cart.lines).toEqual([
      {
        variantId: v(gayo),
        productId: gayo,
        sku: expect.stringMatching(/^GAYO/),
        name: 'Gayo PL',
        label: '',
        choice: '',
        category: 'wholeBean',
        image: expect.objectContaining({ src: '/images/img/gayo-640.webp' }),
        unitPriceCents: 1250,
        netWeightGrams: null,
        quantity: 3,
        lineTotalCents: 3750,
      },
      {
        variantId: v(java),
        productId: java,
        sku: expect.stringMatching(/^JAVA/),
        name: 'Java PL',
        label: '',
        choice: '',
        category: 'wholeBean',
        image: null,
        unitPriceCents: 899,
        netWeightGrams: null,
        quantity: 1,
        lineTotalCents: 899,
      },
    ]);
  });

  it('reflects a price change', async () => {
    const id = await product(db, 'Toraja', 1000);
    const cartId = await newCart(db, id, 2);
    await updateProduct(db, id, { category: 'wholeBean', priceCents: 1150, translations: { en: { name: 'Toraja' } } });
    expect((await getCart(db, storage, cartId, 'en', 'EUR')).totalCents).toBe(2300);
  });

  it('prices the same lines in the currency asked for: a switch re-prices the whole cart, never mixing the two', async () => {
    const id = await createProduct(db, {
      category: 'wholeBean',
      options: ['size'],
      variants: [
        { netWeightGrams: 250, priceCents: 1200, pricePln: 4999 },
        // No złoty price typed: proposed from the shop rate (4.25, ending .99): 32.90 € → 139.83 zł → 139.99 zł.
        { netWeightGrams: 1000, priceCents: 3290 },
      ],
      translations: { en: { name: 'Kerinci' } },
    });
    const [small, large] = (await db.selectFrom('variants').select('id').where('product_id', '=', id).orderBy('position').execute()).map((r) => r.id);
    const added = await addToCart(db, null, small, 2);
    if (!added.ok) throw new Error('not added');
    await addToCart(db, added.cartId, large, 1);
    const euros = await getCart(db, storage, added.cartId, 'en', 'EUR');
    const zloty = await getCart(db, storage, added.cartId, 'pl', 'PLN');
    expect(euros).toMatchObject({ currency: 'EUR', totalCents: 2 * 1200 + 3290 });
    expect(euros.lines.map((l) => l.unitPriceCents)).toEqual([1200, 3290]);
    expect(zloty).toMatchObject({ currency: 'PLN', totalCents: 2 * 4999 + 13_999, count: 3 });
    expect(zloty.lines.map((l) => [l.unitPriceCents, l.lineTotalCents])).toEqual([[4999, 9998], [13_999, 13_999]]);
  });

  it('drops and reports lines whose product was deleted', async () => {
    const doomed = await product(db, 'Doomed', 500);
    const doomedVariant = (await defaultVariantOf(db, doomed))!;
    const cartId = await newCart(db, doomed, 2);
    await addToCart(db, cartId, v(java));
    await deleteProduct(db, doomed);

    const cart = await getCart(db, storage, cartId, 'en', 'EUR');
    expect(cart).toMatchObject({ id: cartId, count: 1, totalCents: 899, removedVariantIds: [doomedVariant] });
    expect(cart.lines.map((l) => l.productId)).toEqual([java]);
    expect((await getCart(db, storage, cartId, 'en', 'EUR')).removedVariantIds).toEqual([]);
    expect(await countCartItems(db, cartId)).toBe(1);
  });

  it('refuses an unknown product and writes nothing', async () => {
    const carts = await db.selectFrom('carts').select('id').execute();
    expect(await addToCart(db, null, 'AAAAAAAAAAAAAAAAAAAAAA', 1)).toEqual({ ok: false, reason: 'variant_not_found' });
    expect(await addToCart(db, null, "' or 1=1 --", 1)).toEqual({ ok: false, reason: 'variant_not_found' });
    expect(await db.selectFrom('carts').select('id').execute()).toEqual(carts);

    const cartId = await newCart(db, gayo);
    expect(await addToCart(db, cartId, 'AAAAAAAAAAAAAAAAAAAAAA', 1)).toEqual({ ok: false, reason: 'variant_not_found' });
    expect(await lines(cartId)).toEqual([['Gayo', 1]]);
  });

  it('starts a new cart when the cookie names an unknown one', async () => {
    const result = await addToCart(db, 'UnknownCartId0000000000', v(gayo), 1);
    expect(result.ok).toBe(true);
    const cartId = result.ok ? result.cartId : '';
    expect(cartId).not.toBe('UnknownCartId0000000000');
    expect(await lines(cartId)).toEqual([['Gayo', 1]]);
  });

  it('increments, decrements to zero and removes', async () => {
    const cartId = await newCart(db, gayo);
    await addToCart(db, cartId, v(java));
    expect(await changeLineQuantity(db, cartId, v(gayo), 1)).toBe(true);
    expect(await lines(cartId)).toEqual([
      ['Gayo', 2],
      ['Java', 1],
    ]);
    await changeLineQuantity(db, cartId, v(gayo), -1);
    await changeLineQuantity(db, cartId, v(gayo), -1);
    expect(await lines(cartId)).toEqual([['Java', 1]]);
    expect(await changeLineQuantity(db, cartId, v(gayo), -1)).toBe(false);

    await setLineQuantity(db, cartId, v(java), 7);
    expect(await countCartItems(db, cartId)).toBe(7);
    expect(await setLineQuantity(db, cartId, v(java), 0)).toBe(true);
    expect(await lines(cartId)).toEqual([]);

    await addToCart(db, cartId, v(gayo), 2);
    expect(await removeFromCart(db, cartId, v(gayo))).toBe(true);
    expect(await removeFromCart(db, cartId, v(gayo))).toBe(false);
    const cart = await getCart(db, storage, cartId, 'en', 'EUR');
    expect(cart).toEqual({ id: cartId, currency: 'EUR', lines: [], totalCents: 0, count: 0, removedVariantIds: [], stockCapped: [], code: null });
  });

  it('bumps updated_at on every write', async () => {
    const cartId = await newCart(db, gayo);
    const updatedAt = async () =>
      (await db.selectFrom('carts').select('updated_at').where('id', '=', cartId).executeTakeFirstOrThrow()).updated_at;
    const stamps = [await updatedAt()];
    const writes = [
      () => addToCart(db, cartId, v(java)),
      () => changeLineQuantity(db, cartId, v(java), 1),
      () => setLineQuantity(db, cartId, v(java), 5),
      () => removeFromCart(db, cartId, v(java)),
    ];
    for (const write of writes) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      await write();
      stamps.push(await updatedAt());
    }
    expect(new Set(stamps).size).toBe(stamps.length);
  });

  it('adds once per request key, also when the same request races itself; a new key adds again', async () => {
    const cartId = await newCart(db, java);
    const same = await Promise.all(Array.from({ length: 4 }, () => addToCart(db, cartId, v(gayo), 1, 'k'.repeat(20))));
    expect(same.every((r) => r.ok && r.cartId === cartId)).toBe(true);
    expect(same.filter((r) => r.ok && !r.repeated)).toHaveLength(1);
    expect(await lines(cartId)).toEqual([['Java', 1], ['Gayo', 1]]);
    // One key covers one product: the same page's key on another product's form is another add.
    await addToCart(db, cartId, v(java), 1, 'k'.repeat(20));
    await addToCart(db, cartId, v(gayo), 1, 'n'.repeat(20));
    expect(await lines(cartId)).toEqual([['Java', 2], ['Gayo', 2]]);

    // A first add without a cart: the repeat answers with the cart it made.
    const first = await addToCart(db, null, v(gayo), 1, 'x'.repeat(20));
    const repeat = await addToCart(db, null, v(gayo), 1, 'x'.repeat(20));
    expect(first.ok && repeat.ok && repeat.repeated && repeat.cartId === first.cartId).toBe(true);
  });

  it('forgets request keys after a day', async () => {
    const cartId = await newCart(db, java);
    await addToCart(db, cartId, v(gayo), 1, 'old-key-0123456789ab');
    const tomorrow = new Date(Date.now() + 25 * 60 * 60 * 1000);
    expect(await pruneCartRequests(db, tomorrow)).toBeGreaterThanOrEqual(1);
    expect(await db.selectFrom('cart_requests').select('request_key').where('request_key', 'like', 'old-key-%').execute()).toEqual([]);
  });

  it('runs inside a caller transaction', async () => {
    const cartId = await db.transaction().execute(async (trx) => {
      const result = await addToCart(trx, null, v(gayo), 2);
      if (!result.ok) throw new Error('unexpected');
      await changeLineQuantity(trx, result.cartId, v(gayo), 1);
      return result.cartId;
    });
    expect(await lines(cartId)).toEqual([['Gayo', 3]]);
  });

  describe('claimCart', () => {
    it('gives the guest cart to a user who has none', async () => {
      const guest = await newCart(db, gayo);
      expect(await claimCart(db, guest, 'user-1')).toBe(guest);
      expect(await claimCart(db, null, 'user-1')).toBe(guest);
      expect(await claimCart(db, 'AAAAAAAAAAAAAAAAAAAAAA', 'user-1')).toBe(guest);
      expect(await claimCart(db, null, 'user-none')).toBeNull();
    });

    it("merges the guest cart into the user's cart, adding quantities", async () => {
      const own = await newCart(db, gayo, 2);
      await addToCart(db, own, v(java), 98);
      await claimCart(db, own, 'user-2');
      const guest = await newCart(db, gayo, 3);
      await addToCart(db, guest, v(java), 5);

      expect(await claimCart(db, guest, 'user-2')).toBe(own);
      expect(await lines(own)).toEqual([
        ['Gayo', 5],
        ['Java', 99],
      ]);
      expect(await db.selectFrom('carts').select('id').where('id', '=', guest).execute()).toEqual([]);
      expect(await countCartItems(db, guest)).toBe(0);
    });

    it("never takes another user's cart", async () => {
      const theirs = await newCart(db, gayo);
      await claimCart(db, theirs, 'user-3');
      expect(await claimCart(db, theirs, 'user-4')).toBeNull();
      expect(await lines(theirs)).toEqual([['Gayo', 1]]);
    });
  });
});

describe('cartFormSchema', () => {
  const parse = (fields: Record<string, string>) => cartFormSchema.safeParse(fields);

  it('parses each intent', () => {
    expect(parse({ intent: 'add', productId: 'abc' }).data).toEqual({ intent: 'add', productId: 'abc', quantity: 1 });
    expect(parse({ intent: 'add', productId: 'abc', quantity: '' }).data).toEqual({
      intent: 'add',
      productId: 'abc',
      quantity: 1,
    });
    expect(parse({ intent: 'add', productId: 'abc', quantity: '3' }).data).toEqual({
      intent: 'add',
      productId: 'abc',
      quantity: 3,
    });
    expect(parse({ intent: 'add', productId: 'abc', requestKey: 'k'.repeat(22) }).data).toEqual({
      intent: 'add',
      productId: 'abc',
      quantity: 1,
      requestKey: 'k'.repeat(22),
    });
    expect(parse({ intent: 'remove', variantId: 'abc' }).data).toEqual({ intent: 'remove', variantId: 'abc' });
    expect(parse({ intent: 'add', variantId: 'abc' }).data).toEqual({ intent: 'add', variantId: 'abc', quantity: 1 });
    expect(parse({ intent: 'set', variantId: 'abc', quantity: '0' }).data).toEqual({
      intent: 'set',
      variantId: 'abc',
      quantity: 0,
    });
  });

  it('rejects bad input', () => {
    expect(parse({ intent: 'buy', productId: 'abc' }).success).toBe(false);
    expect(parse({ intent: 'increment', productId: 'abc' }).success).toBe(false);
    expect(parse({ intent: 'add', productId: 'abc', requestKey: 'short' }).success).toBe(false);
    expect(parse({ intent: 'add', productId: 'abc', requestKey: 'a b'.repeat(10) }).success).toBe(false);
    expect(parse({ intent: 'add', productId: '' }).success).toBe(false);
    expect(parse({ intent: 'add', productId: '../x' }).success).toBe(false);
    expect(parse({ intent: 'add', productId: 'abc', quantity: '0' }).success).toBe(false);
    expect(parse({ intent: 'add', productId: 'abc', quantity: '100' }).success).toBe(false);
    expect(parse({ intent: 'add', productId: 'abc', quantity: '1.5' }).success).toBe(false);
    expect(parse({ intent: 'set', variantId: 'abc' }).success).toBe(false);
    expect(parse({ intent: 'set', variantId: 'abc', quantity: '-1' }).success).toBe(false);
    expect(parse({ intent: 'add' }).success).toBe(false);
  });
});

describe.each(testDatabases())('customer carts on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());

  it('creates a customer cart once', async () => {
    const { db } = handle;
    const first = await ensureUserCart(db, 'user-1');
    expect(await ensureUserCart(db, 'user-1')).toBe(first);
    const [a, b] = await Promise.all([ensureUserCart(db, 'user-2'), ensureUserCart(db, 'user-2')]);
    expect(a).toBe(b);
  });
});
