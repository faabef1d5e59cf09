/**
 * What each abuse limit stops, and what it lets through, on SQLite and PostgreSQL: per email strict (one
 * person, or a script aimed at one person); per address generous (a carrier's NAT, an office or a café's
 * Wi-Fi puts many real customers behind one address); per shop a ceiling no small shop reaches, so a scan
 * spread over many addresses is still cut off. A refused attempt writes nothing. Each test runs at its own
 * hour, so earlier tests' attempts are outside its window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { LIMITS, type LimitKind, customerScopes, recordAttempt, scaledLimits } from './index.server';

const kinds = ['signup', 'reset', 'contact'] as const;
let hour = 0;
/** A moment a day after the previous test's, so no window overlaps. */
const nextHour = () => new Date(Date.UTC(2027, 0, 1) + ++hour * 86_400_000);

describe('the limits', () => {
  it('keep per-email limits strict, per-address ones generous, and a shop-wide ceiling above both', () => {
    for (const kind of kinds) {
      const rule = LIMITS[kind];
      expect(rule.perEmail, kind).toBeLessThanOrEqual(3);
      expect(rule.perAddress, kind).toBeGreaterThanOrEqual(20);
      expect(rule.shopWide, kind).toBeGreaterThan(rule.perAddress);
    }
    expect(LIMITS.withdrawal.perAddress).toBeGreaterThanOrEqual(50);
    expect('shopWide' in LIMITS.withdrawal).toBe(false);
    expect('shopWide' in LIMITS.login).toBe(false);
  });

  it('scale with RATE_LIMIT_FACTOR, the shop-wide ceiling too', () => {
    expect(scaledLimits(2).signup).toEqual({ perEmail: 6, perAddress: 100, shopWide: 400, windowMs: LIMITS.signup.windowMs });
    expect(scaledLimits(0.05).signup).toMatchObject({ perEmail: 1, perAddress: 3, shopWide: 10 });
  });
});

describe.each(testDatabases())('limits on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());

  const rows = async () => Number((await db.selectFrom('rate_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const attempt = (kind: (typeof kinds)[number], email: string, ip: string | null, now: Date) =>
    recordAttempt(db, kind as LimitKind, customerScopes(LIMITS[kind], email, ip), LIMITS[kind].windowMs, now).then((a) => a.limited);

  it.each(kinds)('%s: everyone behind one shared address gets through up to its generous limit; a script on it is then cut off', async (kind) => {
    const now = nextHour();
    for (let i = 0; i < LIMITS[kind].perAddress; i++) expect(await attempt(kind, `customer.${i}@example.com`, '203.0.113.1', now)).toBe(false);
    expect(await attempt(kind, 'one.more@example.com', '203.0.113.1', now)).toBe(true);
    // The neighbour address, and the same address once the window has passed, are welcome.
    expect(await attempt(kind, 'one.more@example.com', '203.0.113.2', now)).toBe(false);
    expect(await attempt(kind, 'later@example.com', '203.0.113.1', new Date(now.getTime() + LIMITS[kind].windowMs + 1))).toBe(false);
  });

  it.each(kinds)('%s: one email is refused after a few attempts, from any address', async (kind) => {
    const now = nextHour();
    for (let i = 0; i < LIMITS[kind].perEmail; i++) expect(await attempt(kind, 'ola@example.com', `198.51.100.${i}`, now)).toBe(false);
    expect(await attempt(kind, 'ola@example.com', '198.51.100.200', now)).toBe(true);
    expect(await attempt(kind, 'ola@example.com', null, now)).toBe(true);
  });

  it.each(kinds)('%s: the shop-wide ceiling refuses attempt N+1 from N different addresses, and writes nothing', async (kind) => {
    const now = nextHour();
    const ceiling = LIMITS[kind].shopWide;
    for (let i = 0; i < ceiling; i++) {
      expect(await attempt(kind, `scan.${i}@example.com`, `10.${i >> 8}.${i & 255}.1`, now)).toBe(false);
    }
    const before = await rows();
    expect(await attempt(kind, 'next@example.com', '192.0.2.1', now)).toBe(true);
    // An attempt with no known address counts against the ceiling too.
    expect(await attempt(kind, 'next@example.com', null, now)).toBe(true);
    expect(await rows()).toBe(before);
    // Other kinds have ceilings of their own.
    const other = kinds.find((k) => k !== kind)!;
    expect(await attempt(other, 'next@example.com', '192.0.2.1', now)).toBe(false);
  });
});
