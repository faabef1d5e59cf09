import { describe, expect, it } from 'vitest';
import { PageCache, isCacheableRequest, withTokens } from '~/http/page-cache.server';

describe('page cache', () => {
  it('caches only cookie-less page GETs', () => {
    expect(isCacheableRequest('GET', '/', undefined)).toBe(true);
    expect(isCacheableRequest('GET', '/product/abc', '_ga=1')).toBe(true);
    expect(isCacheableRequest('GET', '/', 'kopi_cart=abc')).toBe(false);
    // The URL names the language; the cookie only suggests it (and sets the back office's).
    expect(isCacheableRequest('GET', '/pl/product/abc', 'x=1; lang=pl')).toBe(true);
    expect(isCacheableRequest('GET', '/', 'kopi_session=s')).toBe(false);
    expect(isCacheableRequest('POST', '/cart', undefined)).toBe(false);
    expect(isCacheableRequest('GET', '/api/events', undefined)).toBe(false);
    expect(isCacheableRequest('GET', '/product/abc.data', undefined)).toBe(false);
  });

  it('drops entries when the catalogue changes or they expire', () => {
    let version = 1;
    const cache = new PageCache(() => version, 10, 1000);
    cache.set('/', { status: 200, headers: [], body: 'a', tokens: { nonce: 'n', formKey: 'f' } }, 1, 0);
    expect(cache.get('/', 10)?.chunks.join('')).toBe('a');
    expect(cache.get('/', 2000)).toBeUndefined();
    cache.set('/', { status: 200, headers: [], body: 'a', tokens: { nonce: 'n', formKey: 'f' } }, 1, 0);
    version = 2;
    expect(cache.get('/', 10)).toBeUndefined();
    cache.set('/', { status: 200, headers: [], body: 'b', tokens: { nonce: 'n', formKey: 'f' } }, 1, 0);
    expect(cache.get('/', 10)).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const cache = new PageCache(() => 1, 2);
    for (const key of ['a', 'b', 'c']) cache.set(key, { status: 200, headers: [], body: key, tokens: { nonce: '', formKey: '' } }, 1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.chunks.join('')).toBe('c');
  });

  it('gives every response its own nonce and form key', () => {
    const cache = new PageCache(() => 1);
    const body = '<script nonce="N+1/"></script><input value="K_1"><script nonce="N+1/"><input value="K_1">';
    cache.set('/', { status: 200, headers: [], body, tokens: { nonce: 'N+1/', formKey: 'K_1' } }, 1);
    expect(withTokens(cache.get('/')!, { nonce: 'N2', formKey: 'K2' }).toString()).toBe(
      '<script nonce="N2"></script><input value="K2"><script nonce="N2"><input value="K2">',
    );
    expect(withTokens(cache.get('/')!, { nonce: 'N3', formKey: 'K3' }).toString()).toBe(
      '<script nonce="N3"></script><input value="K3"><script nonce="N3"><input value="K3">',
    );
  });
});
