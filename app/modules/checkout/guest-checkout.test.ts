/**
 * Orders from guests on SQLite and PostgreSQL (docs/decisions/0022): a guest's cart makes an order with no
 * account, reused per cart like a customer's per account; only that cart can pay it and see it; its mails
 * link to its private page, which only its key opens; and it joins an account with one click: a new one made
 * for its email, or the one the email has, once signed in to it (never another).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { claimGuestOrder } from '~/modules/accounts/index.server';
import { addToCart, defaultVariantOf } from '~/modules/cart/index.server';
import { getGuestOrder, getOrderForUser, listOrders } from '~/modules/orders/index.server';
import { createTestPaymentProvider } from '~/modules/payments/index.server';
import { address, courier, createCoffee, createUser, storage } from '../../../tests/fixtures/shop';
import { payWithCard, startPayment } from './index.server';

const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' };

describe.each(testDatabases())('orders from guests on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let coffee = '';
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    coffee = await createCoffee(db, 'Gayo', 2190);
  });
  afterAll(() => handle.close());

  const services = () => ({ db, payments: createTestPaymentProvider(db), contactTo: 'shop@kopi.test', publicUrl: 'http://shop.test/', kickMail: () => {} });

  async function guestCart(quantity = 1) {
    const id = newId();
    const at = new Date().toISOString();
    await db.insertInto('carts').values({ id, user_id: null, created_at: at, updated_at: at }).execute();
    await addToCart(db, id, (await defaultVariantOf(db, coffee))!, quantity);
    return id;
  }

  async function paidGuestOrder(email = `guest.${newId().slice(0, 6).toLowerCase()}@example.test`) {
    const cartId = await guestCart();
    const started = await startPayment(db, services().payments, { userId: null, email, locale: 'pl', currency: 'EUR', cartId, address, delivery: courier });
    if (!started.ok) throw new Error(started.reason);
    const paid = await payWithCard(services(), { userId: null, cartId, orderId: started.orderId, card });
    expect(paid).toMatchObject({ ok: true });
    const key = (await db.selectFrom('orders').select('guest_key').where('id', '=', started.orderId).executeTakeFirstOrThrow()).guest_key!;
    return { id: started.orderId, cartId, email, key };
  }

  it('makes an order without an account, reused for the same cart, paid only from that cart', async () => {
    const cartId = await guestCart(2);
    const input = { userId: null, email: 'ola@example.test', locale: 'en' as const, currency: 'EUR' as const, cartId, address, delivery: courier };
    const first = await startPayment(db, services().payments, input);
    const again = await startPayment(db, services().payments, input);
    if (!first.ok || !again.ok) throw new Error('not started');
    expect(again.orderId).toBe(first.orderId);
    const row = await db.selectFrom('orders').select(['user_id', 'user_email', 'guest_key', 'total_cents']).where('id', '=', first.orderId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: null, user_email: 'ola@example.test', total_cents: 2 * 2190 + 499 });
    expect(row.guest_key).toMatch(/^[A-Za-z0-9_-]{22}$/);

    // Another guest's cart cannot pay or see it; its own can.
    const stranger = await guestCart();
    expect(await payWithCard(services(), { userId: null, cartId: stranger, orderId: first.orderId, card })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await getOrderForUser(db, storage, { cartId: stranger }, first.orderId)).toBeNull();
    expect(await getOrderForUser(db, storage, { cartId: null }, first.orderId)).toBeNull();
    expect(await payWithCard(services(), { userId: null, cartId, orderId: first.orderId, card })).toMatchObject({ ok: true });
    expect((await getOrderForUser(db, storage, { cartId }, first.orderId))?.paymentStatus).toBe('succeeded');
  });

  it('mails the guest a link to the order’s private page, which only its key opens', async () => {
    const order = await paidGuestOrder();
    const mail = await db.selectFrom('mail_outbox').select(['text_body', 'html_body']).where('to_address', '=', order.email).executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`http://shop.test/pl/order/${order.id}?key=${order.key}`);
    expect(mail.text_body).not.toContain('/profile');
    expect(await getGuestOrder(db, storage, order.id, order.key)).toMatchObject({ id: order.id, email: order.email, paymentStatus: 'succeeded' });
    expect(await getGuestOrder(db, storage, order.id, `${order.key.slice(0, -1)}x`)).toBeNull();
    expect(await getGuestOrder(db, storage, order.id, '')).toBeNull();
  });

  it('joins a new account made for its email with one click; the link then stops working', async () => {
    const order = await paidGuestOrder();
    const outcome = await claimGuestOrder(db, { orderId: order.id, key: order.key, signedIn: null });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome).toMatchObject({ created: true, email: order.email });
    const user = await db.selectFrom('users').select(['email', 'display_name', 'password_hash']).where('id', '=', outcome.userId).executeTakeFirstOrThrow();
    expect(user).toEqual({ email: order.email, display_name: address.fullName, password_hash: null });
    expect((await listOrders(db, storage, outcome.userId)).orders.map((o) => o.id)).toEqual([order.id]);
    expect(await getGuestOrder(db, storage, order.id, order.key)).toBeNull();
    // A second click: nothing more happens.
    expect(await claimGuestOrder(db, { orderId: order.id, key: order.key, signedIn: null })).toEqual({ ok: false, reason: 'not_found' });
  });

  it('joins the account the email has only once signed in to it, never another one', async () => {
    const owner = await createUser(db, `owner.${newId().slice(0, 6).toLowerCase()}@example.test`);
    const order = await paidGuestOrder(owner.email);
    expect(await claimGuestOrder(db, { orderId: order.id, key: order.key, signedIn: null })).toEqual({ ok: false, reason: 'account_exists' });
    const other = await createUser(db);
    expect(await claimGuestOrder(db, { orderId: order.id, key: order.key, signedIn: other })).toEqual({ ok: false, reason: 'other_account' });
    expect(await claimGuestOrder(db, { orderId: order.id, key: 'x'.repeat(22), signedIn: { id: owner.id, email: owner.email.toUpperCase() } })).toEqual({ ok: false, reason: 'not_found' });
    expect(await claimGuestOrder(db, { orderId: order.id, key: order.key, signedIn: { id: owner.id, email: owner.email.toUpperCase() } })).toEqual({
      ok: true,
      userId: owner.id,
      email: owner.email,
      created: false,
    });
    expect((await listOrders(db, storage, owner.id)).orders.map((o) => o.id)).toEqual([order.id]);
    expect((await listOrders(db, storage, other.id)).orders).toEqual([]);
  });
});
