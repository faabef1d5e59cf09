/**
 * The owner's discount codes (docs/decisions/0026): made, ended early (its end is now) or, before any order
 * used it, deleted; listed with what they did — uses, paid orders, what those orders brought in and what the
 * codes took off. Every change is in the activity log; an advertised code shows on product pages, so a change
 * moves the catalogue version.
 */
import { sql } from 'kysely';
import { type Executor, inTransaction } from '~/db/database.server';
import { isUniqueViolation } from '~/db/errors.server';
import { newId } from '~/db/ids.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { bumpStoredCatalogVersion, markCatalogChanged } from '~/modules/catalog/catalog-version.server';
import { type Currency, proposePrice } from '~/modules/pricing/currencies';
import { currencySettings } from '~/modules/pricing/settings.server';
import type { CodeInput } from './code-form';
import type { CodeRule } from './codes';
import { toRule } from './codes.server';
import { bumpPromotionsStamp } from './schedule.server';

export type CodeAdminOutcome = { ok: true; id: string } | { ok: false; error: 'taken' | 'notFound' | 'ended' | 'targets' };

export async function createCode(db: Executor, actor: Actor, input: CodeInput, now = new Date()): Promise<CodeAdminOutcome> {
  // Products it is for must exist.
  if (input.scope === 'products') {
    const found = await db.selectFrom('products').select('id').where('id', 'in', input.targets).execute();
    if (found.length !== input.targets.length) return { ok: false, error: 'targets' };
  }
  try {
    const id = await inTransaction(db, async (trx) => {
      const settings = await currencySettings(trx);
      const zloty = (euro: number | null, pln: number | null) => (euro === null ? null : (pln ?? proposePrice(euro, settings.rate, settings.rounding)));
      const id = newId();
      const at = now.toISOString();
      const amountPln = zloty(input.amountCents, input.amountPln);
      const minimumPln = zloty(input.minimumCents, input.minimumPln);
      await trx
        .insertInto('discount_codes')
        .values({
          id,
          code: input.code,
          kind: input.kind,
          percent: input.percent,
          amount_cents: input.amountCents,
          amount_pln: amountPln,
          min_cents: input.minimumCents,
          min_pln: minimumPln,
          starts_at: input.startsAt?.toISOString() ?? null,
          ends_at: input.endsAt?.toISOString() ?? null,
          max_uses: input.maxUses,
          max_per_customer: input.maxPerCustomer,
          scope: input.scope,
          with_sales: input.withSales ? 1 : 0,
          advertised: input.advertised ? 1 : 0,
          created_at: at,
          updated_at: at,
        })
        .execute();
      if (input.targets.length > 0) await trx.insertInto('discount_code_targets').values(input.targets.map((target) => ({ code_id: id, target }))).execute();
      await recordActivity(trx, actor, {
        action: 'code.created',
        subjectType: 'code',
        subjectId: id,
        subjectLabel: input.code,
        details: { kind: input.kind, percent: input.percent, amount: input.amountCents === null ? null : { EUR: input.amountCents, PLN: amountPln }, maxUses: input.maxUses, scope: input.scope, advertised: input.advertised },
      });
      await bumpPromotionsStamp(trx);
      if (input.advertised) await bumpStoredCatalogVersion(trx);
      return id;
    });
    if (input.advertised) markCatalogChanged();
    return { ok: true, id };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, error: 'taken' };
    throw error;
  }
}

/** Ends a code now; one no order has used or holds is deleted instead. */
export async function stopCode(db: Executor, actor: Actor, id: string, now = new Date()): Promise<CodeAdminOutcome> {
  const outcome = await inTransaction(db, async (trx): Promise<CodeAdminOutcome & { advertised?: boolean }> => {
    const row = await trx.selectFrom('discount_codes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return { ok: false, error: 'notFound' };
    const at = now.toISOString();
    if (row.ends_at !== null && row.ends_at <= at) return { ok: false, error: 'ended' };
    const used = await trx.selectFrom('discount_code_uses').select('order_id').where('code_id', '=', id).executeTakeFirst();
    if (used) {
      await trx.updateTable('discount_codes').set({ ends_at: at, updated_at: at }).where('id', '=', id).execute();
      await recordActivity(trx, actor, { action: 'code.ended', subjectType: 'code', subjectId: id, subjectLabel: row.code, details: { endsAt: [row.ends_at, at] } });
    } else {
      await trx.deleteFrom('discount_code_targets').where('code_id', '=', id).execute();
      await trx.deleteFrom('discount_codes').where('id', '=', id).execute();
      await recordActivity(trx, actor, { action: 'code.deleted', subjectType: 'code', subjectId: id, subjectLabel: row.code });
    }
    await bumpPromotionsStamp(trx);
    if (Number(row.advertised) === 1) await bumpStoredCatalogVersion(trx);
    return { ok: true, id, advertised: Number(row.advertised) === 1 };
  });
  if (outcome.ok && outcome.advertised) markCatalogChanged();
  return outcome.ok ? { ok: true, id } : outcome;
}

export type CodeStatus = 'running' | 'scheduled' | 'ended';
export type CodeListing = CodeRule & {
  status: CodeStatus;
  targetNames: string[];
  /** Uses made (paid orders), and held now by orders being paid. */
  used: number;
  held: number;
  /** What the paid orders with it brought in, and what it took off them, per currency. */
  revenue: Record<Currency, number>;
  discounted: Record<Currency, number>;
};

/** Every code: running first, then scheduled, then ended (newest first), with what it did. */
export async function listCodes(db: Executor, names: (scope: 'categories' | 'products', targets: string[]) => Promise<Map<string, string>>, now = new Date()): Promise<CodeListing[]> {
  const rows = await db.selectFrom('discount_codes').selectAll().orderBy('created_at', 'desc').limit(500).execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const at = now.toISOString();
  const [targets, uses, money] = await Promise.all([
    db.selectFrom('discount_code_targets').select(['code_id', 'target']).where('code_id', 'in', ids).execute(),
    db
      .selectFrom('discount_code_uses')
      .select(['code_id', 'status', sql<number>`count(*)`.as('n')])
      .where('code_id', 'in', ids)
      .where((eb) => eb.or([eb('status', '=', 'used'), eb.and([eb('status', '=', 'held'), eb('expires_at', '>', at)])]))
      .groupBy(['code_id', 'status'])
      .execute(),
    db
      .selectFrom('discount_code_uses')
      .innerJoin('orders', 'orders.id', 'discount_code_uses.order_id')
      .select(['discount_code_uses.code_id', 'orders.currency', sql<number>`sum(orders.total_cents - orders.refunded_cents)`.as('revenue'), sql<number>`sum(orders.discount_cents + orders.delivery_discount_cents)`.as('discounted')])
      .where('discount_code_uses.code_id', 'in', ids)
      .where('discount_code_uses.status', '=', 'used')
      .where('orders.payment_status', '=', 'succeeded')
      .groupBy(['discount_code_uses.code_id', 'orders.currency'])
      .execute(),
  ]);
  const listings = await Promise.all(
    rows.map(async (row): Promise<CodeListing> => {
      const mine = targets.filter((t) => t.code_id === row.id).map((t) => t.target);
      const rule = toRule(row, mine);
      const named = rule.scope === 'all' ? new Map<string, string>() : await names(rule.scope, mine);
      const count = (status: string) => Number(uses.find((u) => u.code_id === row.id && u.status === status)?.n ?? 0);
      const sum = (currency: Currency, key: 'revenue' | 'discounted') => Number(money.find((m) => m.code_id === row.id && m.currency === currency)?.[key] ?? 0);
      return {
        ...rule,
        status: row.ends_at !== null && row.ends_at <= at ? 'ended' : row.starts_at !== null && row.starts_at > at ? 'scheduled' : 'running',
        targetNames: mine.map((t) => named.get(t) ?? t),
        used: count('used'),
        held: count('held'),
        revenue: { EUR: sum('EUR', 'revenue'), PLN: sum('PLN', 'revenue') },
        discounted: { EUR: sum('EUR', 'discounted'), PLN: sum('PLN', 'discounted') },
      };
    }),
  );
  const order: Record<CodeStatus, number> = { running: 0, scheduled: 1, ended: 2 };
  return listings.sort((a, b) => order[a.status] - order[b.status]);
}
