/**
 * Substring search over products.search_text, the one catalogue query that differs between databases.
 * search_text is lower-cased and accent-free, and so must the terms be (catalog/search.ts does both).
 *
 * SQLite: terms of 3+ characters go to the FTS5 trigram index (migration 0002) in one MATCH, whose
 * matches the newest-first scan of `products` probes; shorter terms are checked with LIKE.
 * PostgreSQL: one LIKE per term, served by the pg_trgm GIN index.
 * The catalogue's vocabulary, which tells whether a term occurs at all and corrects typos, is in search-words.server.ts.
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { type Executor, databaseKind } from './database.server';
import type { Database } from './schema';

/** Escapes LIKE's wildcards so `%` and `_` in a query match themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** An FTS5 string literal: the whole term, matched as a substring by the trigram tokenizer. */
export const ftsString = (term: string) => `"${term.replaceAll('"', '""')}"`;

/** The trigram index cannot find terms shorter than three characters. */
const indexable = (term: string) => [...term].length >= 3;

/** A where-condition on the (unaliased) `products` table: every term occurs in search_text. */
export function productSearchFilter(db: Executor, terms: string[]) {
  const kind = databaseKind(db);
  return (eb: ExpressionBuilder<Database, 'products'>): Expression<SqlBool> => {
    const like = (term: string) => sql<SqlBool>`${eb.ref('products.search_text')} like ${`%${escapeLike(term)}%`} escape '\\'`;
    if (kind === 'postgres') return eb.and(terms.map(like));
    const indexed = terms.filter(indexable);
    const conditions = terms.filter((term) => !indexable(term)).map(like);
    if (indexed.length > 0) {
      // `+` keeps SQLite from driving the query by the matched ids: it walks products newest first
      // (stopping after the page) and probes the matched set, which is fast for common and rare terms alike.
      conditions.unshift(sql<SqlBool>`+${eb.ref('products.id')} in (
        select r.product_id from product_search s join product_search_rows r on r.rowid = s.rowid
        where product_search match ${indexed.map(ftsString).join(' ')})`);
    }
    return eb.and(conditions);
  };
}

/**
 * After a bulk load: lets PostgreSQL's planner know how common each word is before autovacuum gets
 * to it (without statistics it may fetch every match of a common word instead of the newest few).
 * SQLite's plan is fixed by the query shape above and needs nothing.
 */
export async function refreshSearchStatistics(db: Executor): Promise<void> {
  if (databaseKind(db) === 'postgres') await sql`analyze products, product_translations, product_images, search_words`.execute(db);
}
