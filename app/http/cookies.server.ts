import { type Cookie, type CookieSerializeOptions, createCookie } from 'react-router';
import type { Config } from '~/config/env.server';

/**
 * Every cookie Kopi sets, in one place, made with React Router's `createCookie`. The server's cookies are
 * httpOnly and signed with SESSION_SECRET; older secrets in SESSION_SECRET_PREVIOUS still verify, so the
 * secret can be rotated without signing everyone out. `kopi_event` is the exception: the browser reads it
 * (the analytics hand-off, app/lib/analytics.ts) and the server never trusts it, so it is neither.
 */
export type KopiCookies = {
  /** The session token (30 days from last use; the database keeps only its hash). */
  session: Cookie;
  /** A guest's cart id (90 days). */
  cart: Cookie;
  /** The chosen language (a year); it only suggests, the URL decides. */
  language: Cookie;
  /** State, nonce and PKCE verifier between "Continue with Google" and the provider's redirect back (10 min). */
  oidcState: Cookie;
  /** An event the server completed, for the browser to track with consent (2 min). */
  event: Cookie;
};
export type CookieName = keyof KopiCookies;

const DAY = 24 * 60 * 60;

export const sessionCookieName = (secure: boolean) => (secure ? '__Host-kopi_session' : 'kopi_session');

export function createKopiCookies(config: Pick<Config, 'sessionSecrets' | 'secureCookies'>): KopiCookies {
  const signed = { path: '/', sameSite: 'lax', httpOnly: true, secure: config.secureCookies, secrets: config.sessionSecrets } as const;
  return {
    // Under https the browser keeps a `__Host-` cookie only if it is Secure, for this host alone and for every
    // path: no sibling subdomain and no plain-http page can plant or overwrite the session.
    session: createCookie(sessionCookieName(config.secureCookies), { ...signed, maxAge: 30 * DAY }),
    cart: createCookie('kopi_cart', { ...signed, maxAge: 90 * DAY }),
    language: createCookie('lang', { ...signed, maxAge: 365 * DAY }),
    oidcState: createCookie('kopi_oidc', { ...signed, maxAge: 10 * 60 }),
    event: createCookie('kopi_event', { path: '/', sameSite: 'lax', secure: config.secureCookies, maxAge: 120 }),
  };
}

/**
 * The cookies one response sets. Routes and middleware say what changes (`set`, `clear`); the shopper
 * middleware writes them onto whatever response the request ends with, redirects and errors included. The
 * last change of a cookie wins.
 */
export class CookieJar {
  readonly #cookies: KopiCookies;
  readonly #changes = new Map<CookieName, { value: unknown; options?: CookieSerializeOptions }>();

  constructor(cookies: KopiCookies) {
    this.#cookies = cookies;
  }

  set(name: CookieName, value: unknown, options?: CookieSerializeOptions): void {
    this.#changes.set(name, { value, options });
  }

  clear(name: CookieName): void {
    this.#changes.set(name, { value: '', options: { maxAge: 0 } });
  }

  /** Whether this response sets (or clears) the cookie. */
  changes(name: CookieName): boolean {
    return this.#changes.has(name);
  }

  async writeTo(headers: Headers): Promise<void> {
    for (const [name, { value, options }] of this.#changes) {
      headers.append('Set-Cookie', await this.#cookies[name].serialize(value, options));
    }
  }
}

/** A cookie's value when it is present, correctly signed and of the expected shape; null otherwise. */
export async function readCookie<T>(cookie: Cookie, header: string | null, isValid: (value: unknown) => value is T): Promise<T | null> {
  if (!header || !header.includes(`${cookie.name}=`)) return null;
  try {
    const value: unknown = await cookie.parse(header);
    return isValid(value) ? value : null;
  } catch {
    // A value that is not the base64 JSON createCookie writes: as good as absent.
    return null;
  }
}
