/**
 * The catalogue's vocabulary (`search_words`, migration 0016): every word of products.search_text with the
 * number of products that contain it, and a trigram index over it. It tells whether a search term occurs
 * anywhere, and which words a mistyped term may have meant.
 *
 * Whoever writes products.search_text changes the counts in the same transaction (changeSearchWords; the
 * catalogue's recordSearchText does it for its writers): a term missing from the vocabulary is taken to
 * match no product.
 *
 * SQLite: an FTS5 trigram table over the words (external content, kept in step by triggers).
 * PostgreSQL: a pg_trgm GIN index on the word, which serves LIKE '%…%' (scans the words when pg_trgm is missing).
 */
import { sql } from 'kysely';
import { type Executor, databaseKind } from './database.server';
import { escapeLike, ftsString } from './search.server';

export type WordCount = { word: string; productCount: number };

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

/** Which of `terms` (lower-cased, accent-free, 2+ characters) no word of the catalogue contains; one query. */
export async function missingTerms(db: Executor, terms: readonly string[]): Promise<string[]> {
  if (terms.length === 0) return [];
  const sqlite = databaseKind(db) === 'sqlite';
  const occurs = (term: string) =>
    sqlite && [...term].length >= 3
      ? sql<boolean>`exists (select 1 from search_word_trigrams where search_word_trigrams match ${ftsString(term)})`
      : sql<boolean>`exists (select 1 from search_words where word like ${`%${escapeLike(term)}%`} escape '\\')`;
  const { rows } = await sql<Record<string, unknown>>`select ${sql.join(terms.map((term, i) => sql`${occurs(term)} as ${sql.id(`t${i}`)}`))}`.execute(db);
  return terms.filter((_, i) => !rows[0][`t${i}`]);
}

/** Up to `limit` words sharing trigrams with `term`, those sharing the most (SQLite: by FTS5's rank) first. */
export async function similarWords(db: Executor, term: string, limit = 50): Promise<WordCount[]> {
  const grams = trigrams(term);
  if (grams.length === 0) return [];
  if (databaseKind(db) === 'sqlite') {
    const { rows } = await sql<{ word: string; product_count: number }>`
      select word, product_count from search_words where id in (
        select rowid from search_word_trigrams where search_word_trigrams match ${grams.map(ftsString).join(' OR ')}
        order by rank limit ${limit})`.execute(db);
    return rows.map(toWordCount);
  }
  const contains = (gram: string) => sql<boolean>`word like ${`%${escapeLike(gram)}%`} escape '\\'`;
  const { rows } = await sql<{ word: string; product_count: number }>`
    select word, product_count from search_words where ${sql.join(grams.map(contains), sql` or `)}
    order by ${sql.join(
      grams.map((gram) => sql`(${contains(gram)})::int`),
      sql` + `,
    )} desc, product_count desc limit ${limit}`.execute(db);
  return rows.map(toWordCount);
}

/** Which of `words` the catalogue has, with their counts. */
export async function knownWords(db: Executor, words: readonly string[]): Promise<WordCount[]> {
  if (words.length === 0) return [];
  if (databaseKind(db) === 'postgres') {
    // A join rather than `word = any(…)`, which the planner may send to the trigram index (pg_trgm serves `=`
    // too): hundreds of words there took over a second on a vocabulary without statistics.
    const { rows } = await sql<{ word: string; product_count: number }>`
      select w.word, w.product_count from unnest(${[...words]}::text[]) as t(word) join search_words w on w.word = t.word`.execute(db);
    return rows.map(toWordCount);
  }
  const found: WordCount[] = [];
  for (let i = 0; i < words.length; i += CHUNK) {
    const rows = await db.selectFrom('search_words').select(['word', 'product_count']).where('word', 'in', words.slice(i, i + CHUNK)).execute();
    found.push(...rows.map(toWordCount));
  }
  return found;
}

const toWordCount = (row: { word: string; product_count: number }): WordCount => ({ word: row.word, productCount: Number(row.product_count) });

/** The distinct three-character pieces of `term`. */
function trigrams(term: string): string[] {
  const s = [...term];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) grams.add(s.slice(i, i + 3).join(''));
  return [...grams];
}
