/**
 * The product form's variants table, read and checked as the browser and the server both do: rows by their keys,
 * empty rows ignored, one error per row and field, ids kept (and only once), a product sold one way read from its
 * own fields, and the edit page's values read back as the same variants.
 */
import { describe, expect, it } from 'vitest';
import type { Variant } from '~/modules/catalog/variants';
import { type ProductFormValues, type VariantRowValues, parseProductForm, productFormValues } from './product-form';

type Row = Partial<Record<'id' | 'sku' | 'weight' | 'grind' | 'pack' | 'price' | 'pln', string>> & { active?: boolean; remove?: boolean };

/** A form as the page sends it: the basics, "Sold as", and rows by key (a row's "on sale" is ticked unless said). */
function form(options: string | null, rows: Record<number, Row> = {}, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries({ name: 'Java Frinsa', ...fields })) data.set(key, value);
  if (options !== null) data.set('options', options);
  for (const [key, { active = true, remove = false, ...values }] of Object.entries(rows)) {
    for (const [field, value] of Object.entries(values)) data.set(`variants.${key}.${field}`, value);
    if (active) data.set(`variants.${key}.active`, 'on');
    if (remove) data.set(`variants.${key}.remove`, 'on');
  }
  return data;
}

const blank: Row = { id: '', sku: '', weight: '', grind: '', pack: '', price: '' };

/** FormData from the values the edit page starts from, as its inputs would send them. */
function formOf(values: ProductFormValues): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) if (typeof value === 'string') data.set(key, value);
  for (const row of values.variants) {
    for (const field of ['id', 'sku', 'weight', 'grind', 'pack', 'price', 'pln'] as const) data.set(`variants.${row.key}.${field}`, row[field]);
    if (row.active) data.set(`variants.${row.key}.active`, 'on');
  }
  return data;
}

describe('the product form’s variants', () => {
  it('reads the rows in the order of their keys, ignores empty ones, upper-cases SKUs and reads prices either way', () => {
    const parsed = parseProductForm(
      form('size,grind', {
        0: { weight: '250', grind: 'wholeBean', price: '21,90', sku: ' frinsa-250-wb ' },
        1: { weight: '250', grind: 'espresso', price: '21.9', pln: '92,99' },
        2: blank,
        // Only "on sale" is ticked on an empty row: still empty.
        3: { ...blank, active: true },
        10: { weight: '1000', grind: 'espresso', price: '74.5', active: false },
      }),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.fields.options).toEqual(['size', 'grind']);
    expect(parsed.fields.rowKeys).toEqual([0, 1, 10]);
    expect(parsed.fields.variants).toEqual([
      // A złoty price typed is kept; one left empty is proposed by the server.
      { sku: 'FRINSA-250-WB', netWeightGrams: 250, grind: 'wholeBean', packCount: null, priceCents: 2190, pricePln: null, active: true },
      { sku: '', netWeightGrams: 250, grind: 'espresso', packCount: null, priceCents: 2190, pricePln: 9299, active: true },
      { sku: '', netWeightGrams: 1000, grind: 'espresso', packCount: null, priceCents: 7450, pricePln: null, active: false },
    ]);
    // What was typed comes back, without the empty rows.
    expect(parsed.values.variants.map((row) => row.key)).toEqual([0, 1, 10]);
    expect(parsed.values.variants[0]).toMatchObject({ sku: ' frinsa-250-wb ', price: '21,90' });
  });

  it('says what is wrong on the row and field it concerns', () => {
    const parsed = parseProductForm(
      form('size,grind', {
        0: { weight: '250', grind: 'wholeBean', price: '21.90', sku: 'GAYO-1' },
        1: { weight: '', grind: 'espresso', price: '21.90' },
        2: { weight: '12.5', grind: 'tea', price: '12.345' },
        3: { weight: '1000', grind: '', price: '' },
        4: { weight: '250', grind: 'wholeBean', price: '19' },
        5: { weight: '500', grind: 'filter', price: '30', sku: 'gayo-1' },
        6: { weight: '500', grind: 'mokaPot', price: '30', sku: 'no spaces' },
      }),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual({
      'variants.1.weight': 'netWeightRequired',
      'variants.2.weight': 'netWeight',
      'variants.2.grind': 'variantGrind',
      'variants.2.price': 'price',
      'variants.3.grind': 'variantGrind',
      'variants.3.price': 'priceRequired',
      // The same size and grind as row 0: the size is where they should differ.
      'variants.4.weight': 'variantTwice',
      'variants.5.sku': 'skuTwice',
      'variants.6.sku': 'sku',
    });
  });

  it('refuses whole bean on ground coffee on the row’s grind, as the browser and the server both check it', () => {
    const rows = { 0: { weight: '250', grind: 'filter', price: '19' }, 1: { weight: '250', grind: 'wholeBean', price: '19' } };
    expect(parseProductForm(form('size,grind', rows, { category: 'groundCoffee' }))).toMatchObject({ ok: false, errors: { 'variants.1.grind': 'groundWholeBean' } });
    expect(parseProductForm(form('grind', { 0: { weight: '250', grind: 'wholeBean', price: '19' } }, { category: 'groundCoffee' }))).toMatchObject({
      ok: false,
      errors: { 'variants.0.grind': 'groundWholeBean' },
    });
    expect(parseProductForm(form('size,grind', rows, { category: 'wholeBean' }))).toMatchObject({ ok: true });
  });

  it('asks for pieces when sold by the pack, and ignores the grind and pack a product is not sold by', () => {
    const packs = parseProductForm(form('pack', { 0: { weight: '120', pack: '10', price: '12.90', grind: 'espresso' }, 1: { weight: '360', pack: '0', price: '34.90' }, 2: { weight: '360', price: '34.90' } }));
    expect(packs).toMatchObject({ ok: false, errors: { 'variants.1.pack': 'variantPack', 'variants.2.pack': 'variantPack' } });
    const sizes = parseProductForm(form('size', { 0: { weight: '250', pack: 'x', grind: 'tea', price: '12' } }));
    expect(sizes).toMatchObject({ ok: true, fields: { variants: [{ netWeightGrams: 250, grind: null, packCount: null, priceCents: 1200 }] } });
  });

  it('needs a variant, one on sale, and at most 60; removed rows do not count', () => {
    expect(parseProductForm(form('size', { 0: blank }))).toMatchObject({ ok: false, errors: { variants: 'noVariants' } });
    expect(parseProductForm(form('size', { 0: { weight: '250', price: '9', active: false } }))).toMatchObject({ ok: false, errors: { variants: 'noActiveVariant' } });
    expect(parseProductForm(form('size', { 0: { id: 'v1', weight: '250', price: '9', remove: true } }))).toMatchObject({ ok: false, errors: { variants: 'noVariants' } });
    const many = Object.fromEntries(Array.from({ length: 61 }, (_, i) => [i, { weight: String(100 + i), price: '9' }]));
    expect(parseProductForm(form('size', many))).toMatchObject({ ok: false, errors: { variants: 'tooManyVariants' } });
    // A removed row keeps its place in the form (and its id, for the page to show it again) but is not a variant.
    const parsed = parseProductForm(form('size', { 0: { id: 'v1', weight: '250', price: '9', remove: true }, 1: { id: 'v2', weight: '1000', price: '30' } }));
    expect(parsed).toMatchObject({ ok: true, fields: { rowKeys: [1], variants: [{ id: 'v2', netWeightGrams: 1000 }] } });
    expect(parsed.values.variants.map((row) => [row.id, row.remove])).toEqual([['v1', true], ['v2', false]]);
  });

  it('keeps an existing variant’s id, once: a malformed or repeated id makes the row a new variant', () => {
    const parsed = parseProductForm(
      form('size', { 0: { id: 'abc_123', weight: '250', price: '9' }, 1: { id: 'abc_123', weight: '500', price: '15' }, 2: { id: '../x', weight: '1000', price: '28' } }),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.fields.variants.map((v) => v.id)).toEqual(['abc_123', undefined, undefined]);
  });

  it('reads a product sold one way from its price, net weight and SKU, and not from the table', () => {
    // An older page (or a script) that sends no "Sold as" sells the product one way.
    for (const options of [null, 'none']) {
      const parsed = parseProductForm(form(options, { 0: { weight: 'junk', price: 'junk' } }, { price: '12,50', netWeight: '250', sku: 'plain-250' }));
      expect(parsed, String(options)).toMatchObject({
        ok: true,
        fields: { options: [], rowKeys: null, variants: [{ sku: 'PLAIN-250', netWeightGrams: 250, grind: null, packCount: null, priceCents: 1250, active: true }] },
      });
    }
    expect(parseProductForm(form('none', {}, { price: '', netWeight: '0', sku: '-x' }))).toMatchObject({
      ok: false,
      errors: { price: 'priceRequired', netWeight: 'netWeight', sku: 'sku' },
    });
    expect(parseProductForm(form('colour', {}, { price: '1', netWeight: '1' }))).toMatchObject({ ok: false, errors: { options: 'options' } });
  });

  it('starts the edit page from the product’s variants and reads them back unchanged', () => {
    const variants: Variant[] = [
      { id: 'v250wb', sku: 'FRINSA-250-WB', netWeightGrams: 250, grind: 'wholeBean', packCount: null, priceCents: 2190, prices: { EUR: 2190, PLN: 9299 }, active: true },
      { id: 'v1000es', sku: 'FRINSA-1000-ES', netWeightGrams: 1000, grind: 'espresso', packCount: null, priceCents: 7490, prices: { EUR: 7490, PLN: 31_900 }, active: false },
    ];
    const product = {
      category: 'wholeBean' as const,
      origin: 'Java',
      region: null,
      process: null,
      roast: null,
      altitudeMin: null,
      altitudeMax: null,
      taxClass: 'coffee' as const,
      options: ['size' as const, 'grind' as const],
      variants,
      translations: { en: { name: 'Java Frinsa', description: '', notes: [] }, pl: null },
    };
    const values = productFormValues(product);
    expect(values).toMatchObject({ options: 'size,grind', price: '21.90', pricePln: '92.99', netWeight: '250', sku: 'FRINSA-250-WB' });
    expect(values.variants).toEqual<VariantRowValues[]>([
      { key: 0, id: 'v250wb', sku: 'FRINSA-250-WB', weight: '250', grind: 'wholeBean', pack: '', price: '21.90', pln: '92.99', active: true, remove: false },
      { key: 1, id: 'v1000es', sku: 'FRINSA-1000-ES', weight: '1000', grind: 'espresso', pack: '', price: '74.90', pln: '319.00', active: false, remove: false },
    ]);
    const parsed = parseProductForm(formOf(values));
    expect(parsed).toMatchObject({ ok: true, fields: { options: ['size', 'grind'], variants: variants.map(({ id, sku, netWeightGrams, grind, packCount, priceCents, prices, active }) => ({ id, sku, netWeightGrams, grind, packCount, priceCents, pricePln: prices.PLN, active })) } });
  });
});
