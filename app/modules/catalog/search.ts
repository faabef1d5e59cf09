/** Search text normalisation, shared by the indexer (server) and the search box (browser). Pure. */

const MAX_TERMS = 8;

// Letters that carry no combining mark under Unicode decomposition, mapped to their plain spelling.
const PLAIN: Record<string, string> = {
  ł: 'l',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'n',
};
const plainPattern = new RegExp(`[${Object.keys(PLAIN).join('')}]`, 'g');

/** Lower case, accents removed ("Czekoladę" → "czekolade", "Łódź" → "lodz"), whitespace collapsed. */
export function normalizeSearchText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(plainPattern, (c) => PLAIN[c])
    .replace(/\p{Cf}+/gu, '') // soft hyphens, zero-width joiners
    .replace(/[\s\p{Cc}]+/gu, ' ') // control characters (NUL included) count as spaces
    .trim();
}

/**
 * The vocabulary words of a normalised text: its runs of letters and digits that have 2+ characters and a
 * letter, each once. A search term of that shape occurs in a text exactly when it is part of one of them.
 */
export function searchWords(text: string): string[] {
  return [...new Set(text.split(/[^\p{L}\p{N}]+/u).filter(isSearchWord))];
}

/** A term the vocabulary can vouch for: 2+ letters and digits, at least one a letter ("v60" yes; "12", "no." no). */
export const isSearchWord = (term: string) => /^[\p{L}\p{N}]{2,}$/u.test(term) && /\p{L}/u.test(term);

/** The normalised words of a query, without duplicates, at most 8. Every one must match. */
export function searchTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const word of normalizeSearchText(query).split(' ')) {
    if (word) terms.add(word);
    if (terms.size === MAX_TERMS) break;
  }
  return [...terms];
}
