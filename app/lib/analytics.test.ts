import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analyticsEventSchema } from '~/modules/analytics/analytics.schema';
import { CONSENT_KEY, readConsent, storeConsent, track } from './analytics';

/** A Map-backed localStorage, enough for these tests (Vitest runs them in Node, with no DOM). */
class MemoryStorage {
  private map = new Map<string, string>();
  getItem = (key: string) => this.map.get(key) ?? null;
  setItem = (key: string, value: string) => void this.map.set(key, String(value));
  removeItem = (key: string) => void this.map.delete(key);
}

describe('browser analytics', () => {
  let storage: MemoryStorage;
  let beacons: Array<{ url: string; body: Blob }>;
  let fetches: Array<[string, RequestInit]>;
  let beaconAccepted: boolean;

  beforeEach(() => {
    storage = new MemoryStorage();
    beacons = [];
    fetches = [];
    beaconAccepted = true;
    vi.stubGlobal('window', { localStorage: storage });
    vi.stubGlobal('location', { pathname: '/product/abc' });
    vi.stubGlobal('navigator', {
      sendBeacon: (url: string, body: Blob) => {
        beacons.push({ url, body });
        return beaconAccepted;
      },
    });
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      fetches.push([url, init]);
      return Promise.resolve(new Response(null, { status: 204 }));
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('stores the choice and reads it back', () => {
    expect(readConsent()).toBeNull();
    storeConsent(false);
    expect(storage.getItem(CONSENT_KEY)).toBe('false');
    expect(readConsent()).toBe(false);
    storeConsent(true);
    expect(storage.getItem(CONSENT_KEY)).toBe('true');
    expect(readConsent()).toBe(true);
  });

  it('creates a visitor id on accept and forgets it on decline', () => {
    storeConsent(true);
    const id = storage.getItem('kopiVisitor');
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    storeConsent(true);
    expect(storage.getItem('kopiVisitor')).toBe(id);
    storeConsent(false);
    expect(storage.getItem('kopiVisitor')).toBeNull();
  });

  it('sends nothing without consent', () => {
    track('page_view', { page_path: '/' });
    storeConsent(false);
    track('page_view', { page_path: '/' });
    expect(beacons).toEqual([]);
    expect(fetches).toEqual([]);
    expect(storage.getItem('kopiVisitor')).toBeNull();
  });

  it('sends a text/plain beacon the server accepts, after consent', async () => {
    storeConsent(true);
    track('add_to_cart', { product_id: 'abc', quantity: 1 });
    expect(beacons).toHaveLength(1);
    expect(beacons[0].url).toBe('/api/events');
    expect(beacons[0].body.type).toBe('text/plain');
    const sent = JSON.parse(await beacons[0].body.text());
    expect(sent).toEqual({
      name: 'add_to_cart',
      props: { product_id: 'abc', quantity: 1 },
      path: '/product/abc',
      visitorId: storage.getItem('kopiVisitor'),
    });
    expect(analyticsEventSchema.safeParse(sent).success).toBe(true);
    expect(fetches).toEqual([]);
  });

  it('falls back to a keepalive fetch when the beacon is refused or missing', () => {
    storeConsent(true);
    beaconAccepted = false;
    track('begin_checkout');
    vi.stubGlobal('navigator', {});
    track('begin_checkout');
    expect(fetches).toHaveLength(2);
    for (const [url, init] of fetches) {
      expect(url).toBe('/api/events');
      expect(init).toMatchObject({ method: 'POST', keepalive: true });
      expect(JSON.parse(init.body as string)).toMatchObject({ name: 'begin_checkout', props: {} });
    }
  });

  it('never throws when storage is blocked or absent', () => {
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    expect(readConsent()).toBeNull();
    expect(() => storeConsent(true)).not.toThrow();
    expect(() => track('page_view', { page_path: '/' })).not.toThrow();

    vi.stubGlobal('window', { localStorage: { getItem: () => 'true', setItem: () => { throw new Error('QuotaExceededError'); } } });
    expect(() => storeConsent(true)).not.toThrow();
    expect(() => track('page_view', { page_path: '/' })).not.toThrow();
    expect(beacons).toEqual([]);
  });

  it('does nothing on the server', () => {
    vi.stubGlobal('window', undefined);
    expect(readConsent()).toBeNull();
    expect(() => storeConsent(true)).not.toThrow();
    expect(() => track('page_view', { page_path: '/' })).not.toThrow();
    expect(beacons).toEqual([]);
  });
});
