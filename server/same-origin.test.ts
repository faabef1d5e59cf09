import { describe, expect, it } from 'vitest';
import { isCrossSiteWrite } from './same-origin';

const shop = 'https://shop.example';
describe('isCrossSiteWrite', () => {
  it('allows reads and same-origin writes', () => {
    expect(isCrossSiteWrite('GET', 'https://evil.example', 'cross-site', shop, shop)).toBe(false);
    expect(isCrossSiteWrite('POST', shop, 'same-origin', shop, shop)).toBe(false);
    expect(isCrossSiteWrite('POST', 'http://127.0.0.1:3100', undefined, shop, 'http://127.0.0.1:3100')).toBe(false);
    expect(isCrossSiteWrite('POST', undefined, undefined, shop, shop)).toBe(false);
  });
  it('refuses writes from other sites', () => {
    expect(isCrossSiteWrite('POST', 'https://evil.example', 'cross-site', shop, shop)).toBe(true);
    expect(isCrossSiteWrite('POST', 'null', undefined, shop, shop)).toBe(true);
    expect(isCrossSiteWrite('DELETE', undefined, 'cross-site', shop, shop)).toBe(true);
  });
  it('lets signed webhooks through', () => {
    expect(isCrossSiteWrite('POST', undefined, 'cross-site', shop, shop, '/webhooks/stripe')).toBe(false);
  });
});
