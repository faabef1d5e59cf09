import { createHmac } from 'node:crypto';
import { createCookie } from 'react-router';
import { describe, expect, it } from 'vitest';
import { cookieValue, createKopiCookies, readCookie } from './cookies.server';

const secret = 'a-session-secret-of-at-least-32-characters';
const previous = 'the-previous-secret-of-at-least-32-chars';
const cookies = createKopiCookies({ sessionSecrets: [secret, previous], secureCookies: false });
const isString = (value: unknown): value is string => typeof value === 'string';
const pair = (setCookie: string) => setCookie.split(';')[0];

describe('reading a signed cookie', () => {
  it('reads what React Router signed, with the current secret or a previous one, among other cookies', async () => {
    const token = 'x'.repeat(43);
    const now = pair(await cookies.session.serialize(token));
    const before = pair(await createCookie('kopi_session', { secrets: [previous] }).serialize(token));
    for (const signed of [now, before]) expect(await readCookie(cookies.session, `lang=x; ${signed}; theme=dark`, isString)).toBe(token);
    // Non-Latin text survives (base64 of UTF-8 JSON), and the language cookie is read the same way.
    const polish = pair(await cookies.language.serialize('zażółć'));
    expect(await readCookie(cookies.language, polish, isString)).toBe('zażółć');
    // The first of two cookies of one name counts, as React Router reads it.
    const other = pair(await cookies.session.serialize('y'.repeat(43)));
    expect(await readCookie(cookies.session, `${now}; ${other}`, isString)).toBe(token);
  });

  it('refuses a tampered value, an unknown secret, a truncated signature, junk and the wrong shape', async () => {
    const set = pair(await cookies.cart.serialize('cart-id-of-the-shopper'));
    const [name, value] = set.split('=');
    const [body, signature] = decodeURIComponent(value).split('.');
    const forged = Buffer.from(JSON.stringify('somebody-elses-cart-id')).toString('base64');
    const forgedSignature = createHmac('sha256', 'a-guessed-secret-that-nobody-uses-here').update(forged).digest('base64');
    const stranger = pair(await createCookie('kopi_cart', { secrets: ['another-secret-of-at-least-32-characters'] }).serialize('cart-id-of-the-shopper'));
    for (const header of [
      `${name}=${encodeURIComponent(`${forged}.${signature}`)}`,
      `${name}=${encodeURIComponent(`${forged}.${forgedSignature}`)}`,
      `${name}=${encodeURIComponent(`${body}.${signature.slice(0, 20)}`)}`,
      `${name}=${encodeURIComponent(`${body}.x${signature.slice(1)}`)}`,
      stranger,
      `${name}=${body}`,
      `${name}=%E0%A4%A`,
      `${name}=.`,
      `${name}=`,
      `not_${name}=${value}`,
    ]) {
      expect(await readCookie(cookies.cart, header, isString), header).toBeNull();
    }
    expect(await readCookie(cookies.cart, set, (v): v is number => typeof v === 'number')).toBeNull();
    expect(await readCookie(cookies.cart, null, isString)).toBeNull();
  });

  it('finds a cookie by its exact name, URI-decoded, and gives nothing for a value that does not decode', () => {
    expect(cookieValue('not_kopi_cart=a; kopi_cart=b%2Bc; kopi_cart=d', 'kopi_cart')).toBe('b+c');
    expect(cookieValue('kopi_cart="quoted"', 'kopi_cart')).toBe('quoted');
    expect(cookieValue('kopi_cart=%ff', 'kopi_cart')).toBeNull();
    expect(cookieValue('kopi_cartx=a', 'kopi_cart')).toBeNull();
  });
});
