/**
 * The catalogue's vocabulary (`search_words`, migration 0016): every word of products.search_text with the
 * number of products that contain it, and a trigram index over it, for search that forgives typos.
 *
 * Whoever writes products.search_text changes the counts in the same transaction (changeSearchWords; the
 * catalogue's recordSearchText does it for its writers): a term missing from the vocabulary is taken to
 * match no product.
 *
 * SQLite: an FTS5 trigram table over the words (external content, kept in step by triggers).
 * PostgreSQL: a pg_trgm GIN index on the word, which serves LIKE '%…%' (scans the words when pg_trgm is missing).
 */
import type { Executor } from './database.server';

const CHUNK = 500;

/** Adds `n` to each word's product count (n < 0 removes); words left at zero are deleted. */
export async function changeSearchWords(db: Executor, changes: ReadonlyMap<string, number>): Promise<void> {
  // In one order, so two transactions changing the same words wait for each other instead of deadlocking.
  const rows = [...changes]
    .filter(([, n]) => n !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([word, n]) => ({ word, product_count: n }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('search_words')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.column('word').doUpdateSet((eb) => ({ product_count: eb('search_words.product_count', '+', eb.ref('excluded.product_count')) })),
      )
      .execute();
  }
  const lost = rows.filter((row) => row.product_count < 0).map((row) => row.word);
  for (let i = 0; i < lost.length; i += CHUNK) {
    await db.deleteFrom('search_words').where('word', 'in', lost.slice(i, i + CHUNK)).where('product_count', '<=', 0).execute();
  }
}
