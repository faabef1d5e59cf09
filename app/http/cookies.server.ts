import { createHmac, timingSafeEqual } from 'node:crypto';
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
  /** The country the shopper asked delivery prices for (a year). */
  country: Cookie;
  /** The currency the shopper chose (a year); without it, the page's language decides. */
  currency: Cookie;
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
  const cookies: KopiCookies = {
    // Under https the browser keeps a `__Host-` cookie only if it is Secure, for this host alone and for every
    // path: no sibling subdomain and no plain-http page can plant or overwrite the session.
    session: createCookie(sessionCookieName(config.secureCookies), { ...signed, maxAge: 30 * DAY }),
    cart: createCookie('kopi_cart', { ...signed, maxAge: 90 * DAY }),
    language: createCookie('lang', { ...signed, maxAge: 365 * DAY }),
    country: createCookie('kopi_country', { ...signed, maxAge: 365 * DAY }),
    currency: createCookie('kopi_currency', { ...signed, maxAge: 365 * DAY }),
    oidcState: createCookie('kopi_oidc', { ...signed, maxAge: 10 * 60 }),
    event: createCookie('kopi_event', { path: '/', sameSite: 'lax', secure: config.secureCookies, maxAge: 120 }),
  };
  for (const cookie of [cookies.session, cookies.cart, cookies.language, cookies.country, cookies.currency, cookies.oidcState]) signingSecrets.set(cookie, config.sessionSecrets);
  return cookies;
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

/**
 * A cookie's value when it is present, correctly signed and of the expected shape; null otherwise.
 *
 * Every request reads up to three signed cookies, so they are verified here with node:crypto's HMAC, in the
 * request's own turn, rather than by `cookie.parse`, which imports the secret into WebCrypto and verifies on
 * the thread pool each time (a few percent of a checkout's server time). The format is React Router's own
 * (`base64(JSON).base64(HMAC-SHA256)`, URI-encoded), which still writes them: a cookie either one signed, with
 * the current secret or a previous one, reads the same.
 */
export async function readCookie<T>(cookie: Cookie, header: string | null, isValid: (value: unknown) => value is T): Promise<T | null> {
  if (!header || !header.includes(`${cookie.name}=`)) return null;
  const secrets = signingSecrets.get(cookie);
  try {
    const raw = secrets?.length ? cookieValue(header, cookie.name) : undefined;
    const value: unknown = raw === undefined ? await cookie.parse(header) : raw ? verifiedValue(raw, secrets!) : null;
    return isValid(value) ? value : null;
  } catch {
    // A value that is not the base64 JSON createCookie writes: as good as absent.
    return null;
  }
}

/** The secrets each signed cookie of `createKopiCookies` was made with, newest first. */
const signingSecrets = new WeakMap<Cookie, readonly string[]>();

/** The first `name=value` pair of a Cookie header, URI-decoded as browsers' cookies are; null when absent or undecodable. */
export function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return value.includes('%') ? decodeURIComponent(value) : value;
    } catch {
      return null;
    }
  }
  return null;
}

/** The JSON a signed value carries when one of `secrets` signed it; null otherwise. */
function verifiedValue(signed: string, secrets: readonly string[]): unknown {
  const dot = signed.lastIndexOf('.');
  if (dot <= 0) return null;
  const data = signed.slice(0, dot);
  const signature = Buffer.from(signed.slice(dot + 1), 'base64');
  if (signature.length !== 32) return null;
  for (const secret of secrets) {
    if (timingSafeEqual(createHmac('sha256', secret).update(data).digest(), signature)) {
      return JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    }
  }
  return null;
}
