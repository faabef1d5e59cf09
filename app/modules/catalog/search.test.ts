import { describe, expect, it } from 'vitest';
import { productListQuerySchema } from './catalog.schema';
import { normalizeSearchText, searchTerms } from './search';

describe('normalizeSearchText', () => {
  it('lower-cases, removes accents and collapses whitespace', () => {
    expect(normalizeSearchText('  Czekoladę \t i  KARMEL\n')).toBe('czekolade i karmel');
    expect(normalizeSearchText('Łódź, Żółć, Straße, Ærø, Œuvre, Đakovo')).toBe('lodz, zolc, strasse, aero, oeuvre, dakovo');
    expect(normalizeSearchText('Café crème brûlée')).toBe('cafe creme brulee');
    expect(normalizeSearchText('cze\u00ADko\u200Dlada\u0000kawa')).toBe('czekolada kawa');
  });
});

describe('searchTerms', () => {
  it('splits into normalised, distinct words, at most 8', () => {
    expect(searchTerms('  Gorzka   CZEKOLADA gorzka ')).toEqual(['gorzka', 'czekolada']);
    expect(searchTerms('')).toEqual([]);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe('productListQuerySchema', () => {
  const parse = (query: string) => productListQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));

  it('reads q, category and page', () => {
    expect(parse('q=%20kawa%20&category=groundCoffee&page=3')).toEqual({ q: 'kawa', category: 'groundCoffee', page: 3 });
  });

  it('reads the order; "newest" and anything unknown mean the default', () => {
    expect(parse('sort=price-asc').sort).toBe('price-asc');
    expect(parse('sort=rating').sort).toBe('rating');
    expect(parse('sort=newest').sort).toBeUndefined();
    expect(parse('sort=price').sort).toBeUndefined();
    expect(parse('sort=1&sort=2').sort).toBeUndefined();
  });

  it('falls back instead of failing', () => {
    expect(parse('')).toEqual({ q: undefined, category: undefined, sort: undefined, page: 1 });
    expect(parse('q=%20%20&category=tea&page=abc')).toEqual({ q: undefined, category: undefined, sort: undefined, page: 1 });
    expect(parse('page=0').page).toBe(1);
    expect(parse('page=2.5').page).toBe(1);
    expect(parse('page=51').page).toBe(1);
    expect(parse('page=50').page).toBe(50);
    expect(parse(`q=${'x'.repeat(150)}`).q).toHaveLength(100);
  });
});
