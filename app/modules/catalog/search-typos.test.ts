/** Search that forgives typos (issue 30, item 16), on both databases. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { nullStorage } from '~/modules/storage/null-storage';
import { type ProductInput, PAGE_SIZE, createProduct, deleteProduct, listProducts, updateProduct } from './index.server';

const coffee = (name: string, en: string, pl: string, extra: Partial<ProductInput> = {}): ProductInput => ({
  category: 'wholeBean',
  priceCents: 1500,
  translations: { en: { name, description: en }, pl: { name, description: pl } },
  ...extra,
});

describe.each(testDatabases())('search with typos on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    for (const { id } of await handle.db.selectFrom('products').select('id').execute()) await deleteProduct(handle.db, id);
    await createProduct(handle.db, coffee('Gayo Wine Natural', 'Dark chocolate and red wine.', 'Gorzka czekolada i czerwone wino.', { origin: 'Sumatra' }));
    await createProduct(handle.db, coffee('Sumatra Mandheling', 'Cedar and tobacco.', 'Cedr i tytoń.', { origin: 'Sumatra' }));
    await createProduct(handle.db, coffee('Java Ijen', 'Jasmine and plum.', 'Jaśmin i śliwka. Kawa z Jawy.', { origin: 'Java' }));
    await createProduct(handle.db, coffee('Bali Kintamani', 'Orange and brown sugar.', 'Pomarańcza i brązowy cukier. Kawa z Bali.', { origin: 'Bali' }));
  });

  const search = (q: string, locale: 'en' | 'pl' = 'en') => listProducts(handle.db, nullStorage, { locale, q, limit: PAGE_SIZE, offset: 0 });
  const found = async (q: string, locale: 'en' | 'pl' = 'en') => {
    const { items, correctedQuery } = await search(q, locale);
    return { names: items.map((p) => p.name).sort(), correctedQuery };
  };

  it('finds czekolada for czekloada and says so', async () => {
    expect(await found('czekloada', 'pl')).toEqual({ names: ['Gayo Wine Natural'], correctedQuery: 'czekolada' });
    expect(await found('Czekłoada')).toEqual({ names: ['Gayo Wine Natural'], correctedQuery: 'czekolada' });
  });

  it('finds Sumatra for sumtra', async () => {
    expect(await found('sumtra')).toEqual({ names: ['Gayo Wine Natural', 'Sumatra Mandheling'], correctedQuery: 'sumatra' });
  });

  it('forgives one missing, swapped, wrong or extra letter', async () => {
    for (const q of ['mandeling', 'mandhelnig', 'mandhelimg', 'mandhelling', 'mandhelingg']) {
      expect(await found(q), q).toEqual({ names: ['Sumatra Mandheling'], correctedQuery: 'mandheling' });
    }
  });

  it('forgives two typos in a long word, not three', async () => {
    expect(await found('mnadhelnig')).toEqual({ names: ['Sumatra Mandheling'], correctedQuery: 'mandheling' });
    expect(await found('czeklaoda')).toEqual({ names: ['Gayo Wine Natural'], correctedQuery: 'czekolada' });
    expect(await found('mnadhelnih')).toEqual({ names: [], correctedQuery: undefined });
  });

  it('forgives one typo in a short word, where no trigram is shared, but not two', async () => {
    expect(await found('jvaa')).toEqual({ names: ['Java Ijen'], correctedQuery: 'java' });
    expect(await found('blai')).toEqual({ names: ['Bali Kintamani'], correctedQuery: 'bali' });
    expect(await found('jxxa')).toEqual({ names: [], correctedQuery: undefined });
  });

  it('never corrects a word that occurs: exact matches come first', async () => {
    // "java" is one letter from "kawa", which is in two Polish descriptions.
    expect(await found('java')).toEqual({ names: ['Java Ijen'], correctedQuery: undefined });
    expect(await found('czekolad')).toEqual({ names: ['Gayo Wine Natural'], correctedQuery: undefined });
    // Each word occurs, only not together: nothing, and no guess.
    expect(await found('java mandheling')).toEqual({ names: [], correctedQuery: undefined });
  });

  it('corrects only the words that occur nowhere, and reports the whole query as searched', async () => {
    expect(await found('jasmin plumm')).toEqual({ names: ['Java Ijen'], correctedQuery: 'jasmin plum' });
    expect(await found('SUMTRA tobaco')).toEqual({ names: ['Sumatra Mandheling'], correctedQuery: 'sumatra tobacco' });
    // Corrected, but the corrected words find nothing together: nothing, and no claim.
    expect(await found('sumtra orange')).toEqual({ names: [], correctedQuery: undefined });
  });

  it('never corrects terms shorter than three letters, numbers or terms with punctuation', async () => {
    expect(await found('jz')).toEqual({ names: [], correctedQuery: undefined });
    expect(await found('jx ijen')).toEqual({ names: [], correctedQuery: undefined });
    expect(await found('sumtra,')).toEqual({ names: [], correctedQuery: undefined });
    expect(await found('1500')).toEqual({ names: [], correctedQuery: undefined });
  });

  it('follows the catalogue: a word gone from it is no longer suggested', async () => {
    const id = await createProduct(handle.db, coffee('Kalosi Toraja', 'Spice.', 'Przyprawy.'));
    expect(await found('kalsoi')).toEqual({ names: ['Kalosi Toraja'], correctedQuery: 'kalosi' });

    await updateProduct(handle.db, id, coffee('Enrekang', 'Spice.', 'Przyprawy.'));
    expect(await found('kalsoi')).toEqual({ names: [], correctedQuery: undefined });
    expect(await found('enrekagn')).toEqual({ names: ['Enrekang'], correctedQuery: 'enrekang' });

    await deleteProduct(handle.db, id);
    expect(await found('enrekagn')).toEqual({ names: [], correctedQuery: undefined });
    expect(await found('mandeling')).toEqual({ names: ['Sumatra Mandheling'], correctedQuery: 'mandheling' });
  });
});
