/**
 * What admins did, in order: who, what, to which thing (and what it was called then), when, and the details
 * (such as the old and new price). Written in the same transaction as the change it describes.
 */
import type { Executor } from '~/db/database.server';
import { monotonicNow } from '~/db/database.server';
import { newId } from '~/db/ids.server';

/** Who did it: an admin, or (id null) a payment provider acting on its own, such as a refund made in Stripe's dashboard. */
export type Actor = { id: string | null; email: string };

export type ActivityAction =
  | 'product.created'
  | 'product.updated'
  | 'product.deleted'
  | 'order.shipment'
  | 'order.shipped'
  | 'order.delivered'
  | 'order.cancelled'
  | 'order.refunded'
  | 'message.handled'
  | 'message.deleted'
  | 'review.replied'
  | 'review.hidden'
  | 'review.shown'
  | 'stock.mode'
  | 'stock.batch'
  | 'stock.corrected'
  | 'order.stock_short'
  | 'order.replaced'
  | 'delivery.changed'
  | 'currency.changed'
  | 'prices.proposed'
  | 'sale.created'
  | 'sale.ended'
  | 'sale.deleted'
  | 'code.created'
  | 'code.ended'
  | 'code.deleted'
  | 'tax.changed'
  | 'invoice.issued'
  | 'invoice.corrected'
  | 'invoice.ksef'
  | 'invoice.resent'
  | 'customer.exported'
  | 'customer.deleted';

export type ActivityEntry = {
  id: string;
  actorEmail: string;
  action: ActivityAction;
  subjectType: string;
  subjectId: string | null;
  subjectLabel: string;
  details: Record<string, unknown>;
  createdAt: string;
};

export async function recordActivity(
  db: Executor,
  actor: Actor,
  entry: { action: ActivityAction; subjectType: string; subjectId: string | null; subjectLabel: string; details?: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({
      id: newId(),
      actor_id: actor.id,
      actor_email: actor.email,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId,
      subject_label: entry.subjectLabel.slice(0, 200),
      details: JSON.stringify(entry.details ?? {}),
      created_at: monotonicNow(),
    })
    .execute();
}

/** The newest entries first, optionally about one subject. */
export async function listActivity(
  db: Executor,
  { subjectType, subjectId, limit = 50, offset = 0 }: { subjectType?: string; subjectId?: string; limit?: number; offset?: number } = {},
): Promise<ActivityEntry[]> {
  const rows = await db
    .selectFrom('activity_log')
    .selectAll()
    .$if(subjectType !== undefined, (qb) => qb.where('subject_type', '=', subjectType!))
    .$if(subjectId !== undefined, (qb) => qb.where('subject_id', '=', subjectId!))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    actorEmail: row.actor_email,
    action: row.action as ActivityAction,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    subjectLabel: row.subject_label,
    details: safeJson(row.details),
    createdAt: row.created_at,
  }));
}

export async function countActivity(db: Executor): Promise<number> {
  const row = await db.selectFrom('activity_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
