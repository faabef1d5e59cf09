/**
 * The owner's look-up for requests that come by mail: accounts whose address contains what was typed, and — for a
 * whole address with no account — what the shop keeps under it from guest checkouts and forms.
 */
import { sql } from 'kysely';
import type { Executor } from '~/db/database.server';
import { escapeLike } from '~/db/search.server';

export type CustomerMatch = {
  /** Null: no account, only records kept under the address. */
  userId: string | null;
  email: string;
  name: string;
  isAdmin: boolean;
  createdAt: string | null;
  orders: number;
};

const MAX_MATCHES = 20;
const likePattern = (text: string) => `%${escapeLike(text)}%`;

export async function findCustomers(db: Executor, query: string): Promise<CustomerMatch[]> {
  const text = query.trim().toLowerCase();
  if (text.length < 3) return [];
  const accounts = await db
    .selectFrom('users')
    .select(['users.id', 'users.email', 'users.display_name', 'users.is_admin', 'users.created_at'])
    .select((eb) => eb.selectFrom('orders').select(eb.fn.countAll<number>().as('n')).whereRef('orders.user_id', '=', 'users.id').as('orders'))
    .where('users.deleted_at', 'is', null)
    .where(sql<boolean>`users.email like ${likePattern(text)} escape '\\'`)
    .orderBy('users.email')
    .limit(MAX_MATCHES)
    .execute();
  const matches: CustomerMatch[] = accounts.map((a) => ({
    userId: a.id,
    email: a.email,
    name: a.display_name,
    isAdmin: Number(a.is_admin) === 1,
    createdAt: a.created_at,
    orders: Number(a.orders ?? 0),
  }));
  if (matches.some((m) => m.email === text) || !/^[^\s@]+@[^\s@]+$/.test(text)) return matches;
  // A whole address without an account: a guest's orders, messages or back-in-stock requests.
  const guestOrders = await db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where(sql<string>`lower(user_email)`, '=', text).executeTakeFirstOrThrow();
  const other = await db.selectFrom('contact_messages').select('id').where(sql<string>`lower(email)`, '=', text).unionAll(db.selectFrom('stock_alerts').select('id').where(sql<string>`lower(email)`, '=', text)).executeTakeFirst();
  if (Number(guestOrders.n) > 0 || other) matches.unshift({ userId: null, email: text, name: '', isAdmin: false, createdAt: null, orders: Number(guestOrders.n) });
  return matches;
}
