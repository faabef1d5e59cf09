/** Migration 0016 on a shop that has products already: their words are counted, and the trigram index finds them. */
import { describe, expect, it } from 'vitest';
import type { Database } from '../schema';
import { missingTerms, similarWords } from '../search-words.server';
import { emptyDatabases, migrateEmpty } from './empty-databases';


describe.each(emptyDatabases())('the vocabulary of an older shop on %s', (_kind, open) => {
  it('is counted from the products there are', async () => {
    const empty = await open();
    const { db, close } = empty;
    try {
      expect(await migrateEmpty(empty, '0015-reviews')).toBeUndefined();

      const now = new Date().toISOString();
      const product = (id: string, search_text: string) => ({ id, category: 'wholeBean', price_cents: 1590, search_text, created_at: now, updated_at: now });
      await db
        .insertInto('products')
        .values([product('a', 'sumatra mandheling, no. 12 (ziarno, 250 g) sumatra'), product('b', 'java ijen: kawa z jawy sumatra'), product('c', '')])
        .execute();

      expect(await migrateEmpty(empty, 'latest')).toBeUndefined();
      const words = await db.selectFrom('search_words').select(['word', 'product_count']).orderBy('word').execute();
      expect(words.map((w) => [w.word, Number(w.product_count)])).toEqual([
        ['ijen', 1],
        ['java', 1],
        ['jawy', 1],
        ['kawa', 1],
        ['mandheling', 1],
        ['no', 1],
        ['sumatra', 2],
        ['ziarno', 1],
      ]);
      expect(await missingTerms(db, ['andhel', 'mandeling', 'ij', 'jz'])).toEqual(['mandeling', 'jz']);
      expect((await similarWords(db, 'mandeling')).map((w) => w.word)).toContain('mandheling');
    } finally {
      await close();
    }
  });
});
