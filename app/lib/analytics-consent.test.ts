import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { consentChoiceSchema } from '~/modules/privacy/consent.schema';
import { COOKIE_BANNER_VERSION, CONSENT_KEY, chooseCookies, readConsent, recordChoiceForCustomer, track } from './analytics';

/** A Map-backed localStorage, enough for these tests (Vitest runs them in Node, with no DOM). */
class MemoryStorage {
  map = new Map<string, string>();
  getItem = (key: string) => this.map.get(key) ?? null;
  setItem = (key: string, value: string) => void this.map.set(key, String(value));
  removeItem = (key: string) => void this.map.delete(key);
}

describe('the cookie banner’s choice in the browser', () => {
  let storage: MemoryStorage;
  let posts: Array<{ url: string; init: RequestInit; body: unknown }>;

  beforeEach(() => {
    storage = new MemoryStorage();
    posts = [];
    vi.stubGlobal('window', { localStorage: storage });
    vi.stubGlobal('location', { pathname: '/' });
    vi.stubGlobal('navigator', { sendBeacon: () => true });
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      posts.push({ url, init, body: JSON.parse(init.body as string) });
      return Promise.resolve(new Response(null, { status: 204 }));
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('records an accept on the server with the visitor id it creates and the banner’s version', () => {
    chooseCookies(true);
    expect(readConsent()).toBe(true);
    expect(storage.getItem('cookiesVersion')).toBe(COOKIE_BANNER_VERSION);
    expect(posts).toHaveLength(1);
    expect(posts[0].url).toBe('/api/consent');
    expect(posts[0].init).toMatchObject({ method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' } });
    expect(posts[0].body).toEqual({ analytics: true, version: COOKIE_BANNER_VERSION, visitorId: storage.getItem('kopiVisitor') });
    expect(consentChoiceSchema.safeParse(posts[0].body).success).toBe(true);
  });

  it('records a withdrawal with the id the browser had, then forgets the id; a first decline goes without one', () => {
    chooseCookies(true);
    const id = storage.getItem('kopiVisitor');
    chooseCookies(false);
    expect(posts[1].body).toEqual({ analytics: false, version: COOKIE_BANNER_VERSION, visitorId: id });
    expect(storage.getItem('kopiVisitor')).toBeNull();
    expect(readConsent()).toBe(false);

    chooseCookies(false);
    expect(posts[2].body).toEqual({ analytics: false, version: COOKIE_BANNER_VERSION, visitorId: null });
    for (const { body } of posts) expect(consentChoiceSchema.safeParse(body).success).toBe(true);
  });

  it('records the standing choice again after a sign-in (for the customer), and nothing when there is none', () => {
    recordChoiceForCustomer();
    expect(posts).toEqual([]);
    chooseCookies(true);
    recordChoiceForCustomer();
    expect(posts[1].body).toEqual({ analytics: true, version: COOKIE_BANNER_VERSION, visitorId: storage.getItem('kopiVisitor') });
    chooseCookies(false);
    recordChoiceForCustomer();
    expect(posts[3].body).toEqual({ analytics: false, version: COOKIE_BANNER_VERSION, visitorId: null });
  });

  it('counts a choice made on an older banner as none (the banner asks again, nothing is sent meanwhile)', () => {
    storage.setItem(CONSENT_KEY, 'true');
    storage.setItem('cookiesVersion', '2020-01-01');
    storage.setItem('kopiVisitor', 'b2xkLWJhbm5lci12aXNpdG9y');
    expect(readConsent()).toBeNull();
    track('page_view', { page_path: '/' });
    expect(posts).toEqual([]);
  });

  it('counts a choice stored before versions were as made on the first banner: asked again since its text changed', () => {
    storage.setItem(CONSENT_KEY, 'false');
    expect(readConsent()).toBeNull();
    storage.setItem('cookiesVersion', COOKIE_BANNER_VERSION);
    expect(readConsent()).toBe(false);
  });

  it('sends no accept when storage refuses the choice, and never throws', () => {
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    expect(() => chooseCookies(true)).not.toThrow();
    expect(posts).toEqual([]);
    vi.stubGlobal('fetch', () => {
      throw new TypeError('offline');
    });
    vi.stubGlobal('window', { localStorage: storage });
    expect(() => chooseCookies(false)).not.toThrow();
  });
});
