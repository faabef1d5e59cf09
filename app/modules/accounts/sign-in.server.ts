import { type Executor, inTransaction } from '~/db/database.server';
import { claimCart } from '~/modules/cart/index.server';
import { createSession, deleteSession } from './sessions.server';

/**
 * The one place a sign-in completes (password login, sign-up, OpenID Connect): the previous session ends
 * (the id rotates, so a session fixed before sign-in is worthless), a new one starts, and the guest cart is
 * merged into the customer's, all in one transaction. `cartId` is the customer's cart afterwards (or null).
 */
export async function completeSignIn(
  db: Executor,
  { userId, previousSessionToken, guestCartId, confirmed = false }: { userId: string; previousSessionToken: string | null; guestCartId: string | null; confirmed?: boolean },
): Promise<{ sessionToken: string; cartId: string | null }> {
  return inTransaction(db, async (trx) => {
    if (previousSessionToken) await deleteSession(trx, previousSessionToken);
    const sessionToken = await createSession(trx, userId, new Date(), { confirmed });
    const cartId = await claimCart(trx, guestCartId, userId);
    return { sessionToken, cartId };
  });
}
