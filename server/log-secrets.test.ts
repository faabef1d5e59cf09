/** The request log keeps no guest order key: not in the query, not inside an encoded `redirectTo`. */
import { describe, expect, it } from 'vitest';
import { withoutSecrets } from './app';

describe('the request log', () => {
  it('replaces order keys and keeps the rest of the URL', () => {
    expect(withoutSecrets('/order/abc?key=Q1w2E3r4T5y6U7i8O9p0aZ')).toBe('/order/abc?key=…');
    expect(withoutSecrets('/withdraw?order=abc&key=Q1w2E3r4T5y6U7i8O9p0aZ&x=1')).toBe('/withdraw?order=abc&key=…&x=1');
    expect(withoutSecrets('/auth?mode=login&redirectTo=%2Forder%2Fabc%3Fkey%3DQ1w2E3r4T5y6U7i8O9p0aZ')).toBe('/auth?mode=login&redirectTo=%2Forder%2Fabc%3Fkey%3D…');
    expect(withoutSecrets('/?q=monkey=1')).toBe('/?q=monkey=1');
    expect(withoutSecrets('/product/x?keyword=a')).toBe('/product/x?keyword=a');
  });
});
