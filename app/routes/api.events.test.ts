import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { routeArgs } from '~/http/test-args';
import { countEvents } from '~/modules/analytics/index.server';
import { recordConsent } from '~/modules/privacy/index.server';
import { action } from './api.events';

const visitorId = 'Qm9vbXRvd24tdmlzaXRvcg';
const pageView = { name: 'page_view', props: { page_path: '/about' }, path: '/about', visitorId };

describe.each(testDatabases())('POST /api/events on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await handle.db.deleteFrom('analytics_events').execute();
    await handle.db.deleteFrom('consents').execute();
  });

  let shopper: { user: { id: string; email: string; displayName: string; isAdmin: boolean; photoUrl: string | null } | null } = { user: null };
  beforeEach(() => {
    shopper = { user: null };
  });

  const post = (body: BodyInit | null, contentType: string | null = 'text/plain;charset=UTF-8', method = 'POST') => {
    const headers = new Headers();
    if (contentType) headers.set('content-type', contentType);
    const request = new Request('http://localhost/api/events', { method, headers, body });
    return action(routeArgs(request, { app: { db: handle.db }, shopper }) as Parameters<typeof action>[0]);
  };

  it('records a beacon (text/plain) and answers 204 without cookies', async () => {
    const response = await post(new Blob([JSON.stringify(pageView)], { type: 'text/plain' }));
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toBe('');
    const rows = await handle.db.selectFrom('analytics_events').selectAll().execute();
    expect(rows).toMatchObject([
      { name: 'page_view', props: '{"page_path":"/about"}', path: '/about', visitor_id: visitorId, user_id: null },
    ]);
  });

  it('records a fetch with application/json', async () => {
    const response = await post(
      JSON.stringify({ name: 'add_to_cart', props: { product_id: 'p1', quantity: 1 }, path: '/', visitorId }),
      'application/json',
    );
    expect(response.status).toBe(204);
    expect(await countEvents(handle.db, 'add_to_cart')).toBe(1);
  });

  it.each([
    ['an unknown event', JSON.stringify({ ...pageView, name: 'wishlist_add' })],
    ['bad props', JSON.stringify({ ...pageView, props: { page_path: 42 } })],
    ['a bad visitor id', JSON.stringify({ ...pageView, visitorId: 'x' })],
    ['malformed JSON', '{"name":"page_view",'],
    ['an empty body', ''],
    ['JSON that is not an object', '"page_view"'],
    ['a purchase (only the server records those)', JSON.stringify({ ...pageView, name: 'purchase', props: { transaction_id: 'o1', currency: 'EUR', value: 100_000_00, items: [] } })],
    ['a completed checkout (only the server records those)', JSON.stringify({ ...pageView, name: 'checkout_completed', props: { transaction_id: 'o1' } })],
  ])('refuses %s with 400 and stores nothing', async (_what, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid', message: 'invalid_event' });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await countEvents(handle.db)).toBe(0);
  });

  it('refuses a body over 8 kB with 413, without reading it', async () => {
    const response = await post(JSON.stringify({ ...pageView, props: { page_path: '/', pad: 'x'.repeat(9000) } }));
    expect(response.status).toBe(413);
    expect(await countEvents(handle.db)).toBe(0);
  });

  it('records the signed-in customer from the session, never from the body', async () => {
    shopper = { user: { id: 'u-from-session', email: 'a@b.test', displayName: 'A', isAdmin: false, photoUrl: null } };
    expect((await post(JSON.stringify({ ...pageView, userId: 'u-forged' }), 'application/json')).status).toBe(204);
    const rows = await handle.db.selectFrom('analytics_events').select('user_id').execute();
    expect(rows).toEqual([{ user_id: 'u-from-session' }]);
  });

  it('drops, with the same 204, the events of a visitor id whose latest choice withdrew consent', async () => {
    const version = '2026-11-28';
    await recordConsent(handle.db, { visitorId, userId: null, analytics: true, version, now: new Date(Date.now() - 60_000) });
    await recordConsent(handle.db, { visitorId, userId: null, analytics: false, version });
    const response = await post(JSON.stringify(pageView), 'application/json');
    expect(response.status).toBe(204);
    expect(await countEvents(handle.db)).toBe(0);
  });

  it('refuses an oversize body sent without a Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(4096));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 100) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const request = new Request('http://localhost/api/events', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const response = await action(routeArgs(request, { app: { db: handle.db } }) as Parameters<typeof action>[0]);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(10); // stopped reading at the limit
    expect(await countEvents(handle.db)).toBe(0);
  });

  it('refuses other content types with 415', async () => {
    const form = new URLSearchParams({ name: 'page_view' });
    expect((await post(form, 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await post(new TextEncoder().encode(JSON.stringify(pageView)), null)).status).toBe(415); // no type at all
    expect(await countEvents(handle.db)).toBe(0);
  });

  it('answers 405 to methods other than POST', async () => {
    const response = await post(JSON.stringify(pageView), 'application/json', 'PUT');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await countEvents(handle.db)).toBe(0);
  });
});
