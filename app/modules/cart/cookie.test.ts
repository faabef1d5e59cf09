import { describe, expect, it } from 'vitest';
import { CART_COOKIE, cartCookie, clearCartCookie, readCartId } from './cookie.server';

const request = (cookie?: string) => new Request('http://shop.test/', { headers: cookie ? { cookie } : {} });

describe('cart cookie', () => {
  it('reads a well-formed cart id', () => {
    expect(CART_COOKIE).toBe('kopi_cart');
    expect(readCartId(request('lang=pl; kopi_cart=AbC_-0123456789xyzABC; other=1'))).toBe('AbC_-0123456789xyzABC');
  });

  it('ignores missing and malformed ids', () => {
    expect(readCartId(request())).toBeNull();
    expect(readCartId(request('lang=pl'))).toBeNull();
    expect(readCartId(request('kopi_cart=short'))).toBeNull();
    expect(readCartId(request(`kopi_cart=${'a'.repeat(65)}`))).toBeNull();
    expect(readCartId(request('kopi_cart=abc%27%20or%201%3D1%20--aaaa'))).toBeNull();
    expect(readCartId(request('xkopi_cart=AbC_-0123456789xyzABC'))).toBeNull();
  });

  it('writes an HttpOnly, Lax cookie for 90 days', () => {
    expect(cartCookie('AbC_-0123456789xyzABC', false)).toBe(
      'kopi_cart=AbC_-0123456789xyzABC; Path=/; Max-Age=7776000; HttpOnly; SameSite=Lax',
    );
    expect(cartCookie('AbC_-0123456789xyzABC', true)).toMatch(/; Secure$/);
    expect(() => cartCookie('bad id;', false)).toThrow();
    expect(clearCartCookie(true)).toBe('kopi_cart=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
  });
});
