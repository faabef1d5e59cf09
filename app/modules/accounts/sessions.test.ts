import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { addToCart, defaultVariantOf, ensureUserCart, getCart } from '~/modules/cart/index.server';
import { createProduct } from '~/modules/catalog/index.server';
import { nullStorage as storage } from '~/modules/storage/null-storage';
import { completeSignIn, createSession, deleteSession, deleteUserSessions, getSessionUser, signUp } from './index.server';
import { hashToken } from './secrets.server';

const day = 24 * 60 * 60_000;
let counter = 0;

describe.each(testDatabases())('sessions on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());

  async function newUser() {
    const result = await signUp(db, { name: 'Ola', email: `session.${++counter}@example.com`, password: 'a long password' });
    if (!result.ok) throw new Error('sign-up failed');
    return result.userId;
  }

  it('stores only the hash of the token and finds the user by the token', async () => {
    const userId = await newUser();
    const token = await createSession(db, userId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const found = await getSessionUser(db, token);
    expect(found).toEqual({
      user: { id: userId, email: `session.${counter}@example.com`, displayName: 'Ola', isAdmin: false, photoUrl: null },
      sessionId: hashToken(token),
      refreshed: false,
      cartId: null,
    });
    expect(JSON.stringify(found)).not.toContain('argon2');
    // The stored id is not a token: presenting it finds nothing.
    expect(await getSessionUser(db, rows[0].id)).toBeNull();
  });

  it('carries the customer’s own cart, once there is one (never another)', async () => {
    const userId = await newUser();
    const token = await createSession(db, userId);
    expect((await getSessionUser(db, token))?.cartId).toBeNull();
    const own = await ensureUserCart(db, userId);
    await ensureUserCart(db, await newUser());
    expect((await getSessionUser(db, token))?.cartId).toBe(own);
  });

  it('reads the admin role from the database on every lookup', async () => {
    const userId = await newUser();
    const token = await createSession(db, userId);
    expect((await getSessionUser(db, token))?.user.isAdmin).toBe(false);
    await db.updateTable('users').set({ is_admin: 1 }).where('id', '=', userId).execute();
    expect((await getSessionUser(db, token))?.user.isAdmin).toBe(true);
    await db.updateTable('users').set({ is_admin: 0 }).where('id', '=', userId).execute();
    expect((await getSessionUser(db, token))?.user.isAdmin).toBe(false);
  });

  it('answers null for no token, an unknown token, an expired session and a disabled account', async () => {
    expect(await getSessionUser(db, null)).toBeNull();
    expect(await getSessionUser(db, 'b'.repeat(43))).toBeNull();
    const userId = await newUser();
    const token = await createSession(db, userId);
    expect(await getSessionUser(db, token, new Date(Date.now() + 31 * day))).toBeNull();
    // The expired session is gone for good.
    expect(await db.selectFrom('sessions').select('id').where('id', '=', hashToken(token)).execute()).toEqual([]);
    expect(await getSessionUser(db, token)).toBeNull();

    const other = await createSession(db, userId);
    await db.updateTable('users').set({ disabled: 1 }).where('id', '=', userId).execute();
    expect(await getSessionUser(db, other)).toBeNull();
  });

  it('extends the expiry at most once a day', async () => {
    const userId = await newUser();
    const start = new Date('2030-01-01T00:00:00.000Z');
    const token = await createSession(db, userId, start);
    const stored = () => db.selectFrom('sessions').select(['expires_at', 'last_seen_at']).where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect((await getSessionUser(db, token, new Date(start.getTime() + 3_600_000)))?.refreshed).toBe(false);
    expect(await stored()).toEqual({ expires_at: '2030-01-31T00:00:00.000Z', last_seen_at: '2030-01-01T00:00:00.000Z' });
    const later = new Date(start.getTime() + 2 * day);
    expect((await getSessionUser(db, token, later))?.refreshed).toBe(true);
    expect(await stored()).toEqual({ expires_at: '2030-02-02T00:00:00.000Z', last_seen_at: '2030-01-03T00:00:00.000Z' });
    // Still alive after the first 30 days, because it was used.
    expect(await getSessionUser(db, token, new Date(start.getTime() + 31 * day))).not.toBeNull();
  });

  it('deletes one session, or all sessions of a user', async () => {
    const userId = await newUser();
    const [a, b, c] = [await createSession(db, userId), await createSession(db, userId), await createSession(db, userId)];
    await deleteSession(db, a);
    expect(await getSessionUser(db, a)).toBeNull();
    expect(await getSessionUser(db, b)).not.toBeNull();
    await deleteUserSessions(db, userId);
    expect(await getSessionUser(db, b)).toBeNull();
    expect(await getSessionUser(db, c)).toBeNull();
  });

  describe('completeSignIn', () => {
    let gayo: string;
    let java: string;
    beforeAll(async () => {
      const product = (name: string, priceCents: number) =>
        createProduct(db, { category: 'wholeBean', priceCents, translations: { en: { name, description: '' } }, images: [] });
      gayo = await product('Gayo', 1250);
      java = await product('Java', 899);
    });

    it('rotates the session: the previous token stops working', async () => {
      const userId = await newUser();
      const before = await createSession(db, userId);
      const { sessionToken } = await completeSignIn(db, { userId, previousSessionToken: before, guestCartId: null });
      expect(sessionToken).not.toBe(before);
      expect(await getSessionUser(db, before)).toBeNull();
      expect((await getSessionUser(db, sessionToken))?.user.id).toBe(userId);
    });

    it("ends a session planted before sign-in, even another user's", async () => {
      const victim = await newUser();
      const attacker = await newUser();
      const planted = await createSession(db, attacker);
      const { sessionToken } = await completeSignIn(db, { userId: victim, previousSessionToken: planted, guestCartId: null });
      expect(await getSessionUser(db, planted)).toBeNull();
      expect((await getSessionUser(db, sessionToken))?.user.id).toBe(victim);
    });

    it("merges the guest cart into the customer's cart, adding quantities", async () => {
      const userId = await newUser();
      // The customer's cart from an earlier visit: 2 × Gayo.
      const first = await completeSignIn(db, { userId, previousSessionToken: null, guestCartId: await cartWith(gayo, 2) });
      expect(first.cartId).not.toBeNull();
      // Now as a guest again: 1 × Gayo, 3 × Java.
      const guest = await cartWith(gayo, 1);
      await addToCart(db, guest, (await defaultVariantOf(db, java))!, 3);
      const second = await completeSignIn(db, { userId, previousSessionToken: first.sessionToken, guestCartId: guest });
      expect(second.cartId).toBe(first.cartId);
      const cart = await getCart(db, storage, second.cartId, 'en', 'EUR');
      expect(cart.lines.map((l) => [l.name, l.quantity])).toEqual([
        ['Gayo', 3],
        ['Java', 3],
      ]);
      expect((await getCart(db, storage, guest, 'en', 'EUR')).id).toBeNull();
    });

    it('gives the guest cart to a customer who has none, and keeps a cart when there is no guest cart', async () => {
      const userId = await newUser();
      const guest = await cartWith(java, 1);
      const { cartId } = await completeSignIn(db, { userId, previousSessionToken: null, guestCartId: guest });
      expect(cartId).toBe(guest);
      const again = await completeSignIn(db, { userId, previousSessionToken: null, guestCartId: null });
      expect(again.cartId).toBe(guest);
      const stranger = await newUser();
      expect((await completeSignIn(db, { userId: stranger, previousSessionToken: null, guestCartId: null })).cartId).toBeNull();
    });

    async function cartWith(productId: string, quantity: number) {
      const result = await addToCart(db, null, (await defaultVariantOf(db, productId))!, quantity);
      if (!result.ok) throw new Error('no product');
      return result.cartId;
    }
  });
});
