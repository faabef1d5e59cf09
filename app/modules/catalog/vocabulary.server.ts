/** The catalogue's words (app/db/search-words.server.ts), kept in step with products.search_text. */
import type { Executor } from '~/db/database.server';
import { changeSearchWords } from '~/db/search-words.server';
import { searchWords } from './search';

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
