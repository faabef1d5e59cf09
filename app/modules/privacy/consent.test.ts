import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { analyticsAllowed, consentsOf, latestConsent, recordConsent } from './index.server';

const visitor = 'Y29uc2VudC12aXNpdG9yLTE';
const version = '2026-11-28';
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute));

describe.each(testDatabases())('cookie consents on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await handle.db.deleteFrom('consents').execute();
  });

  it('keeps every choice, and the latest one counts', async () => {
    await recordConsent(handle.db, { visitorId: visitor, userId: null, analytics: true, version: '2026-01-01', now: at(0) });
    await recordConsent(handle.db, { visitorId: visitor, userId: null, analytics: true, version, now: at(5) });
    expect(await latestConsent(handle.db, visitor)).toEqual({ analytics: true, version, visitorId: visitor, createdAt: at(5).toISOString() });
    expect(await analyticsAllowed(handle.db, visitor)).toBe(true);
    expect(await handle.db.selectFrom('consents').select('id').execute()).toHaveLength(2);
  });

  it('a withdrawal stops the analytics of that visitor id, and a later accept starts them again', async () => {
    await recordConsent(handle.db, { visitorId: visitor, userId: null, analytics: true, version, now: at(0) });
    await recordConsent(handle.db, { visitorId: visitor, userId: null, analytics: false, version, now: at(1) });
    expect(await analyticsAllowed(handle.db, visitor)).toBe(false);
    expect(await analyticsAllowed(handle.db, 'c29tZS1vdGhlci12aXNpdG9y'), 'another visitor').toBe(true);
    await recordConsent(handle.db, { visitorId: visitor, userId: null, analytics: true, version, now: at(2) });
    expect(await analyticsAllowed(handle.db, visitor)).toBe(true);
  });

  it('of two choices in the same millisecond, the decline counts', async () => {
    await recordConsent(handle.db, { visitorId: visitor, userId: null, analytics: false, version, now: at(0) });
    await recordConsent(handle.db, { visitorId: visitor, userId: null, analytics: true, version, now: at(0) });
    expect(await analyticsAllowed(handle.db, visitor)).toBe(false);
  });

  it('allows a visitor id with no recorded choice (only a browser that accepted has one)', async () => {
    expect(await latestConsent(handle.db, visitor)).toBeNull();
    expect(await analyticsAllowed(handle.db, visitor)).toBe(true);
  });

  it('lists a customer’s choices for their data export, oldest first', async () => {
    await recordConsent(handle.db, { visitorId: null, userId: 'u1', analytics: false, version, now: at(3) });
    await recordConsent(handle.db, { visitorId: visitor, userId: 'u1', analytics: true, version, now: at(1) });
    await recordConsent(handle.db, { visitorId: visitor, userId: 'u2', analytics: true, version, now: at(2) });
    await recordConsent(handle.db, { visitorId: visitor, userId: null, analytics: false, version, now: at(4) });
    expect(await consentsOf(handle.db, 'u1')).toEqual([
      { analytics: true, version, visitorId: visitor, createdAt: at(1).toISOString() },
      { analytics: false, version, visitorId: null, createdAt: at(3).toISOString() },
    ]);
    expect(await consentsOf(handle.db, 'nobody')).toEqual([]);
  });
});
