/**
 * The owner's inbox: the contact messages, newest first, unread ones (not yet handled) counted for the
 * back office's navigation. Marking handled (or unread again) and deleting are recorded in the activity log.
 */
import { type Executor, inTransaction, now } from '~/db/database.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';

export const INBOX_PAGE_SIZE = 20;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

export type InboxMessage = {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  locale: string;
  createdAt: string;
  handledAt: string | null;
};

export async function listMessages(
  db: Executor,
  { unreadOnly = false, limit = INBOX_PAGE_SIZE, offset = 0 }: { unreadOnly?: boolean; limit?: number; offset?: number } = {},
): Promise<{ messages: InboxMessage[]; total: number }> {
  const base = db.selectFrom('contact_messages').$if(unreadOnly, (qb) => qb.where('handled_at', 'is', null));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    messages: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      subject: r.subject,
      message: r.message,
      locale: r.locale,
      createdAt: r.created_at,
      handledAt: r.handled_at,
    })),
  };
}

export async function countUnreadMessages(db: Executor): Promise<number> {
  const row = await db.selectFrom('contact_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('handled_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

export type InboxOutcome = { ok: true } | { ok: false; reason: 'not_found' };

/** Marks a message handled (`handled: false`: unread again). Repeating it changes nothing and logs nothing. */
export async function markMessage(db: Executor, actor: Actor, id: string, handled: boolean): Promise<InboxOutcome> {
  if (!idPattern.test(id)) return { ok: false, reason: 'not_found' };
  return inTransaction(db, async (trx) => {
    // Conditional, so two admins clicking at once make one change and one activity entry.
    const updated = await trx
      .updateTable('contact_messages')
      .set(handled ? { handled_at: now(), handled_by: actor.id } : { handled_at: null, handled_by: null })
      .where('id', '=', id)
      .where('handled_at', handled ? 'is' : 'is not', null)
      .returning('subject')
      .executeTakeFirst();
    if (!updated) {
      const exists = await trx.selectFrom('contact_messages').select('id').where('id', '=', id).executeTakeFirst();
      return exists ? ({ ok: true } as const) : ({ ok: false, reason: 'not_found' } as const);
    }
    if (handled) await recordActivity(trx, actor, { action: 'message.handled', subjectType: 'message', subjectId: id, subjectLabel: updated.subject });
    return { ok: true } as const;
  });
}

export async function deleteMessage(db: Executor, actor: Actor, id: string): Promise<InboxOutcome> {
  if (!idPattern.test(id)) return { ok: false, reason: 'not_found' };
  return inTransaction(db, async (trx) => {
    const row = await trx.deleteFrom('contact_messages').where('id', '=', id).returning(['subject', 'email']).executeTakeFirst();
    if (!row) return { ok: false, reason: 'not_found' } as const;
    await recordActivity(trx, actor, { action: 'message.deleted', subjectType: 'message', subjectId: id, subjectLabel: row.subject, details: { from: row.email } });
    return { ok: true } as const;
  });
}
