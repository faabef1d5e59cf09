import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { routeArgs } from '~/http/test-args';
import type { Shopper } from '~/http/shopper.server';
import { COOKIE_BANNER_VERSION } from '~/lib/analytics';
import { analyticsAllowed } from '~/modules/privacy/index.server';
import { action } from './api.consent';

const visitorId = 'Y29uc2VudC12aXNpdG9yLTE';
const accept = { analytics: true, version: COOKIE_BANNER_VERSION, visitorId };

describe.each(testDatabases())('POST /api/consent on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());
  let shopper: Partial<Shopper> = { user: null };
  beforeEach(async () => {
    await handle.db.deleteFrom('consents').execute();
    shopper = { user: null };
  });

  const post = (body: BodyInit | null, contentType: string | null = 'application/json', method = 'POST') => {
    const headers = new Headers();
    if (contentType) headers.set('content-type', contentType);
    const request = new Request('http://localhost/api/consent', { method, headers, body });
    return action(routeArgs(request, { app: { db: handle.db }, shopper }) as Parameters<typeof action>[0]);
  };
  const rows = () => handle.db.selectFrom('consents').select(['visitor_id', 'user_id', 'analytics', 'version', 'created_at']).orderBy('created_at').execute();

  it('records an accept with its time and the banner’s version, and answers 204 without cookies', async () => {
    const response = await post(JSON.stringify(accept));
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await rows()).toEqual([{ visitor_id: visitorId, user_id: null, analytics: 1, version: COOKIE_BANNER_VERSION, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    expect(await analyticsAllowed(handle.db, visitorId)).toBe(true);
  });

  it('records a withdrawal sent as a beacon (text/plain), which stops that visitor id’s analytics', async () => {
    expect((await post(JSON.stringify(accept))).status).toBe(204);
    const withdrawal = new Blob([JSON.stringify({ ...accept, analytics: false })], { type: 'text/plain' });
    expect((await post(withdrawal, 'text/plain;charset=UTF-8')).status).toBe(204);
    expect((await rows()).map((r) => Number(r.analytics))).toEqual([1, 0]);
    expect(await analyticsAllowed(handle.db, visitorId)).toBe(false);
  });

  it('records a first decline, which comes without a visitor id', async () => {
    expect((await post(JSON.stringify({ analytics: false, version: COOKIE_BANNER_VERSION, visitorId: null }))).status).toBe(204);
    expect(await rows()).toMatchObject([{ visitor_id: null, analytics: 0 }]);
  });

  it('records the signed-in customer from the session, never from the body', async () => {
    shopper = { user: { id: 'u-from-session', email: 'a@b.test', displayName: 'A', isAdmin: false, photoUrl: null } };
    expect((await post(JSON.stringify({ ...accept, userId: 'u-forged' }))).status).toBe(204);
    expect(await rows()).toMatchObject([{ user_id: 'u-from-session' }]);
  });

  it.each([
    ['an accept without a visitor id', JSON.stringify({ ...accept, visitorId: null })],
    ['a bad visitor id', JSON.stringify({ ...accept, visitorId: 'x' })],
    ['a choice that is not a boolean', JSON.stringify({ ...accept, analytics: 'yes' })],
    ['no version', JSON.stringify({ analytics: true, visitorId })],
    ['a long version', JSON.stringify({ ...accept, version: 'v'.repeat(33) })],
    ['malformed JSON', '{"analytics":true,'],
    ['an empty body', ''],
    ['JSON that is not an object', 'true'],
  ])('refuses %s with 400 and records nothing', async (_what, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid', message: 'invalid_consent' });
    expect(await rows()).toEqual([]);
  });

  it('refuses other content types with 415, a body over 1 kB with 413, and other methods with 405', async () => {
    expect((await post(new URLSearchParams({ analytics: 'true' }), 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await post(JSON.stringify({ ...accept, pad: 'x'.repeat(2000) }))).status).toBe(413);
    const put = await post(JSON.stringify(accept), 'application/json', 'PUT');
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('POST');
    expect(await rows()).toEqual([]);
  });
});
