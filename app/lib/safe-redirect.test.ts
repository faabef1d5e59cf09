import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('keeps same-site paths with their query and fragment', () => {
    expect(safeRedirect('/product/abc?x=1')).toBe('/product/abc?x=1');
    expect(safeRedirect('/checkout#pay')).toBe('/checkout#pay');
    expect(safeRedirect('/')).toBe('/');
    expect(safeRedirect(null, '/cart')).toBe('/cart');
  });

  it('refuses other origins however they are spelled', () => {
    for (const value of [
      '//evil.example',
      '/\\evil.example',
      '\\/evil.example',
      'https://evil.example',
      'http:evil.example',
      'javascript:alert(1)',
      '/\t/evil.example', // what `/auth?redirectTo=/%09/evil.example` decodes to
      '/\n/evil.example',
      '/\r\n/evil.example',
      '/ /evil.example'.replace(' ', '\u000b'),
      '\t//evil.example',
      ' //evil.example',
      '/%09/evil.example'.replace('%09', '\u0009'),
      '/\\\\evil.example',
      '/\u2028/evil.example',
      'evil.example',
      '',
    ]) {
      expect(safeRedirect(value, '/home'), JSON.stringify(value)).toBe('/home');
    }
  });

  it('keeps encoded look-alikes as harmless paths on the shop', () => {
    // Percent-encoded slashes, tabs and backslashes stay encoded in the Location header: browsers do not
    // decode them into a second slash, so these are paths on the shop, not other hosts.
    expect(safeRedirect('/%2F/evil.example')).toBe('/%2F/evil.example');
    expect(safeRedirect('/%09/evil.example')).toBe('/%09/evil.example');
    expect(safeRedirect('/%5Cevil.example')).toBe('/%5Cevil.example');
  });

  it('never returns a value a header cannot carry', () => {
    expect(safeRedirect('/a\u0000b')).toBe('/');
    expect(safeRedirect('/ąę?q=żółw')).toBe('/%C4%85%C4%99?q=%C5%BC%C3%B3%C5%82w');
    expect(safeRedirect('/\u{1F600}')).toBe('/%F0%9F%98%80');
    expect(safeRedirect(`/${'a'.repeat(3000)}`)).toBe('/');
    for (const value of ['/ok', '/ą', '/a b', '/"x"', '/<x>']) expect(safeRedirect(value)).toMatch(/^[\x21-\x7e]+$/);
  });
});
