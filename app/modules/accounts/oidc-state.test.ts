import { describe, expect, it } from 'vitest';
import {
  OIDC_COOKIE,
  clearOidcStateCookie,
  oidcStateCookie,
  openOidcState,
  readOidcStateCookie,
  sealOidcState,
} from './index.server';

const secret = 'a-session-secret-of-at-least-32-characters';
const value = { state: 'st', nonce: 'no', codeVerifier: 'cv'.repeat(22), redirectTo: '/checkout?step=review', popup: true };

describe('sealed OpenID Connect state', () => {
  it('opens what it sealed', () => {
    expect(openOidcState(secret, sealOidcState(secret, value))).toEqual(value);
    expect(openOidcState(secret, sealOidcState(secret, { ...value, popup: false }))).toEqual({ ...value, popup: false });
  });

  it('refuses a tampered body or signature, another secret, and garbage', () => {
    const sealed = sealOidcState(secret, value);
    const [body, signature] = sealed.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), r: 'https://evil.example' })).toString('base64url');
    expect(openOidcState(secret, `${forgedBody}.${signature}`)).toBeNull();
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    expect(openOidcState(secret, `${body}.${flip(signature[0])}${signature.slice(1)}`)).toBeNull();
    expect(openOidcState(secret, `${body}.${signature.slice(0, -1)}${flip(signature.at(-1)!)}`)).toBeNull();
    expect(openOidcState(secret, `${body}.`)).toBeNull();
    expect(openOidcState('another-secret-of-at-least-32-characters', sealed)).toBeNull();
    for (const junk of ['', '.', 'abc', 'a.b.c', null, undefined]) expect(openOidcState(secret, junk)).toBeNull();
  });

  it('expires after 10 minutes', () => {
    const at = new Date('2030-01-01T00:00:00Z');
    const sealed = sealOidcState(secret, value, at);
    expect(openOidcState(secret, sealed, new Date(at.getTime() + 9 * 60_000))).toEqual(value);
    expect(openOidcState(secret, sealed, new Date(at.getTime() + 10 * 60_000))).toBeNull();
  });

  it('travels in an httpOnly, SameSite=Lax cookie that lives 10 minutes', () => {
    const sealed = sealOidcState(secret, value);
    expect(oidcStateCookie(sealed, true)).toBe(`${OIDC_COOKIE}=${sealed}; Max-Age=600; Path=/; HttpOnly; SameSite=Lax; Secure`);
    expect(oidcStateCookie(sealed, false)).not.toContain('Secure');
    expect(clearOidcStateCookie(false)).toBe(`${OIDC_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`);
    expect(readOidcStateCookie(new Request('http://localhost/', { headers: { cookie: `a=b; ${OIDC_COOKIE}=${sealed}` } }))).toBe(sealed);
    expect(() => oidcStateCookie('x; Domain=evil', false)).toThrow();
  });
});
