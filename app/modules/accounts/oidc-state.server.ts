import { createHmac, timingSafeEqual } from 'node:crypto';
import { readCookie } from './secrets.server';

/**
 * What the browser carries from "Continue with Google" to the callback: state, nonce and PKCE verifier,
 * where to go afterwards and whether it runs in a popup. Signed (HMAC-SHA256 with SESSION_SECRET), valid for
 * 10 minutes, in an httpOnly cookie. It is not encrypted: none of it is useful without the provider's code,
 * which only the provider's redirect to this browser delivers.
 */
export const OIDC_COOKIE = 'kopi_oidc';
const TTL_MS = 10 * 60_000;

export type OidcState = { state: string; nonce: string; codeVerifier: string; redirectTo: string; popup: boolean };

export function sealOidcState(secret: string, value: OidcState, now = new Date()): string {
  if (!secret) throw new Error('A session secret is required to sign the sign-in state');
  const body = Buffer.from(
    JSON.stringify({
      s: value.state,
      n: value.nonce,
      v: value.codeVerifier,
      r: value.redirectTo,
      p: value.popup,
      e: now.getTime() + TTL_MS,
    }),
  ).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

/** The state, or null when the value is malformed, forged, tampered with or older than 10 minutes. */
export function openOidcState(secret: string, value: string | null | undefined, now = new Date()): OidcState | null {
  if (!secret || typeof value !== 'string' || value.length > 4096) return null;
  const dot = value.indexOf('.');
  if (dot <= 0) return null;
  const body = value.slice(0, dot);
  // Compared as text: base64url decoding is lenient, so two spellings could decode to the same bytes.
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(sign(secret, body));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const d = data as Record<string, unknown>;
  if (
    typeof d?.s !== 'string' ||
    typeof d.n !== 'string' ||
    typeof d.v !== 'string' ||
    typeof d.r !== 'string' ||
    typeof d.p !== 'boolean' ||
    typeof d.e !== 'number' ||
    d.e <= now.getTime()
  ) {
    return null;
  }
  return { state: d.s, nonce: d.n, codeVerifier: d.v, redirectTo: d.r, popup: d.p };
}

/** The sealed state from the request's cookie (still to be opened with `openOidcState`). */
export const readOidcStateCookie = (request: Request): string | null => readCookie(request, OIDC_COOKIE);

const attributes = (secure: boolean) => `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** SameSite=Lax: the provider's redirect back is a top-level GET, which carries Lax cookies. */
export function oidcStateCookie(value: string, secure: boolean): string {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value)) throw new Error('Invalid sign-in state');
  return `${OIDC_COOKIE}=${value}; Max-Age=${TTL_MS / 1000}; ${attributes(secure)}`;
}

export function clearOidcStateCookie(secure: boolean): string {
  return `${OIDC_COOKIE}=; Max-Age=0; ${attributes(secure)}`;
}

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(`kopi-oidc-state.${body}`).digest('base64url');
