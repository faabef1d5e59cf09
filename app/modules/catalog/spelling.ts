/** Spelling correction of search terms against the catalogue's words: which word a mistyped term meant. Pure. */

/** A word of the catalogue and how many products contain it. */
export type Candidate = { word: string; productCount: number };

/** How many letters may be wrong, missing, extra or swapped: one in a term of up to 4 letters, two beyond. */
export const allowedEdits = (term: string) => ([...term].length <= 4 ? 1 : 2);

/**
 * The optimal string alignment distance (Levenshtein plus swapping two neighbouring letters), counted in
 * code points; anything above `max` comes back as max + 1.
 */
export function editDistance(a: string, b: string, max: number): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[t.length], max + 1);
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Every string one edit away from `term` (a letter dropped, swapped with its neighbour, replaced or added),
 * over a–z and the term's own letters. Short words share too few trigrams with their misspellings for the
 * trigram index to find them ("jvaa" and "java" share none), so they are looked up by these instead.
 */
export function oneEditAway(term: string): string[] {
  const s = [...term];
  const letters = [...new Set([...LETTERS, ...s])];
  const out = new Set<string>();
  const join = (parts: string[]) => parts.join('');
  for (let i = 0; i <= s.length; i++) {
    if (i < s.length) out.add(join([...s.slice(0, i), ...s.slice(i + 1)]));
    if (i < s.length - 1) out.add(join([...s.slice(0, i), s[i + 1], s[i], ...s.slice(i + 2)]));
    for (const c of letters) {
      if (i < s.length) out.add(join([...s.slice(0, i), c, ...s.slice(i + 1)]));
      out.add(join([...s.slice(0, i), c, ...s.slice(i)]));
    }
  }
  out.delete(term);
  return [...out];
}

/** The candidate `term` most likely meant, within its allowed edits: fewest edits, then most products, then A–Z. */
export function closestWord(term: string, candidates: readonly Candidate[]): string | null {
  const max = allowedEdits(term);
  let best: (Candidate & { distance: number }) | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(term, candidate.word, max);
    if (distance > max || candidate.word === term) continue;
    if (
      !best ||
      distance < best.distance ||
      (distance === best.distance &&
        (candidate.productCount > best.productCount || (candidate.productCount === best.productCount && candidate.word < best.word)))
    ) {
      best = { ...candidate, distance };
    }
  }
  return best?.word ?? null;
}
