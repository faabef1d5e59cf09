import { describe, expect, it } from 'vitest';
import { counterpartPath, localeOfPath, localePath, seoLinks, splitLocale } from './paths';

describe('URL ↔ language', () => {
  it('reads the language from the path', () => {
    expect(splitLocale('/pl')).toEqual({ locale: 'pl', path: '/' });
    expect(splitLocale('/pl/')).toEqual({ locale: 'pl', path: '/' });
    expect(splitLocale('/pl/product/abc')).toEqual({ locale: 'pl', path: '/product/abc' });
    expect(splitLocale('/pl.data')).toEqual({ locale: 'pl', path: '/_root.data' });
    expect(splitLocale('/plum')).toEqual({ locale: 'en', path: '/plum' });
    expect(splitLocale('/product/pl')).toEqual({ locale: 'en', path: '/product/pl' });
  });

  it('leaves the language of single-URL pages to the cookie', () => {
    expect(localeOfPath('/')).toBe('en');
    expect(localeOfPath('/cart')).toBe('en');
    expect(localeOfPath('/pl/cart')).toBe('pl');
    expect(localeOfPath('/no-such-page')).toBe('en');
    for (const path of ['/admin', '/admin/orders/x', '/add-product', '/edit-product/x', '/language', '/api/events', '/auth/google', '/auth/google/callback']) {
      expect(localeOfPath(path), path).toBeNull();
    }
    expect(localeOfPath('/auth')).toBe('en');
    expect(localeOfPath('/auth/reset')).toBe('en');
  });

  it('spells a path in a language, keeping query and fragment', () => {
    expect(localePath('pl', '/')).toBe('/pl');
    expect(localePath('pl', '/cart')).toBe('/pl/cart');
    expect(localePath('pl', '/?q=gayo#shop')).toBe('/pl?q=gayo#shop');
    expect(localePath('pl', '/#shop')).toBe('/pl#shop');
    expect(localePath('pl', '/categories?category=wholeBean')).toBe('/pl/categories?category=wholeBean');
    expect(localePath('pl', '/admin/orders')).toBe('/admin/orders');
    expect(localePath('pl', 'https://example.com/x')).toBe('https://example.com/x');
    expect(localePath('en', '/cart')).toBe('/cart');
  });

  it('finds the same page in the other language', () => {
    expect(counterpartPath('/product/x?image=2', 'pl')).toBe('/pl/product/x?image=2');
    expect(counterpartPath('/pl/product/x?image=2', 'en')).toBe('/product/x?image=2');
    expect(counterpartPath('/pl?q=a', 'en')).toBe('/?q=a');
    expect(counterpartPath('/pl', 'pl')).toBe('/pl');
    expect(counterpartPath('/admin', 'pl')).toBe('/admin');
  });
});

describe('canonical and hreflang', () => {
  const site = 'https://kopi.example';
  it('names both languages and English as the default', () => {
    expect(seoLinks(site, '/pl/product/x', '?image=2&utm_source=a')).toEqual([
      { rel: 'canonical', href: `${site}/pl/product/x` },
      { rel: 'alternate', hrefLang: 'en', href: `${site}/product/x` },
      { rel: 'alternate', hrefLang: 'pl', href: `${site}/pl/product/x` },
      { rel: 'alternate', hrefLang: 'x-default', href: `${site}/product/x` },
    ]);
    expect(seoLinks(site, '/', '')[0]).toEqual({ rel: 'canonical', href: `${site}/` });
    expect(seoLinks(site, '/pl/', '')[0]).toEqual({ rel: 'canonical', href: `${site}/pl` });
  });

  it('keeps the category of a listing and drops views of one page', () => {
    expect(seoLinks(site, '/categories', '?category=capsulesAndPods&page=2')[0].href).toBe(`${site}/categories?category=capsulesAndPods`);
    expect(seoLinks(site, '/pl/categories', '?category=capsulesAndPods')[2].href).toBe(`${site}/pl/categories?category=capsulesAndPods`);
  });

  it('gives single-URL pages a canonical link only', () => {
    expect(seoLinks(site, '/admin/orders', '?page=2')).toEqual([{ rel: 'canonical', href: `${site}/admin/orders` }]);
  });
});
