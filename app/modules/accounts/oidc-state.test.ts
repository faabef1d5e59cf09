import { describe, expect, it } from 'vitest';
import { createKopiCookies } from '~/http/cookies.server';
import { OIDC_STATE_TTL_MS, isOidcState, newOidcState } from './index.server';

const secret = 'a-session-secret-of-at-least-32-characters';
const value = { state: 'st', nonce: 'no', codeVerifier: 'cv'.repeat(22), redirectTo: '/checkout?step=review', popup: true };
const { oidcState: cookie } = createKopiCookies({ sessionSecrets: [secret], secureCookies: true });
const header = (setCookie: string) => setCookie.split(';')[0];

describe('the OpenID Connect state cookie', () => {
  it('round-trips the state, and the state expires after 10 minutes', async () => {
    const at = new Date('2030-01-01T00:00:00Z');
    const state = newOidcState(value, at);
    const parsed: unknown = await cookie.parse(header(await cookie.serialize(state)));
    expect(parsed).toEqual(state);
    expect(isOidcState(parsed, new Date(at.getTime() + OIDC_STATE_TTL_MS - 1))).toBe(true);
    expect(isOidcState(parsed, new Date(at.getTime() + OIDC_STATE_TTL_MS))).toBe(false);
  });

  it('refuses a tampered value, another secret, and junk', async () => {
    const set = header(await cookie.serialize(newOidcState(value)));
    const [name, signed] = set.split('=');
    const [body, signature] = decodeURIComponent(signed).split('.');
    const forged = Buffer.from(JSON.stringify({ ...newOidcState(value), redirectTo: 'https://evil.example' })).toString('base64');
    expect(await cookie.parse(`${name}=${encodeURIComponent(`${forged}.${signature}`)}`)).toBeNull();
    // One character of the signature changed (to another one: a signature that starts with "x" happened once in 64 runs).
    expect(await cookie.parse(`${name}=${encodeURIComponent(`${body}.${signature.startsWith('x') ? 'y' : 'x'}${signature.slice(1)}`)}`)).toBeNull();
    const other = createKopiCookies({ sessionSecrets: ['another-secret-of-at-least-32-characters'], secureCookies: true }).oidcState;
    expect(await other.parse(set)).toBeNull();
    for (const junk of [null, {}, 'x', { ...value }, { ...value, expiresAt: 'soon' }]) expect(isOidcState(junk)).toBe(false);
  });

  it('is httpOnly, SameSite=Lax, Secure behind https, and lives 10 minutes', async () => {
    const set = await cookie.serialize(newOidcState(value));
    expect(set).toMatch(/^kopi_oidc=/);
    expect(set).toContain('Max-Age=600');
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Lax');
    expect(set).toContain('Secure');
  });
});
