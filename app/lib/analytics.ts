import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * First-party analytics in the browser. Nothing is stored or sent until the visitor accepts cookies: the
 * choice lives in localStorage (`cookiesAccepted` = 'true' | 'false', as in the spec, with the banner's version
 * under `cookiesVersion`), and so does the random visitor id, which exists only while consent is given. The
 * server keeps each choice too (/api/consent), as proof of consent. This file ships on every page: keep it tiny.
 */
export const CONSENT_KEY = 'cookiesAccepted';
const VERSION_KEY = 'cookiesVersion';
const VISITOR_KEY = 'kopiVisitor';
const VISITOR_ID = /^[\w-]{16,64}$/;
const ENDPOINT = '/api/events';
const CONSENT_ENDPOINT = '/api/consent';

/**
 * The cookie banner's version, recorded with each choice. Change it when the banner's text or what it asks
 * about changes: every choice made on an older version then counts as none, and the banner asks again.
 */
export const COOKIE_BANNER_VERSION = '2026-11-28.2';
/** What a choice stored before versions were counts as: it was made on this version's text. Never change it. */
const FIRST_BANNER_VERSION = '2026-11-28';

/** localStorage, or null on the server or when the browser refuses it (privacy modes, sandboxed frames). */
function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The stored choice: true (accepted), false (declined) or null (not asked yet, asked on an older banner, or
 * storage unavailable).
 */
export function readConsent(): boolean | null {
  try {
    const s = store();
    const value = s?.getItem(CONSENT_KEY);
    if (!s || (value !== 'true' && value !== 'false')) return null;
    if ((s.getItem(VERSION_KEY) ?? FIRST_BANNER_VERSION) !== COOKIE_BANNER_VERSION) return null;
    return value === 'true';
  } catch {
    return null;
  }
}

/** Saves the banner's answer. Accepting creates the visitor id; declining forgets it. */
export function storeConsent(accepted: boolean): void {
  try {
    const s = store();
    if (!s) return;
    s.setItem(CONSENT_KEY, String(accepted));
    s.setItem(VERSION_KEY, COOKIE_BANNER_VERSION);
    if (accepted) visitorId(s);
    else s.removeItem(VISITOR_KEY);
  } catch {
    // Storage full or blocked: the banner simply asks again next time.
  }
}

function visitorId(s: Storage): string {
  let id = s.getItem(VISITOR_KEY);
  if (!id || !VISITOR_ID.test(id)) {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // getRandomValues works on plain http:// too, unlike crypto.randomUUID.
    id = Array.from(crypto.getRandomValues(new Uint8Array(22)), (b) => alphabet[b & 63]).join('');
    s.setItem(VISITOR_KEY, id);
  }
  return id;
}

/** The visitor id while the visitor consents to analytics, else null (it never exists without consent). */
export function consentedVisitorId(): string | null {
  try {
    const s = store();
    return s && readConsent() === true ? visitorId(s) : null;
  } catch {
    return null;
  }
}

/**
 * The banner's answer: stored here and recorded on the server with the banner's version. An accept goes with
 * the visitor id it creates; a decline or a withdrawal with the id the browser had until then, if any, so the
 * server drops whatever is still sent with it, and the id is forgotten. Never throws.
 */
export function chooseCookies(accepted: boolean): void {
  try {
    const before = store()?.getItem(VISITOR_KEY) ?? null;
    storeConsent(accepted);
    const visitorId = accepted ? consentedVisitorId() : before && VISITOR_ID.test(before) ? before : null;
    recordChoice(accepted, visitorId);
  } catch {
    // The choice still holds in this browser; only its record is missing.
  }
}

/** Sends a choice to the server's record (with the signed-in customer, if any). */
function recordChoice(accepted: boolean, visitorId: string | null): void {
  // Storage refused the choice: nothing will ever be sent, and an accept without an id proves nothing.
  if (accepted && !visitorId) return;
  const body = JSON.stringify({ analytics: accepted, version: COOKIE_BANNER_VERSION, visitorId });
  fetch(CONSENT_ENDPOINT, { method: 'POST', body, headers: { 'content-type': 'application/json' }, keepalive: true }).catch(() => {});
}

/** After signing in or up: the browser's standing choice is recorded again, now for the customer too. */
export function recordChoiceForCustomer(): void {
  try {
    const choice = readConsent();
    if (choice !== null) recordChoice(choice, choice ? consentedVisitorId() : null);
  } catch {
    // Only the record is missing; the choice holds.
  }
}

/**
 * Records an event, only with consent. Never throws and never blocks navigation: a beacon survives the page
 * unloading; where beacons are missing or refused, a keepalive fetch does the same.
 *
 * The cookie banner calls `chooseCookies(choice)` and then `track('cookie_consent', { consent_given: true })`.
 * No event is sent for a decline: without consent, only the decline itself reaches the server (/api/consent).
 */
export function track(name: string, props: Record<string, unknown> = {}): void {
  try {
    const s = store();
    if (!s || readConsent() !== true) return;
    const body = JSON.stringify({ name, props, path: location.pathname.slice(0, 200), visitorId: visitorId(s) });
    if (navigator.sendBeacon?.(ENDPOINT, new Blob([body], { type: 'text/plain' }))) return;
    fetch(ENDPOINT, { method: 'POST', body, headers: { 'content-type': 'text/plain' }, keepalive: true }).catch(() => {});
  } catch {
    // Analytics must never break the page.
  }
}

/** Tracks a page view on the first render and on every path change (spec: "a page view is tracked on each path change"). */
export function usePageViews(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    track('page_view', { page_path: pathname.slice(0, 200) });
  }, [pathname]);
}

/**
 * Events the server completed (a sign-in, a reset request) reach the browser as a short-lived `kopi_event`
 * cookie set with the response; the next render tracks them (with consent) and deletes the cookie.
 */
export function usePendingServerEvent(): void {
  const { key } = useLocation();
  useEffect(() => {
    try {
      const match = /(?:^|;\s*)kopi_event=([^;]+)/.exec(document.cookie);
      if (!match) return;
      document.cookie = 'kopi_event=; Path=/; Max-Age=0; SameSite=Lax';
      // React Router's createCookie writes base64 of the UTF-8 JSON, URI-encoded.
      const bytes = Uint8Array.from(atob(decodeURIComponent(match[1])), (c) => c.charCodeAt(0));
      const { name, props } = JSON.parse(new TextDecoder().decode(bytes)) as { name: string; props?: Record<string, unknown> };
      if (name === 'login' || name === 'sign_up') recordChoiceForCustomer();
      track(name, props);
    } catch {
      // A malformed cookie is simply dropped.
    }
  }, [key]);
}
