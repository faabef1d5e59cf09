import { describe, expect, it } from 'vitest';
import { createT, mergeBundles } from './translate';

const pl = { cart: { items_one: '{{count}} produkt', items_few: '{{count}} produkty', items_many: '{{count}} produktów', items_other: '{{count}} produktu' }, hi: 'Cześć, {{name}}' };
const en = { cart: { items_one: '{{count}} item', items_other: '{{count}} items' }, onlyEn: 'English only' };

describe('createT', () => {
  it('chooses Polish plural forms', () => {
    const t = createT('pl', pl, en);
    expect(t('cart.items', { count: 1 })).toBe('1 produkt');
    expect(t('cart.items', { count: 2 })).toBe('2 produkty');
    expect(t('cart.items', { count: 5 })).toBe('5 produktów');
    expect(t('cart.items', { count: 22 })).toBe('22 produkty');
    expect(t('cart.items', { count: 1.5 })).toBe('1,5 produktu');
  });
  it('chooses English plural forms and interpolates', () => {
    const t = createT('en', en);
    expect(t('cart.items', { count: 1 })).toBe('1 item');
    expect(t('cart.items', { count: 3 })).toBe('3 items');
    expect(createT('pl', pl)('hi', { name: 'Ola' })).toBe('Cześć, Ola');
  });
  it('falls back to the fallback catalogue, then to the key', () => {
    expect(createT('pl', pl, en)('onlyEn')).toBe('English only');
    expect(createT('pl', pl)('missing.key')).toBe('missing.key');
  });
});

describe('mergeBundles', () => {
  it('puts common at the root and other namespaces under their name', () => {
    const tree = mergeBundles([{ common: { nav: { home: 'Home' }, product: { added: 'Added' } } }, { product: { details: { origin: 'Origin' } } }]);
    expect(createT('en', tree)('nav.home')).toBe('Home');
    expect(createT('en', tree)('product.added')).toBe('Added');
    expect(createT('en', tree)('product.details.origin')).toBe('Origin');
  });
});
