/**
 * The catalogue's words (app/db/search-words.server.ts): kept in step with products.search_text, and used to
 * tell whether a search can match and to correct the terms that match nothing.
 */
import type { Executor } from '~/db/database.server';
import { changeSearchWords, knownWords, missingTerms, similarWords } from '~/db/search-words.server';
import { isSearchWord, searchWords } from './search';
import { closestWord, oneEditAway } from './spelling';

/** Counts the words each product's search text gained and lost; call it in the transaction that wrote the texts. */
export async function recordSearchText(db: Executor, changes: ReadonlyArray<{ before?: string; after?: string }>): Promise<void> {
  const counts = new Map<string, number>();
  const add = (word: string, n: number) => counts.set(word, (counts.get(word) ?? 0) + n);
  for (const { before = '', after = '' } of changes) {
    const lost = new Set(searchWords(before));
    for (const word of searchWords(after)) {
      if (!lost.delete(word)) add(word, 1);
    }
    for (const word of lost) add(word, -1);
  }
  await changeSearchWords(db, counts);
}

export type SearchPlan = { terms: string[]; corrected: boolean } | null;

/**
 * What to search for. When every term occurs somewhere in the catalogue, the terms as typed. Otherwise the query
 * as typed cannot match, and each term that occurs nowhere is replaced by the catalogue word it most likely
 * meant (3+ letters, one or two edits away: spelling.ts); terms that occur are never changed. Null when some
 * term occurs nowhere and has no correction: nothing can match.
 */
export async function planSearch(db: Executor, terms: string[]): Promise<SearchPlan> {
  const missing = await missingTerms(db, terms.filter(isSearchWord));
  if (missing.length === 0) return { terms, corrected: false };
  if (missing.some((term) => [...term].length < 3)) return null;
  const words = await Promise.all(missing.map((term) => correctTerm(db, term)));
  if (words.includes(null)) return null;
  const corrections = new Map(missing.map((term, i) => [term, words[i]]));
  return { terms: [...new Set(terms.map((term) => corrections.get(term) ?? term))], corrected: true };
}

/** Terms of up to six letters can share no trigram with the word they misspell, so their neighbours are looked up too. */
const NEIGHBOURS_UP_TO = 6;

async function correctTerm(db: Executor, term: string): Promise<string | null> {
  const [similar, neighbours] = await Promise.all([
    similarWords(db, term),
    [...term].length <= NEIGHBOURS_UP_TO ? knownWords(db, oneEditAway(term)) : [],
  ]);
  return closestWord(term, [...similar, ...neighbours]);
}
