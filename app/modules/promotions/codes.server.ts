/**
 * Discount codes in the database (docs/decisions/0026). A use is claimed when the order is made for payment —
 * by one guarded update of the code's counter, so a code with one use left goes to exactly one of any number of
 * checkouts at once, on any node — and held for as long as the order's stock is; it becomes used when the order
 * is paid, and is let go (the counter given back) when the order is replaced, abandoned or its hold runs out.
 */
import { type Selectable, sql } from 'kysely';
import type { DiscountCodesTable } from '~/db/schema';
import type { Executor } from '~/db/database.server';
import type { Currency } from '~/modules/pricing/currencies';
import { type CodeRule, type CodeScope, codeKinds, codeScopes, normalizeCode } from './codes';

type CodeRow = Selectable<DiscountCodesTable>;

const pair = (eur: number | null, pln: number | null): Record<Currency, number> | null => (eur === null || pln === null ? null : { EUR: Number(eur), PLN: Number(pln) });

export const toRule = (row: CodeRow, targets: string[]): CodeRule => ({
  id: row.id,
  code: row.code,
  kind: codeKinds.find((k) => k === row.kind) ?? 'percent',
  percent: row.percent === null ? null : Number(row.percent),
  amounts: pair(row.amount_cents, row.amount_pln),
  minimums: pair(row.min_cents, row.min_pln),
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  maxUses: row.max_uses === null ? null : Number(row.max_uses),
  maxPerCustomer: row.max_per_customer === null ? null : Number(row.max_per_customer),
  uses: Number(row.uses),
  scope: (codeScopes.find((s) => s === row.scope) ?? 'all') as CodeScope,
  targets,
  withSales: Number(row.with_sales) === 1,
  advertised: Number(row.advertised) === 1,
});

/** The code a shopper typed (trimmed, any case), or null when there is none such. */
export async function findCode(db: Executor, typed: unknown): Promise<CodeRule | null> {
  const code = normalizeCode(typed);
  if (!code) return null;
  const row = await db.selectFrom('discount_codes').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) return null;
  const targets = await db.selectFrom('discount_code_targets').select('target').where('code_id', '=', row.id).execute();
  return toRule(row, targets.map((t) => t.target));
}

/** Who a use is counted against: the account, else the email given at checkout. */
export const customerKey = (who: { userId: string | null; email: string }) => (who.userId ? `user:${who.userId}` : `email:${who.email.trim().toLowerCase()}`);

/** Uses of a code held now or made by this customer (by account or by email), other orders than `except`. */
export async function customerUses(db: Executor, codeId: string, who: { userId: string | null; email: string }, options: { except?: string; now?: Date } = {}): Promise<number> {
  return usesBy(db, codeId, { key: customerKey(who), email: who.email.trim().toLowerCase() }, options);
}

async function usesBy(db: Executor, codeId: string, who: { key: string; email: string }, { except, now = new Date() }: { except?: string; now?: Date }): Promise<number> {
  const row = await db
    .selectFrom('discount_code_uses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('code_id', '=', codeId)
    .where((eb) => eb.or([eb('customer', '=', who.key), eb('email', '=', who.email)]))
    .where((eb) => eb.or([eb('status', '=', 'used'), eb.and([eb('status', '=', 'held'), eb('expires_at', '>', now.toISOString())])]))
    .$if(except !== undefined, (qb) => qb.where('order_id', '<>', except!))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Uses of a code held now by this cart's pending orders (the cart's own, when it is priced again). */
export async function cartHeldUses(db: Executor, codeId: string, cartId: string, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom('discount_code_uses')
    .innerJoin('orders', 'orders.id', 'discount_code_uses.order_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('discount_code_uses.code_id', '=', codeId)
    .where('discount_code_uses.status', '=', 'held')
    .where('discount_code_uses.expires_at', '>', now.toISOString())
    .where('orders.cart_id', '=', cartId)
    .where('orders.payment_status', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export type ClaimOutcome = 'ok' | 'usedUp' | 'customerLimit';

/**
 * Claims a use of `rule` for the order (in the transaction that makes it), held until `expiresAt`. The counter
 * moves only while uses are left, in one statement: with one use left, one claim wins. An order that already
 * holds its use keeps it (its hold renewed).
 */
export async function claimCode(trx: Executor, rule: Pick<CodeRule, 'id' | 'maxPerCustomer'>, input: { orderId: string; userId: string | null; email: string; expiresAt: Date; now?: Date }): Promise<ClaimOutcome> {
  const now = input.now ?? new Date();
  const mine = await trx.selectFrom('discount_code_uses').select(['code_id', 'status']).where('order_id', '=', input.orderId).executeTakeFirst();
  if (mine && mine.code_id === rule.id && mine.status !== 'released') {
    await trx.updateTable('discount_code_uses').set({ expires_at: input.expiresAt.toISOString() }).where('order_id', '=', input.orderId).where('status', '=', 'held').execute();
    return 'ok';
  }
  if (rule.maxPerCustomer !== null) {
    // Counted under the code's row lock: two orders of one customer at the same moment both counted none before
    // either had written its use (PostgreSQL, read committed). The second now waits, then counts the first's.
    await lockCode(trx, rule.id);
    if ((await customerUses(trx, rule.id, input, { except: input.orderId, now })) >= rule.maxPerCustomer) return 'customerLimit';
  }
  if (!(await takeUse(trx, rule.id))) return 'usedUp';
  const row = { code_id: rule.id, customer: customerKey(input), email: input.email.trim().toLowerCase(), status: 'held', expires_at: input.expiresAt.toISOString(), created_at: now.toISOString() };
  if (mine) await trx.updateTable('discount_code_uses').set(row).where('order_id', '=', input.orderId).execute();
  else await trx.insertInto('discount_code_uses').values({ order_id: input.orderId, ...row }).execute();
  return 'ok';
}

/**
 * Takes the code's row lock until the transaction ends (an update that changes nothing): on PostgreSQL another
 * transaction's claim waits for this one to commit; SQLite has one writer at a time anyway.
 */
async function lockCode(trx: Executor, codeId: string): Promise<void> {
  await trx.updateTable('discount_codes').set((eb) => ({ uses: eb.ref('uses') })).where('id', '=', codeId).execute();
}

/** One use off the counter if one is left; false when the code is used up. */
async function takeUse(trx: Executor, codeId: string): Promise<boolean> {
  const result = await trx
    .updateTable('discount_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', codeId)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Lets the held uses of these orders go (replaced or abandoned): their codes get them back. */
export async function releaseCodeUses(trx: Executor, orderIds: readonly string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const held = await trx.selectFrom('discount_code_uses').select(['order_id', 'code_id']).where('order_id', 'in', [...orderIds]).where('status', '=', 'held').execute();
  return giveBack(trx, held);
}

/** Held uses whose hold ran out while their order was not paid: let go (each node's sweep). */
export async function releaseExpiredCodeUses(db: Executor, now = new Date()): Promise<number> {
  const held = await db.selectFrom('discount_code_uses').select(['order_id', 'code_id']).where('status', '=', 'held').where('expires_at', '<=', now.toISOString()).limit(500).execute();
  return giveBack(db, held, now);
}

/** Gives these held uses back; with `expiredBy`, only those still expired then (one renewed meanwhile stays). */
async function giveBack(db: Executor, held: ReadonlyArray<{ order_id: string; code_id: string }>, expiredBy?: Date): Promise<number> {
  let released = 0;
  for (const use of held) {
    // Only the statement that moves it from held gives its use back (two nodes' sweeps may meet here).
    const moved = await db
      .updateTable('discount_code_uses')
      .set({ status: 'released' })
      .where('order_id', '=', use.order_id)
      .where('status', '=', 'held')
      .$if(expiredBy !== undefined, (qb) => qb.where('expires_at', '<=', expiredBy!.toISOString()))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) continue;
    await db.updateTable('discount_codes').set((eb) => ({ uses: eb('uses', '-', 1) })).where('id', '=', use.code_id).where('uses', '>', 0).execute();
    released += 1;
  }
  return released;
}

/**
 * Before an order's payment starts again: its use is still held (renewed until `expiresAt`), made, or — let go
 * when its hold ran out — claimed again if a use is left. False: the code is gone and the order must be re-priced.
 */
export async function renewCodeUse(trx: Executor, orderId: string, expiresAt: Date, now = new Date()): Promise<boolean> {
  const use = await trx.selectFrom('discount_code_uses').select(['code_id', 'status', 'customer', 'email']).where('order_id', '=', orderId).executeTakeFirst();
  if (!use || use.status === 'used') return true;
  if (use.status === 'held') {
    const renewed = await trx.updateTable('discount_code_uses').set({ expires_at: expiresAt.toISOString() }).where('order_id', '=', orderId).where('status', '=', 'held').executeTakeFirst();
    if (Number(renewed.numUpdatedRows) === 1) return true;
  }
  // Let go (a sweep may just have done it): claimed again if a use is left, and if the customer has not used or
  // held it meanwhile through another order (under the code's lock, as a first claim is).
  const code = await trx.selectFrom('discount_codes').select('max_per_customer').where('id', '=', use.code_id).executeTakeFirst();
  if (code?.max_per_customer != null) {
    await lockCode(trx, use.code_id);
    if ((await usesBy(trx, use.code_id, { key: use.customer, email: use.email }, { except: orderId, now })) >= Number(code.max_per_customer)) return false;
  }
  if (!(await takeUse(trx, use.code_id))) return false;
  const taken = await trx.updateTable('discount_code_uses').set({ status: 'held', expires_at: expiresAt.toISOString() }).where('order_id', '=', orderId).where('status', '=', 'released').executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) await trx.updateTable('discount_codes').set((eb) => ({ uses: eb('uses', '-', 1) })).where('id', '=', use.code_id).where('uses', '>', 0).execute();
  return true;
}

/**
 * The order is paid: its use is made. One let go meanwhile (a bank that answered after the hold) is taken back
 * even past the limit — the customer paid the price they were shown; the log says so.
 */
export async function markCodeUsed(trx: Executor, orderId: string): Promise<'used' | 'overLimit' | null> {
  // Held: made, in one guarded statement (a sweep letting it go at the same moment finds it used).
  const made = await trx.updateTable('discount_code_uses').set({ status: 'used' }).where('order_id', '=', orderId).where('status', '=', 'held').executeTakeFirst();
  if (Number(made.numUpdatedRows) === 1) return 'used';
  const use = await trx.selectFrom('discount_code_uses').select(['code_id', 'status']).where('order_id', '=', orderId).executeTakeFirst();
  if (!use || use.status !== 'released') return null;
  const moved = await trx.updateTable('discount_code_uses').set({ status: 'used' }).where('order_id', '=', orderId).where('status', '=', 'released').executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return null;
  if (await takeUse(trx, use.code_id)) return 'used';
  await trx.updateTable('discount_codes').set((eb) => ({ uses: eb('uses', '+', 1) })).where('id', '=', use.code_id).execute();
  return 'overLimit';
}

/** How many uses a code has made (paid orders), for the owner. */
export const usedCount = (db: Executor, codeId: string) =>
  db
    .selectFrom('discount_code_uses')
    .select(sql<number>`count(*)`.as('n'))
    .where('code_id', '=', codeId)
    .where('status', '=', 'used')
    .executeTakeFirst()
    .then((r) => Number(r?.n ?? 0));
