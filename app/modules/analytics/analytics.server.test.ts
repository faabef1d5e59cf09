import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { analyticsEventNames, analyticsEventSchema } from './analytics.schema';
import { countEvents, recordEvent } from './analytics.server';

const visitorId = 'v_0123456789abcdefXYZ';

describe('analytics event schema', () => {
  const event = (name: string, props: unknown, extra: Record<string, unknown> = {}) =>
    analyticsEventSchema.safeParse({ name, props, path: '/', visitorId, ...extra });

  it('knows every event of the spec', () => {
    expect(analyticsEventNames.sort()).toEqual(
      [
        'page_view',
        'add_to_cart',
        'remove_from_cart',
        'begin_checkout',
        'checkout_attempt_guest',
        'checkout_completed',
        'purchase',
        'login',
        'sign_up',
        'password_reset_requested',
        'cookie_consent',
      ].sort(),
    );
  });

  it.each([
    ['page_view', { page_path: '/product/abc' }],
    ['add_to_cart', { product_id: 'abc' }],
    ['add_to_cart', { product_id: 'abc', quantity: 2, value: 2590 }],
    ['remove_from_cart', { product_id: 'abc', quantity: 1 }],
    ['cookie_consent', { consent_given: true }],
    ['begin_checkout', {}],
    ['checkout_attempt_guest', { cart_value: 4200, items_count: 3 }],
    ['checkout_completed', {}],
    ['purchase', { transaction_id: 'o1', currency: 'EUR', value: 4200, items: [{ product_id: 'abc', quantity: 2 }] }],
    ['login', { method: 'password' }],
    ['sign_up', { method: 'google' }],
    ['password_reset_requested', {}],
  ])('accepts %s %j', (name, props) => {
    expect(event(name, props).success).toBe(true);
  });

  it.each([
    ['an unknown name', 'wishlist_add', {}],
    ['a missing prop', 'page_view', {}],
    ['a string that is too long', 'page_view', { page_path: `/${'x'.repeat(200)}` }],
    ['a number that is not finite', 'add_to_cart', { product_id: 'a', value: Number.POSITIVE_INFINITY }],
    ['a fractional quantity', 'add_to_cart', { product_id: 'a', quantity: 1.5 }],
    ['a negative amount', 'checkout_attempt_guest', { cart_value: -1, items_count: 1 }],
    ['a wrong type', 'cookie_consent', { consent_given: 'yes' }],
    ['a lower-case currency', 'purchase', { transaction_id: 'o', currency: 'eur', value: 1, items: [] }],
    [
      'more than 50 items',
      'purchase',
      { transaction_id: 'o', currency: 'EUR', value: 1, items: Array.from({ length: 51 }, () => ({ product_id: 'a' })) },
    ],
    ['props that are not an object', 'begin_checkout', 'hello'],
  ])('rejects %s', (_what, name, props) => {
    expect(event(name, props).success).toBe(false);
  });

  it('checks the envelope and drops unknown props', () => {
    expect(event('page_view', { page_path: '/' }, { visitorId: 'short' }).success).toBe(false);
    expect(event('page_view', { page_path: '/' }, { visitorId: 'has spaces in it, no way' }).success).toBe(false);
    expect(event('page_view', { page_path: '/' }, { path: 'https://evil.test/' }).success).toBe(false);
    const parsed = event('page_view', { page_path: '/', email: 'someone@example.com' });
    expect(parsed.success && parsed.data.props).toEqual({ page_path: '/' });
  });
});

describe.each(testDatabases())('analytics events on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await handle.db.deleteFrom('analytics_events').execute();
  });

  it('records events with their props, path, visitor and user', async () => {
    const id = await recordEvent(handle.db, {
      name: 'add_to_cart',
      props: { product_id: 'p1', quantity: 2 },
      path: '/product/p1',
      visitorId,
      userId: 'u1',
    });
    const rows = await handle.db.selectFrom('analytics_events').selectAll().execute();
    expect(rows).toEqual([
      {
        id,
        name: 'add_to_cart',
        props: JSON.stringify({ product_id: 'p1', quantity: 2 }),
        path: '/product/p1',
        visitor_id: visitorId,
        user_id: 'u1',
        created_at: expect.any(String),
      },
    ]);
  });

  it('records server-side events without a path or visitor', async () => {
    await recordEvent(handle.db, { name: 'password_reset_requested', props: {} });
    const row = await handle.db.selectFrom('analytics_events').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'password_reset_requested', props: '{}', path: null, visitor_id: null, user_id: null });
  });

  it('counts events, all or by name', async () => {
    expect(await countEvents(handle.db)).toBe(0);
    await recordEvent(handle.db, { name: 'page_view', props: { page_path: '/' }, path: '/', visitorId });
    await recordEvent(handle.db, { name: 'page_view', props: { page_path: '/about' }, path: '/about', visitorId });
    await recordEvent(handle.db, { name: 'cookie_consent', props: { consent_given: true }, path: '/', visitorId });
    expect(await countEvents(handle.db)).toBe(3);
    expect(await countEvents(handle.db, 'page_view')).toBe(2);
    expect(await countEvents(handle.db, 'purchase')).toBe(0);
  });
});
