import { describe, expect, it } from 'vitest';
import { PageCache, isCacheableRequest, withNonce } from './page-cache';

describe('page cache', () => {
  it('caches only cookie-less page GETs', () => {
    expect(isCacheableRequest('GET', '/', undefined)).toBe(true);
    expect(isCacheableRequest('GET', '/product/abc', '_ga=1')).toBe(true);
    expect(isCacheableRequest('GET', '/', 'kopi_cart=abc')).toBe(false);
    expect(isCacheableRequest('GET', '/', 'x=1; lang=pl')).toBe(false);
    expect(isCacheableRequest('GET', '/', 'kopi_session=s')).toBe(false);
    expect(isCacheableRequest('POST', '/cart', undefined)).toBe(false);
    expect(isCacheableRequest('GET', '/api/events', undefined)).toBe(false);
    expect(isCacheableRequest('GET', '/product/abc.data', undefined)).toBe(false);
  });

  it('drops entries when the catalogue changes or they expire', () => {
    let version = 1;
    const cache = new PageCache(() => version, 10, 1000);
    cache.set('/', { status: 200, headers: [], body: 'a', nonce: 'n' }, 1, 0);
    expect(cache.get('/', 10)?.chunks.join('')).toBe('a');
    expect(cache.get('/', 2000)).toBeUndefined();
    cache.set('/', { status: 200, headers: [], body: 'a', nonce: 'n' }, 1, 0);
    version = 2;
    expect(cache.get('/', 10)).toBeUndefined();
    cache.set('/', { status: 200, headers: [], body: 'b', nonce: 'n' }, 1, 0);
    expect(cache.get('/', 10)).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const cache = new PageCache(() => 1, 2);
    for (const key of ['a', 'b', 'c']) cache.set(key, { status: 200, headers: [], body: key, nonce: '' }, 1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.chunks.join('')).toBe('c');
  });

  it('gives every response its own nonce', () => {
    const cache = new PageCache(() => 1);
    cache.set('/', { status: 200, headers: [], body: '<script nonce="N1"></script><script nonce="N1">', nonce: 'N1' }, 1);
    expect(withNonce(cache.get('/')!, 'N2').toString()).toBe('<script nonce="N2"></script><script nonce="N2">');
  });
});
