/**
 * The owner's catalogue work on SQLite and PostgreSQL, with pictures in a real local storage: adding,
 * changing (Remove/Keep, order, new pictures) and deleting products; the form's rules; what a failure leaves
 * behind (nothing); and what deleting does to carts and past orders.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { countActivity, listActivity } from '~/modules/activity/index.server';
import { getCart } from '~/modules/cart/index.server';
import { getT } from '~/modules/i18n/index.server';
import { settlePayment, startPayment } from '~/modules/checkout/index.server';
import { address, pickup, createUser, fillCart } from '../../../tests/fixtures/shop';
import { getProduct, getProductRecord, listOwnerProducts, variantLabel } from '~/modules/catalog/index.server';
import { listOrders } from '~/modules/orders/index.server';
import { createTestPaymentProvider } from '~/modules/payments/index.server';
import { type Storage, createLocalStorage, imageWidths } from '~/modules/storage/index.server';
import { type BackofficeServices, addProduct, changeProduct, removeProduct } from './index.server';
import { productFormValues } from './product-form';

const log = pino({ level: 'silent' });

async function jpeg(width = 1600, height = 1200, colour = '#7a4a2a'): Promise<File> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer();
  return new File([new Uint8Array(bytes)], `coffee-${width}x${height}.jpg`, { type: 'image/jpeg' });
}

function productForm(fields: Record<string, string>, files: File[] = [], extra: [string, string][] = []): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries({ name: 'Gayo Honey', price: '14.90', netWeight: '250', description: 'Honeyed and bright.', ...fields })) form.set(key, value);
  for (const file of files) form.append('images', file);
  for (const [key, value] of extra) form.append(key, value);
  return form;
}

type Row = { id?: string; sku?: string; weight?: string; grind?: string; pack?: string; price?: string; active?: boolean; remove?: boolean };

/** The form of a product sold by `options`, with the variants table's rows (keyed by their place; "on sale" ticked unless said). */
function variantForm(options: string, rows: Row[], fields: Record<string, string> = {}, files: File[] = []): FormData {
  const form = productForm({ options, price: '', netWeight: '', ...fields }, files);
  rows.forEach(({ active = true, remove = false, ...values }, key) => {
    for (const [field, value] of Object.entries(values)) form.set(`variants.${key}.${field}`, value);
    if (active) form.set(`variants.${key}.active`, 'on');
    if (remove) form.set(`variants.${key}.remove`, 'on');
  });
  return form;
}

/** Every file under the storage folder, relative. */
async function filesIn(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe.each(testDatabases())('back office products on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let dir: string;
  let storage: Storage;
  let services: BackofficeServices;
  const owner = { id: 'owner-1', email: 'owner@kopi.test' };

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    for (const table of ['cart_lines', 'order_lines', 'product_images', 'product_translations', 'products', 'activity_log'] as const) {
      await db.deleteFrom(table).execute();
    }
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-backoffice-'));
    storage = createLocalStorage(dir);
    services = { db, storage, log };
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  async function add(fields: Record<string, string> = {}, files: File[] = []): Promise<string> {
    const outcome = await addProduct(services, owner, productForm(fields, files));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    return outcome.id;
  }

  it('adds a product with pictures in both languages: WebP variants with their size, metadata gone, first on the list', async () => {
    const id = await add(
      {
        name: 'Toraja Sapan',
        price: '12,5',
        namePl: 'Toraja Sapan (PL)',
        descriptionPl: 'Czekolada i przyprawy.',
        category: 'groundCoffee',
        origin: 'Sulawesi',
        region: 'Sapan, Toraja highlands',
        regionPl: 'Sapan, wyżyna Toraja',
        notes: 'cocoa, spice',
      },
      [await jpeg(1600, 1200), await jpeg(900, 1200, '#2f6b4f')],
    );
    const record = await getProductRecord(db, storage, id);
    expect(record).toMatchObject({
      priceCents: 1250,
      category: 'groundCoffee',
      origin: 'Sulawesi',
      translations: {
        en: { name: 'Toraja Sapan', notes: ['cocoa', 'spice'] },
        pl: { name: 'Toraja Sapan (PL)', description: 'Czekolada i przyprawy.', origin: '', region: 'Sapan, wyżyna Toraja' },
      },
    });
    expect(record!.images.map((i) => [i.width, i.height])).toEqual([
      [1200, 900],
      [900, 1200],
    ]);
    const files = await filesIn(dir);
    expect(files).toHaveLength(2 * imageWidths.length);
    expect(files.every((f) => f.startsWith(`products/${id}/`) && f.endsWith('.webp'))).toBe(true);
    const meta = await sharp(path.join(dir, files[0])).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();

    expect(await getProduct(db, storage, id, 'pl')).toMatchObject({ name: 'Toraja Sapan (PL)', origin: 'Sulawesi', region: 'Sapan, wyżyna Toraja' });
    expect(await getProduct(db, storage, id, 'en')).toMatchObject({ origin: 'Sulawesi', region: 'Sapan, Toraja highlands' });
    const list = await listOwnerProducts(db, storage, { locale: 'en', limit: 20, offset: 0 });
    expect(list.items[0]).toMatchObject({ id, name: 'Toraja Sapan', priceCents: 1250 });
    expect(await listActivity(db, { subjectType: 'product', subjectId: id })).toMatchObject([{ action: 'product.created', actorEmail: owner.email }]);
  });

  it('applies the EXIF rotation and strips the metadata', async () => {
    // A 1200 × 800 picture a camera stored sideways (orientation 6: rotate 90° to show it upright).
    const bytes = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#884422' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'Secret Farm GPS' } } })
      .toBuffer();
    const id = await add({}, [new File([new Uint8Array(bytes)], 'sideways.jpg')]);
    const [image] = (await getProductRecord(db, storage, id))!.images;
    expect([image.width, image.height]).toEqual([800, 1200]);
    const stored = await fs.readFile(path.join(dir, `${image.key}-1200.webp`));
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height, meta.orientation, meta.exif]).toEqual([800, 1200, undefined, undefined]);
    expect(stored.includes(Buffer.from('Secret Farm'))).toBe(false);
  });

  it('checks the form: required name and price, at most two decimals, and says which field', async () => {
    for (const [fields, errors] of [
      [{ name: '  ' }, { name: 'nameRequired' }],
      [{ price: '' }, { price: 'priceRequired' }],
      [{ price: '12.345' }, { price: 'price' }],
      [{ price: '-1' }, { price: 'price' }],
      [{ price: '1e3' }, { price: 'price' }],
      [{ price: '10000000' }, { price: 'price' }],
      [{ category: 'tea' }, { category: 'category' }],
      [{ netWeight: '' }, { netWeight: 'netWeightRequired' }],
      [{ netWeight: '0' }, { netWeight: 'netWeight' }],
      [{ netWeight: '12.5' }, { netWeight: 'netWeight' }],
      [{ netWeight: '100001' }, { netWeight: 'netWeight' }],
      [{ altitudeMin: '1800', altitudeMax: '1200' }, { altitudeMax: 'altitudeRange' }],
      [{ name: 'Gayo\u202eevil' }, { name: 'invalidCharacters' }],
    ] as const) {
      const outcome = await addProduct(services, owner, productForm(fields));
      expect(outcome, JSON.stringify(fields)).toMatchObject({ ok: false, reason: 'invalid', errors });
      // What was typed comes back.
      if (!outcome.ok && outcome.reason === 'invalid') expect(outcome.values).toMatchObject(fields);
    }
    expect(await db.selectFrom('products').select('id').execute()).toEqual([]);
    for (const [price, cents] of [['0', 0], ['12', 1200], ['12.5', 1250], ['12,50', 1250], ['1 234,99', 123_499]] as const) {
      const id = await add({ price });
      expect((await getProductRecord(db, storage, id))!.priceCents).toBe(cents);
    }
    // The net weight is kept in grams and gives the price per kilogram on the shop's pages.
    const id = await add({ price: '11.90', netWeight: '120' });
    expect(await getProduct(db, storage, id, 'en')).toMatchObject({ priceCents: 1190, netWeightGrams: 120 });
    expect(productFormValues((await getProductRecord(db, storage, id))!)).toMatchObject({ netWeight: '120', price: '11.90' });
  });

  it('refuses pictures by their bytes, their size and their pixels, and keeps nothing of a refused form', async () => {
    const cases: [File, string][] = [
      [new File(['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'], 'logo.png', { type: 'image/png' }), 'imageType'],
      [new File([await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).gif().toBuffer()], 'anim.gif'), 'imageType'],
      [new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.jpg', { type: 'image/jpeg' }), 'imageTooLarge'],
      [new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], 'broken.jpg'), 'imageUnreadable'],
    ];
    // A PNG cut off half-way: its header reads fine, its pixels do not.
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#2f6b4f' } }).png().toBuffer();
    const noisy = await sharp(Buffer.alloc(600 * 400 * 3, 7).map((_, i) => (i * 2654435761) >>> 24), { raw: { width: 600, height: 400, channels: 3 } }).png().toBuffer();
    expect(png.length).toBeGreaterThan(0);
    cases.push([new File([new Uint8Array(noisy.subarray(0, Math.floor(noisy.length / 2)))], 'cut-off.png'), 'imageUnreadable']);
    // A decompression bomb: a tiny PNG that claims 8000 × 6000 pixels (48 MP).
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    cases.push([new File([new Uint8Array(bomb)], 'bomb.png'), 'imageTooManyPixels']);
    // Slivers: valid, few pixels, but a variant would be beyond WebP's 16,383 px side (or a line of pixels).
    for (const [width, height] of [[100, 20_000], [20_000, 100], [30, 400]]) {
      const sliver = await sharp({ create: { width, height, channels: 3, background: '#2f6b4f' } }).png().toBuffer();
      cases.push([new File([new Uint8Array(sliver)], `sliver-${width}x${height}.png`), 'imageProportions']);
    }

    for (const [file, reason] of cases) {
      const outcome = await addProduct(services, owner, productForm({ name: 'With a bad picture' }, [await jpeg(), file]));
      expect(outcome, file.name).toMatchObject({ ok: false, reason: 'invalid', errors: { images: reason }, fileName: file.name });
    }
    const nine = await Promise.all(Array.from({ length: 9 }, () => jpeg(100, 100)));
    expect(await addProduct(services, owner, productForm({}, nine))).toMatchObject({ ok: false, errors: { images: 'tooManyImages' } });
    expect(await db.selectFrom('products').select('id').execute()).toEqual([]);
    expect(await filesIn(dir)).toEqual([]);
  });

  it('takes AVIF, WebP and PNG pictures too', async () => {
    const make = (format: 'avif' | 'webp' | 'png') => sharp({ create: { width: 400, height: 500, channels: 4, background: '#2f6b4f80' } })[format]().toBuffer();
    const files = await Promise.all((['avif', 'webp', 'png'] as const).map(async (f) => new File([new Uint8Array(await make(f))], `p.${f}`)));
    const id = await add({}, files);
    expect((await getProductRecord(db, storage, id))!.images).toHaveLength(3);
  });

  it('leaves no stray files and no product when storing a picture fails half-way', async () => {
    let puts = 0;
    const disk = storage;
    const failing: Storage = {
      ...disk,
      put: async (key, data, type) => {
        if (++puts === imageWidths.length + 2) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        await disk.put(key, data, type);
      },
    };
    await expect(addProduct({ ...services, storage: failing }, owner, productForm({}, [await jpeg(), await jpeg()]))).rejects.toThrow('disk full');
    expect(await filesIn(dir)).toEqual([]);
    expect(await db.selectFrom('products').select('id').execute()).toEqual([]);
  });

  it('leaves no stray files when the database refuses the product', async () => {
    const broken: BackofficeServices = { ...services, db: { ...db, transaction: () => { throw new Error('database gone'); } } as unknown as DB };
    await expect(addProduct(broken, owner, productForm({}, [await jpeg()]))).rejects.toThrow('database gone');
    expect(await filesIn(dir)).toEqual([]);
  });

  it('edits: keeps, removes and reorders pictures, adds new ones after them, and deletes the removed files', async () => {
    const id = await add({ name: 'Kintamani' }, [await jpeg(1200, 1500, '#111111'), await jpeg(1200, 1500, '#222222'), await jpeg(1200, 1500, '#333333')]);
    const [a, b, c] = (await getProductRecord(db, storage, id))!.images.map((i) => i.key);

    // c first, a removed, b kept, then a new picture.
    const outcome = await changeProduct(
      services,
      owner,
      id,
      productForm({ name: 'Kintamani Honey', price: '15', namePl: 'Kintamani miodowa' }, [await jpeg(800, 800)], [
        ['image', c],
        ['image', a],
        ['image', b],
        ['remove', a],
      ]),
    );
    expect(outcome).toEqual({ ok: true, id });
    const record = (await getProductRecord(db, storage, id))!;
    expect(record.images.map((i) => i.key).slice(0, 2)).toEqual([c, b]);
    expect(record.images).toHaveLength(3);
    expect(record.images[2]).toMatchObject({ width: 800, height: 800 });
    expect(record).toMatchObject({ priceCents: 1500, translations: { en: { name: 'Kintamani Honey' }, pl: { name: 'Kintamani miodowa' } } });
    expect(await storage.exists(`${a}-640.webp`)).toBe(false);
    expect(await storage.exists(`${b}-640.webp`)).toBe(true);
    const [entry] = await listActivity(db, { subjectType: 'product', subjectId: id });
    expect(entry).toMatchObject({ action: 'product.updated', details: { priceCents: [1490, 1500], name: ['Kintamani', 'Kintamani Honey'] } });

    // Keys that are not this product's are ignored; pictures the form does not list stay.
    expect(await changeProduct(services, owner, id, productForm({ name: 'Kintamani Honey', price: '15' }, [], [['image', 'products/other/x'], ['remove', 'products/other/x']]))).toEqual({ ok: true, id });
    expect((await getProductRecord(db, storage, id))!.images.map((i) => i.key)).toEqual(record.images.map((i) => i.key));

    // No more than 8 in all.
    const many = await Promise.all(Array.from({ length: 6 }, () => jpeg(100, 100)));
    expect(await changeProduct(services, owner, id, productForm({}, many))).toMatchObject({ ok: false, errors: { images: 'tooManyImages' } });
    // Rating and reviews are not the form's to change.
    await db.updateTable('products').set({ rating: 4.5, review_count: 12 }).where('id', '=', id).execute();
    await changeProduct(services, owner, id, productForm({ name: 'Kintamani Honey', price: '16' }));
    expect(await getProductRecord(db, storage, id)).toMatchObject({ rating: 4.5, reviewCount: 12, priceCents: 1600 });
    expect(await changeProduct(services, owner, 'NoSuchProduct', productForm({}))).toEqual({ ok: false, reason: 'not_found' });
  });

  /** The edit page's rows for the product as it is now. */
  const rowsOf = async (id: string): Promise<Row[]> => productFormValues((await getProductRecord(db, storage, id))!).variants.map(({ key: _key, ...row }) => row);
  const record = async (id: string) => (await getProductRecord(db, storage, id))!;
  const lastChange = async (id: string) => (await listActivity(db, { subjectType: 'product', subjectId: id }))[0];

  it('makes a coffee sold by size and grind from the table; an edit keeps the variants it names, so a cart holding one keeps it', async () => {
    const outcome = await addProduct(
      services,
      owner,
      variantForm(
        'size,grind',
        [
          { weight: '250', grind: 'wholeBean', price: '21,90' },
          { weight: '250', grind: 'espresso', price: '21.90' },
          { weight: '', grind: '', price: '', sku: '' },
          { weight: '1000', grind: 'wholeBean', price: '74.90', sku: 'frinsa-kilo' },
        ],
        { name: 'Java Frinsa' },
      ),
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const { id } = outcome;
    const made = await record(id);
    expect(made.options).toEqual(['size', 'grind']);
    expect(made.variants.map((v) => [v.sku, v.netWeightGrams, v.grind, v.priceCents, v.active])).toEqual([
      ['JAVA-FRINSA-250-WHOLEBEAN', 250, 'wholeBean', 2190, true],
      ['JAVA-FRINSA-250-ESPRESSO', 250, 'espresso', 2190, true],
      ['FRINSA-KILO', 1000, 'wholeBean', 7490, true],
    ]);
    expect(await lastChange(id)).toMatchObject({ action: 'product.created', details: { priceCents: 2190, options: ['size', 'grind'], variants: 3 } });

    const espresso = made.variants[1];
    const buyer = await createUser(db);
    const cartId = await fillCart(db, buyer.id, [[espresso.id, 2]]);

    // The 250 g whole bean goes, the kilo costs less and is taken off sale, a kilo of espresso joins.
    const [wholeBean, , kilo] = await rowsOf(id);
    const changed = await changeProduct(
      services,
      owner,
      id,
      variantForm('size,grind', [{ ...wholeBean, remove: true }, (await rowsOf(id))[1], { ...kilo, price: '72,00', active: false }, { weight: '1000', grind: 'espresso', price: '76.90' }], {
        name: 'Java Frinsa',
      }),
    );
    expect(changed).toEqual({ ok: true, id });
    const edited = await record(id);
    expect(edited.variants.map((v) => [v.sku, v.priceCents, v.active])).toEqual([
      ['JAVA-FRINSA-250-ESPRESSO', 2190, true],
      ['FRINSA-KILO', 7200, false],
      ['JAVA-FRINSA-1000-ESPRESSO', 7690, true],
    ]);
    expect(edited.variants.slice(0, 2).map((v) => v.id)).toEqual([espresso.id, made.variants[2].id]);

    const cart = await getCart(db, storage, cartId, 'en', 'EUR');
    expect(cart.removedVariantIds).toEqual([]);
    expect(cart.lines).toMatchObject([{ variantId: espresso.id, quantity: 2, unitPriceCents: 2190 }]);
    expect(cart.lines[0].label).toBe(variantLabel(espresso, ['size', 'grind'], getT('en'), 'en'));

    // The log names each variant by its SKU.
    expect((await lastChange(id)).details).toEqual({
      variantsAdded: ['JAVA-FRINSA-1000-ESPRESSO'],
      variantsRemoved: ['JAVA-FRINSA-250-WHOLEBEAN'],
      variantPrices: [['FRINSA-KILO', 7490, 7200]],
      variantsOff: ['FRINSA-KILO'],
    });
    // The shop sells what is on sale; the owner's list says "from" and how many variants.
    expect((await getProduct(db, storage, id, 'en'))!.variants.map((v) => v.sku)).toEqual(['JAVA-FRINSA-250-ESPRESSO', 'JAVA-FRINSA-1000-ESPRESSO']);
    const list = await listOwnerProducts(db, storage, { locale: 'en', limit: 20, offset: 0 });
    expect(list.items[0]).toMatchObject({ id, priceCents: 2190, priceFrom: true, variantCount: 3, offSaleCount: 1 });

    // Switched back on: the log says so.
    const rows = await rowsOf(id);
    expect(await changeProduct(services, owner, id, variantForm('size,grind', [rows[0], { ...rows[1], active: true }, rows[2]], { name: 'Java Frinsa' }))).toEqual({ ok: true, id });
    expect((await lastChange(id)).details).toEqual({ variantsOn: ['FRINSA-KILO'] });
  });

  it('refuses a SKU another product has, on the row (or the field) that gave it: nothing saved, no pictures left', async () => {
    const other = await add({ name: 'Gayo Honey', sku: 'gayo-250' });
    expect((await record(other)).variants.map((v) => v.sku)).toEqual(['GAYO-250']);

    const refused = await addProduct(services, owner, variantForm('size', [{ weight: '250', price: '10' }, { weight: '1000', price: '30', sku: 'Gayo-250' }], { name: 'Toraja' }, [await jpeg()]));
    expect(refused).toMatchObject({ ok: false, reason: 'invalid', errors: { 'variants.1.sku': 'skuTaken' } });
    // What was typed comes back.
    if (!refused.ok && refused.reason === 'invalid') expect(refused.values.variants.map((row) => row.sku)).toEqual(['', 'Gayo-250']);
    expect((await db.selectFrom('products').select('id').execute()).map((p) => p.id)).toEqual([other]);
    expect(await filesIn(dir)).toEqual([]);

    // An edit is refused the same way and leaves the product as it was.
    const mine = await add({ name: 'Toraja', price: '10' });
    const before = await record(mine);
    expect(await changeProduct(services, owner, mine, productForm({ name: 'Toraja', price: '11', sku: 'GAYO-250' }, [await jpeg()]))).toMatchObject({
      ok: false,
      reason: 'invalid',
      errors: { sku: 'skuTaken' },
    });
    expect(await record(mine)).toMatchObject({ priceCents: 1000, variants: [{ id: before.variants[0].id, sku: before.variants[0].sku, priceCents: 1000 }], images: [] });
    expect(await filesIn(dir)).toEqual([]);
  });

  it('edits a product sold one way by its price, keeping its variant; it can be sold by size and one way again, and the cart keeps its line', async () => {
    const id = await add({ name: 'Plain', price: '10', netWeight: '250' });
    const [variant] = (await record(id)).variants;
    const buyer = await createUser(db);
    const cartId = await fillCart(db, buyer.id, [[variant.id, 1]]);

    expect(await changeProduct(services, owner, id, productForm({ name: 'Plain', price: '11,50', netWeight: '250' }))).toEqual({ ok: true, id });
    // No złoty price given: it is proposed from the new euro price at the shop rate (11.50 × 4.25 = 48.88 → 48.99).
    expect((await record(id)).variants).toEqual([{ ...variant, priceCents: 1150, prices: { EUR: 1150, PLN: 4899 } }]);
    expect((await lastChange(id)).details).toEqual({ priceCents: [1000, 1150], pricePln: [4299, 4899] });

    // By size: the table starts from the one variant, and a kilo joins it.
    const rows = await rowsOf(id);
    expect(rows).toEqual([{ id: variant.id, sku: variant.sku, weight: '250', grind: '', pack: '', price: '11.50', pln: '48.99', active: true, remove: false }]);
    expect(await changeProduct(services, owner, id, variantForm('size', [rows[0], { weight: '1000', price: '39' }], { name: 'Plain' }))).toEqual({ ok: true, id });
    expect(await record(id)).toMatchObject({ options: ['size'], variants: [{ id: variant.id, netWeightGrams: 250, priceCents: 1150 }, { sku: 'PLAIN-1000', netWeightGrams: 1000, priceCents: 3900 }] });
    expect((await lastChange(id)).details).toEqual({ options: [[], ['size']], variantsAdded: ['PLAIN-1000'] });

    // One way again: the variant the shop showed first stays.
    expect(await changeProduct(services, owner, id, productForm({ name: 'Plain', options: 'none', price: '12', netWeight: '250' }))).toEqual({ ok: true, id });
    expect(await record(id)).toMatchObject({ options: [], variants: [{ id: variant.id, sku: variant.sku, priceCents: 1200 }] });
    expect((await record(id)).variants).toHaveLength(1);
    expect((await lastChange(id)).details).toEqual({ options: [['size'], []], variantsRemoved: ['PLAIN-1000'], variantPrices: [[variant.sku, 1150, 1200]], variantPricesPln: [[variant.sku, 4899, 5099]] });
    expect((await getCart(db, storage, cartId, 'en', 'EUR')).lines).toMatchObject([{ variantId: variant.id, unitPriceCents: 1200 }]);
  });

  it('deletes a product and its pictures; carts drop it, past orders keep their lines without the picture', async () => {
    const id = await add({ name: 'Flores Bajawa', price: '13' }, [await jpeg()]);
    const keep = await add({ name: 'Java Ijen', price: '11' });
    const provider = createTestPaymentProvider(db);
    const buyer = await createUser(db);
    const cartId = await fillCart(db, buyer.id, [[id, 2]]);
    const started = await startPayment(db, provider, { userId: buyer.id, email: buyer.email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup });
    if (!started.ok) throw new Error(started.reason);
    await settlePayment({ db, payments: provider, contactTo: 'shop@kopi.test', kickMail: () => {} }, (_trx, markPaid) => markPaid(started.paymentId));
    const shopper = await createUser(db);
    const otherCart = await fillCart(db, shopper.id, [[id, 1], [keep, 1]]);
    const before = (await listOrders(db, storage, buyer.id)).orders[0];
    expect(before.lines[0].image).not.toBeNull();

    expect(await removeProduct(services, owner, id)).toEqual({ ok: true, name: 'Flores Bajawa' });
    expect(await getProductRecord(db, storage, id)).toBeNull();
    expect(await filesIn(dir)).toEqual([]);

    const cart = await getCart(db, storage, otherCart, 'en', 'EUR');
    expect(cart.lines.map((l) => l.productId)).toEqual([keep]);
    expect(cart.removedVariantIds).toHaveLength(1);

    const after = (await listOrders(db, storage, buyer.id)).orders[0];
    expect(after).toMatchObject({ id: before.id, totalCents: 2600, lines: [{ title: 'Flores Bajawa', unitPriceCents: 1300, quantity: 2, image: null }] });
    expect(await listActivity(db, { subjectType: 'product', subjectId: id })).toMatchObject([{ action: 'product.deleted', subjectLabel: 'Flores Bajawa' }, { action: 'product.created' }]);
    expect(await removeProduct(services, owner, id)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('keeps every change in the activity log, newest first, paged', async () => {
    const id = await add({ name: 'Logged', price: '10' });
    await changeProduct(services, owner, id, productForm({ name: 'Logged', price: '11' }));
    await removeProduct(services, owner, id);
    expect(await countActivity(db)).toBe(3);
    expect((await listActivity(db, { limit: 2 })).map((e) => e.action)).toEqual(['product.deleted', 'product.updated']);
    expect((await listActivity(db, { limit: 2, offset: 2 })).map((e) => e.action)).toEqual(['product.created']);
  });

  it('lists the owner’s products newest first, searchable, with the total for paging', async () => {
    for (const name of ['Aceh Gayo', 'Bali Kintamani', 'Java Preanger', 'Bali Pupuan']) await add({ name });
    const all = await listOwnerProducts(db, storage, { locale: 'en', limit: 3, offset: 0 });
    expect(all.total).toBe(4);
    expect(all.items.map((p) => p.name)).toEqual(['Bali Pupuan', 'Java Preanger', 'Bali Kintamani']);
    const bali = await listOwnerProducts(db, storage, { locale: 'en', q: 'bali', limit: 20, offset: 0 });
    expect(bali).toMatchObject({ total: 2, items: [{ name: 'Bali Pupuan' }, { name: 'Bali Kintamani' }] });
  });
});
