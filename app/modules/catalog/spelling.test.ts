import { describe, expect, it } from 'vitest';
import { searchWords } from './search';
import { allowedEdits, closestWord, editDistance, oneEditAway } from './spelling';

describe('editDistance', () => {
  it('counts wrong, missing, extra and swapped letters as one edit each', () => {
    expect(editDistance('mandheling', 'mandheling', 2)).toBe(0);
    expect(editDistance('mandeling', 'mandheling', 2)).toBe(1);
    expect(editDistance('mandhelling', 'mandheling', 2)).toBe(1);
    expect(editDistance('mandhelimg', 'mandheling', 2)).toBe(1);
    expect(editDistance('mandhelnig', 'mandheling', 2)).toBe(1);
    expect(editDistance('czekloada', 'czekolada', 2)).toBe(1);
    expect(editDistance('mnadhelnig', 'mandheling', 2)).toBe(2);
  });

  it('stops counting past the limit', () => {
    expect(editDistance('mnadhelnih', 'mandheling', 2)).toBe(3);
    expect(editDistance('kawa', 'mandheling', 2)).toBe(3);
    expect(editDistance('java', 'kawa', 0)).toBe(1);
  });

  it('counts letters, not UTF-16 units', () => {
    expect(editDistance('☕kawa', 'kawa', 2)).toBe(1);
  });
});

describe('allowedEdits', () => {
  it('is one up to four letters and two beyond', () => {
    expect(['kwa', 'jvaa', 'sumtra'].map(allowedEdits)).toEqual([1, 1, 2]);
  });
});

describe('oneEditAway', () => {
  it('lists every string one edit away, and not the term itself', () => {
    const near = oneEditAway('jvaa');
    expect(near).toEqual(expect.arrayContaining(['java', 'jva', 'jvab', 'kvaa', 'jvaaa']));
    expect(near).not.toContain('jvaa');
    expect(near.every((word) => editDistance(word, 'jvaa', 1) === 1)).toBe(true);
  });
});

describe('closestWord', () => {
  const words = (...list: Array<[string, number]>) => list.map(([word, productCount]) => ({ word, productCount }));

  it('takes the fewest edits, then the most products, then A–Z', () => {
    expect(closestWord('mandeling', words(['mandailing', 40], ['mandheling', 2]))).toBe('mandheling');
    expect(closestWord('jaxa', words(['java', 3], ['jawa', 9]))).toBe('jawa');
    expect(closestWord('jaxa', words(['jawa', 3], ['java', 3]))).toBe('java');
  });

  it('keeps within the allowed edits', () => {
    expect(closestWord('mnadhelnih', words(['mandheling', 5]))).toBeNull();
    expect(closestWord('jxxa', words(['java', 5]))).toBeNull();
    expect(closestWord('sumtra', [])).toBeNull();
  });
});

describe('searchWords', () => {
  it('splits on anything not a letter or digit, keeps words of 2+ characters with a letter, each once', () => {
    expect(searchWords('sumatra no. 12 (ziarno, 250 g) v60 sumatra-gayo ☕ a')).toEqual(['sumatra', 'no', 'ziarno', 'v60', 'gayo']);
    expect(searchWords('')).toEqual([]);
  });
});
