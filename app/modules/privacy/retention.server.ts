/**
 * The retention job (docs/decisions/0029): once a day, on one node, removes what the shop no longer needs —
 * expired sessions and reset links, abandoned guest carts and checkouts never paid, analytics events and the
 * consents behind them past their months, handled messages past their days, the text of sent mail after its
 * days (and the rest of its record after a year), and strips orders and invoices past their tax retention.
 *
 * One node a day: a node claims the day by moving `job_runs.day` forward in one guarded update; the others see
 * the day taken and do nothing. A run that dies half-way is simply the next day's work: every step is idempotent.
 */
import type { Logger } from 'pino';
import type { Retention } from '~/config/env.server';
import { type DB, type Executor, inTransaction } from '~/db/database.server';
import { pruneAccountData } from '~/modules/accounts/index.server';
import { anonymiseOrders } from './erase.server';
import { MAIL_LOG_DAYS, OSS_YEARS, daysBefore, monthsBefore, ossCutoff, taxCutoff } from './periods';

export const RETENTION_JOB = 'retention';

export type RetentionReport = {
  sessions: number;
  resetTokens: number;
  carts: number;
  unpaidOrders: number;
  analyticsEvents: number;
  consents: number;
  messages: number;
  mailBodies: number;
  mailRecords: number;
  orders: number;
  invoices: number;
};

/** Runs the job if no node has run it today (UTC); null when another node has. */
export async function runDailyRetention(db: DB, retention: Retention, { now = new Date(), log }: { now?: Date; log?: Logger } = {}): Promise<RetentionReport | null> {
  if (!(await claimDay(db, RETENTION_JOB, now))) return null;
  const report = await applyRetention(db, retention, now);
  await db.updateTable('job_runs').set({ finished_at: new Date().toISOString(), result: JSON.stringify(report) }).where('name', '=', RETENTION_JOB).execute();
  log?.info({ retention: report }, 'retention job done');
  return report;
}

/** True for the one caller that moves the job's day to today. */
export async function claimDay(db: Executor, name: string, now: Date): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  const started = new Date().toISOString();
  // The first run ever: one node inserts the row (the others' inserts do nothing and then find the day taken).
  await db.insertInto('job_runs').values({ name, day: '0000-00-00', started_at: null, finished_at: null, result: null }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const claimed = await db.updateTable('job_runs').set({ day, started_at: started }).where('name', '=', name).where('day', '<', day).executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** Every step, at `now`. Safe to run twice: the second finds nothing left to do. */
export async function applyRetention(db: DB, retention: Retention, now: Date): Promise<RetentionReport> {
  const at = now.toISOString();
  const accounts = await pruneAccountData(db, now);

  const cartsBefore = daysBefore(now, retention.cartDays).toISOString();
  const carts = await db.deleteFrom('carts').where('user_id', 'is', null).where('updated_at', '<', cartsBefore).executeTakeFirst();
  // A checkout never paid: nothing is owed, nothing to tax; who tried to buy is not kept.
  const unpaid = await inSlices(
    () =>
      db
        .selectFrom('orders')
        .select('id')
        .where('payment_status', '<>', 'succeeded')
        .where('paid_at', 'is', null)
        .where('created_at', '<', cartsBefore)
        .where('anonymised_at', 'is', null)
        .limit(SLICE)
        .execute(),
    (ids) => inTransaction(db, (trx) => anonymiseOrders(trx, ids, at, 'retention')),
  );

  const eventsBefore = monthsBefore(now, retention.analyticsMonths).toISOString();
  const events = await db.deleteFrom('analytics_events').where('created_at', '<', eventsBefore).executeTakeFirst();
  // A choice is the proof behind the events that followed it (until the visitor's next choice): it goes once it
  // is old and no event it covers is left — events themselves go at the same age.
  const consents = await db
    .deleteFrom('consents')
    .where('created_at', '<', eventsBefore)
    .where((eb) =>
      eb.or([
        eb('visitor_id', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('analytics_events')
              .select('analytics_events.id')
              .whereRef('analytics_events.visitor_id', '=', 'consents.visitor_id')
              .whereRef('analytics_events.created_at', '>=', 'consents.created_at')
              .where((inner) =>
                inner.not(
                  inner.exists(
                    inner
                      .selectFrom('consents as newer')
                      .select('newer.id')
                      .whereRef('newer.visitor_id', '=', 'consents.visitor_id')
                      .whereRef('newer.created_at', '>', 'consents.created_at')
                      .whereRef('newer.created_at', '<=', 'analytics_events.created_at'),
                  ),
                ),
              ),
          ),
        ),
      ]),
    )
    .executeTakeFirst();

  const messages = await db.deleteFrom('contact_messages').where('handled_at', 'is not', null).where('handled_at', '<', daysBefore(now, retention.messageDays).toISOString()).executeTakeFirst();

  const mailRecords = await db.deleteFrom('mail_outbox').where('status', '=', 'sent').where('sent_at', '<', daysBefore(now, MAIL_LOG_DAYS).toISOString()).executeTakeFirst();
  // The last delivery error goes with the text: a refused recipient's is about them (their address, masked or not).
  const mailBodies = await db
    .updateTable('mail_outbox')
    .set({ text_body: '', html_body: null, attachments: null, reply_to: null, last_error: null })
    .where('status', '=', 'sent')
    .where('sent_at', '<', daysBefore(now, retention.mailDays).toISOString())
    .where((eb) => eb.or([eb('text_body', '<>', ''), eb('html_body', 'is not', null), eb('attachments', 'is not', null), eb('reply_to', 'is not', null), eb('last_error', 'is not', null)]))
    .executeTakeFirst();

  // Paid orders: the end of the year their tax fell due plus its years (a December sale's is due in January); OSS
  // sales at least 10 from the end of the year of the sale — and never sooner than a domestic sale of the same day.
  const taxBefore = taxCutoff(now, retention.taxYears).toISOString();
  const ossBefore = [ossCutoff(now, Math.max(retention.taxYears, OSS_YEARS)).toISOString(), taxBefore].sort()[0]!;
  const orders = await inSlices(
    () =>
      db
        .selectFrom('orders')
        .select('id')
        .where('paid_at', 'is not', null)
        .where('anonymised_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb.and([eb('paid_at', '<', taxBefore), eb.or([eb('tax_country', 'is', null), eb('tax_country', '=', 'PL')])]),
            eb('paid_at', '<', ossBefore),
          ]),
        )
        .limit(SLICE)
        .execute(),
    (ids) => inTransaction(db, (trx) => anonymiseOrders(trx, ids, at, 'retention')),
  );
  // Invoices: issued before the same moment (a correction changes the VAT of the month it is issued in) lose their
  // documents and buyer; number and amounts stay.
  const invoices = await db
    .updateTable('invoices')
    .set({ pdf: null, ksef_xml: null, buyer: '{}', purged_at: at })
    .returning('order_id')
    .where('purged_at', 'is', null)
    .where('issued_at', '<', taxBefore)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.id', '=', 'invoices.order_id').where('orders.tax_country', '<>', 'PL').where('orders.paid_at', '>=', ossBefore))))
    .execute();
  await forgetInvoiceBuyers(db, [...new Set(invoices.map((i) => i.order_id))]);
  // Their KSeF receipts (UPO) go with them; the KSeF number stays with the invoice.
  await db.updateTable('ksef_submissions').set({ upo: null }).where('upo', 'is not', null).where('invoice_id', 'in', (eb) => eb.selectFrom('invoices').select('id').where('purged_at', '=', at)).execute();

  return {
    sessions: accounts.sessions,
    resetTokens: accounts.resetTokens,
    carts: Number(carts.numDeletedRows),
    unpaidOrders: unpaid,
    analyticsEvents: Number(events.numDeletedRows),
    consents: Number(consents.numDeletedRows),
    messages: Number(messages.numDeletedRows),
    mailBodies: Number(mailBodies.numUpdatedRows),
    mailRecords: Number(mailRecords.numDeletedRows),
    orders,
    invoices: invoices.length,
  };
}

const SLICE = 500;

/** The activity log's entries of purged invoices keep their numbers, not their buyers' names and tax numbers. */
async function forgetInvoiceBuyers(db: Executor, orderIds: string[]): Promise<void> {
  for (let i = 0; i < orderIds.length; i += SLICE) {
    const entries = await db
      .selectFrom('activity_log')
      .select(['id', 'details'])
      .where('subject_type', '=', 'order')
      .where('subject_id', 'in', orderIds.slice(i, i + SLICE))
      .where('action', 'in', ['invoice.issued', 'invoice.corrected'])
      .execute();
    for (const entry of entries) {
      const details = JSON.parse(entry.details) as Record<string, unknown>;
      delete details.buyer;
      delete details.taxId;
      await db.updateTable('activity_log').set({ details: JSON.stringify(details) }).where('id', '=', entry.id).execute();
    }
  }
}

/** Takes ids a slice at a time until none are left (each slice its own transaction: no long lock on a big day). */
async function inSlices(next: () => Promise<{ id: string }[]>, work: (ids: string[]) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = (await next()).map((row) => row.id);
    if (ids.length === 0) return total;
    const done = await work(ids);
    total += done;
    // Nothing changed although rows were found: stop rather than loop (another node took them meanwhile).
    if (done === 0) return total;
  }
}
