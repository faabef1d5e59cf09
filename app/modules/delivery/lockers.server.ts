/**
 * InPost lockers from InPost's public Points API (`GET /v1/points`, `GET /v1/points/{name}` at INPOST_API_URL):
 * a search by locker code, post code (the nearest first, with their distance) or city, and the one locker a
 * checkout names, looked up again so that only a locker the API knows (and that is operating) is accepted.
 * Answers are kept briefly in memory; the API is asked at most once per query in that time (a city however it is
 * typed: "kraków" and "KRAKÓW" are one query), and a search InPost would be asked for passes the caller's limit
 * first (the checkout's: per cart and per client address), so nobody can spend the shop's quota.
 */
import type { Logger } from 'pino';

export type Locker = {
  /** InPost's code, e.g. "KRA01M". */
  code: string;
  /** "Długa 5, 31-147 Kraków" */
  address: string;
  city: string;
  postCode: string;
  /** Where exactly, in InPost's words ("Przy sklepie Lewiatan"). */
  description: string;
  /** "24/7" or InPost's own text. */
  hours: string;
  /** From the searched post code, when the search was by one. */
  distanceMeters: number | null;
};

/**
 * `near`: the lockers are the nearest to a searched post code, each with its distance (else they are the city's, or the
 * code's). `limited`: this shopper searched for too many new places in a short time (nothing was asked).
 */
export type LockerSearch = { ok: true; lockers: Locker[]; near: boolean } | { ok: false; reason: 'unavailable' | 'limited' };

export type LockerDirectory = {
  /** `allow`: asked only when InPost would be called (not for a fresh answer kept from before); false refuses. */
  search(query: string, options?: { allow?: () => Promise<boolean> }): Promise<LockerSearch>;
  /** The operating locker with this code, null when InPost has none, undefined when InPost could not be asked. */
  find(code: string): Promise<Locker | null | undefined>;
};

export const LOCKER_RESULTS = 8;
export const MAX_LOCKER_QUERY = 60;
/** How far from a searched post code a locker may be to be listed as near it. */
export const NEAR_METERS = 20_000;
const TTL_MS = 10 * 60_000;
const TIMEOUT_MS = 5_000;
const MAX_CACHED = 1_000;

export const lockerCodePattern = /^[A-Z]{3}\d{1,4}[A-Z]{0,3}$/;
const postCodePattern = /^(\d{2})-?(\d{3})$/;

/** The snapshot an order keeps of its locker. */
export const lockerSnapshot = (locker: Locker) => [locker.address, locker.description, locker.hours].filter(Boolean).join(' · ');

type PointJson = {
  name?: unknown;
  status?: unknown;
  type?: unknown;
  opening_hours?: unknown;
  location_description?: unknown;
  distance?: unknown;
  address?: { line1?: unknown; line2?: unknown };
  address_details?: { city?: unknown; post_code?: unknown };
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 200) : '');

function toLocker(point: PointJson): Locker | null {
  const code = text(point.name).toUpperCase();
  if (!code || text(point.status) !== 'Operating') return null;
  if (Array.isArray(point.type) && !point.type.includes('parcel_locker')) return null;
  const line1 = text(point.address?.line1);
  const city = text(point.address_details?.city);
  const postCode = text(point.address_details?.post_code);
  // The town is always said (InPost's second line is sometimes empty): a locker in the next town reads as such.
  const line2 = text(point.address?.line2) || [postCode, city].filter(Boolean).join(' ');
  return {
    code,
    address: [line1, line2].filter(Boolean).join(', '),
    city,
    postCode,
    description: text(point.location_description),
    hours: text(point.opening_hours),
    distanceMeters: typeof point.distance === 'number' && Number.isFinite(point.distance) ? Math.round(point.distance) : null,
  };
}

/** The query string InPost is asked for a shopper's search: a code, a post code or a city. */
export function pointsQuery(query: string): URLSearchParams | null {
  const q = query.normalize('NFC').trim().replace(/\s+/g, ' ');
  if (!q || q.length > MAX_LOCKER_QUERY) return null;
  const params = new URLSearchParams({ type: 'parcel_locker', per_page: String(LOCKER_RESULTS) });
  const postCode = postCodePattern.exec(q);
  if (lockerCodePattern.test(q.toUpperCase())) params.set('name', q.toUpperCase());
  else if (postCode) {
    params.set('relative_post_code', `${postCode[1]}-${postCode[2]}`);
    params.set('sort_by', 'distance_asc');
    params.set('max_distance', String(NEAR_METERS));
  } else if (/^[\p{L}][\p{L} .'-]*$/u.test(q)) params.set('city', cityName(q));
  else return null;
  params.set('status', 'Operating');
  return params;
}

/** A city as InPost writes it, however it was typed: "bielsko-biała" → "Bielsko-Biała" (one query, one answer kept). */
const cityName = (q: string) => q.toLocaleLowerCase('pl').replace(/(^|[ .'-])(\p{L})/gu, (_, sep: string, letter: string) => sep + letter.toLocaleUpperCase('pl'));

export function createLockerDirectory({ baseUrl, log, fetchImpl = fetch }: { baseUrl: string; log?: Logger; fetchImpl?: typeof fetch }): LockerDirectory {
  const cache = new Map<string, { at: number; value: Promise<unknown> }>();

  const fresh = (path: string) => {
    const hit = cache.get(path);
    return hit && Date.now() - hit.at < TTL_MS ? hit : undefined;
  };

  /** The JSON at `path`, remembered for a while (failures are not); null for a 404; throws when InPost cannot be asked. */
  function cached<T>(path: string): Promise<T | null> {
    const hit = fresh(path);
    if (hit) return hit.value as Promise<T | null>;
    const value = (async () => {
      const response = await fetchImpl(`${baseUrl}${path}`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`InPost answered ${response.status}`);
      return (await response.json()) as T;
    })();
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(path, { at: Date.now(), value });
    value.catch(() => cache.delete(path));
    return value;
  }

  return {
    async search(query, { allow } = {}) {
      const params = pointsQuery(query);
      if (!params) return { ok: true, lockers: [], near: false };
      const path = `/v1/points?${params}`;
      if (!fresh(path) && allow && !(await allow())) return { ok: false, reason: 'limited' };
      try {
        const page = await cached<{ items?: PointJson[] }>(path);
        const lockers = (page?.items ?? []).flatMap((item) => toLocker(item) ?? []);
        const postCode = params.get('relative_post_code');
        if (!postCode) return { ok: true, lockers: lockers.slice(0, LOCKER_RESULTS), near: false };
        return { ok: true, ...nearest(lockers, postCode) };
      } catch (error) {
        log?.warn({ err: error }, 'InPost lockers could not be searched');
        return { ok: false, reason: 'unavailable' };
      }
    },
    async find(code) {
      const name = code.trim().toUpperCase();
      if (!lockerCodePattern.test(name)) return null;
      try {
        const point = await cached<PointJson>(`/v1/points/${encodeURIComponent(name)}`);
        return point ? toLocker(point) : null;
      } catch (error) {
        log?.warn({ err: error, code: name }, 'an InPost locker could not be looked up');
        return undefined;
      }
    },
  };
}

/**
 * The lockers near a post code, nearest first, from InPost's answer: each with its distance, none further than
 * NEAR_METERS whatever InPost sent. Should InPost give no distances, nothing can be called near: the lockers of the
 * code's own postal area (its first two digits) are listed instead, without the word "near".
 */
function nearest(lockers: Locker[], postCode: string): { lockers: Locker[]; near: boolean } {
  if (lockers.length > 0 && lockers.every((l) => l.distanceMeters !== null)) {
    const near = lockers.filter((l) => l.distanceMeters! <= NEAR_METERS).sort((a, b) => a.distanceMeters! - b.distanceMeters!);
    return { lockers: near.slice(0, LOCKER_RESULTS), near: true };
  }
  const area = postCode.slice(0, 2);
  return { lockers: lockers.filter((l) => l.postCode.startsWith(area)).map((l) => ({ ...l, distanceMeters: null })).slice(0, LOCKER_RESULTS), near: false };
}
