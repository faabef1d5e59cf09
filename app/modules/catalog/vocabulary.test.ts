/** The catalogue's words (search_words) follow every write of products.search_text, on both databases. */
import { createFakeCatalogue } from '../../../tests/fixtures/fake-catalogue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { createProduct, deleteProduct, rebuildSearchText, updateProduct } from './index.server';
import { searchWords } from './search';
import { recordSearchText } from './vocabulary.server';

const coffee = (name: string, en: string, pl: string) => ({
  category: 'wholeBean' as const,
  priceCents: 1500,
  translations: { en: { name, description: en }, pl: { name, description: pl } },
});

describe.each(testDatabases())('the catalogue vocabulary on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());

  const recount = async () => {
    const counts = new Map<string, number>();
    for (const { search_text } of await handle.db.selectFrom('products').select('search_text').execute()) {
      for (const word of searchWords(search_text)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    return [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
  };
  const stored = async () =>
    (await handle.db.selectFrom('search_words').select(['word', 'product_count']).execute())
      .map((row): [string, number] => [row.word, Number(row.product_count)])
      .sort(([a], [b]) => (a < b ? -1 : 1));

  it('counts the words of created, updated and deleted products', async () => {
    const gayo = await createProduct(handle.db, coffee('Gayo Wine', 'Dark chocolate.', 'Gorzka czekolada.'));
    const toraja = await createProduct(handle.db, coffee('Toraja Sapan', 'Dark chocolate and spice.', 'Przyprawy.'));
    expect(Object.fromEntries(await stored())).toMatchObject({ gayo: 1, toraja: 1, chocolate: 2, czekolada: 1, dark: 2 });

    await updateProduct(handle.db, gayo, coffee('Gayo Honey', 'Honey and plum.', 'Miód i śliwka.'));
    expect(Object.fromEntries(await stored())).toMatchObject({ gayo: 1, honey: 1, chocolate: 1, dark: 1 });
    expect(Object.keys(Object.fromEntries(await stored()))).not.toContain('czekolada');

    await deleteProduct(handle.db, toraja);
    expect(await stored()).toEqual(await recount());
    await deleteProduct(handle.db, gayo);
    expect(await stored()).toEqual([]);
  });

  it('matches a recount after the fake catalogue, an edit and a rebuild', async () => {
    const [first] = await createFakeCatalogue(handle.db, 30);
    await updateProduct(handle.db, first, coffee('Luwak Reserve', 'Honey.', 'Miód.'));
    expect(await stored()).toEqual(await recount());

    // A stale search text (as after a change of the category labels) is rebuilt, and its words with it.
    await handle.db.transaction().execute(async (trx) => {
      const { search_text } = await trx.selectFrom('products').select('search_text').where('id', '=', first).executeTakeFirstOrThrow();
      await trx.updateTable('products').set({ search_text: 'stale' }).where('id', '=', first).execute();
      await recordSearchText(trx, [{ before: search_text, after: 'stale' }]);
    });
    expect(await stored()).toEqual(await recount());
    expect(await rebuildSearchText(handle.db)).toBe(1);
    expect(await stored()).toEqual(await recount());
  });
});
