/**
 * The owner's register of invoices and corrections (the back office's invoices page): a month's documents with
 * their buyer, amount and where each stands with KSeF — sent by the shop (waiting, on its way, accepted with its
 * number, refused in KSeF's words, offline with its deadline) or outside it (the accounting software's, or a
 * consumer's) — and the refused invoice's fix: the buyer corrected, the same number sent again.
 */
import { type Executor, inTransaction } from '~/db/database.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { resendKsefSubmission } from '~/modules/ksef/index.server';
import { orderLabel } from '~/modules/orders/index.server';
import { addDays, shopDayOf, startOfShopDay } from '~/lib/shop-days';
import type { InvoiceBuyer } from './buyer';
import type { KsefFilter } from './ksef-filters';
import { getInvoice, rebuildKsefXml } from './invoices.server';
import { renderInvoicePdf } from './pdf.server';

const TIME_ZONE = 'Europe/Warsaw';

/** Where a document stands with KSeF. `outside`: not sent by the shop; `recorded`: a number the owner typed in. */
export type KsefStanding = 'outside' | 'recorded' | 'waiting' | 'queued' | 'unsure' | 'sent' | 'accepted' | 'refused';

export type RegisterEntry = {
  id: string;
  number: string;
  kind: 'invoice' | 'correction';
  orderId: string;
  orderLabel: string;
  issuedAt: string;
  buyerName: string;
  buyerTaxId: string;
  grossCents: number;
  currency: string;
  hasXml: boolean;
  standing: KsefStanding;
  ksefNumber: string | null;
  acceptedAt: string | null;
  offline: boolean;
  /** When it was handed to its buyer offline, with KOD II, before KSeF numbered it. */
  handedOverAt: string | null;
  /** The end of the next business day after issuing: when KSeF must have it (null once it has). */
  deadline: string | null;
  /** KSeF's code and words for a refusal (or the last failure to reach it). */
  errorCode: number | null;
  errorText: string | null;
  hasUpo: boolean;
  buyer: InvoiceBuyer;
};

/** A month's documents (YYYY-MM, Poland's time), newest first, optionally those standing one way with KSeF. */
export async function invoiceRegister(db: Executor, { month, filter }: { month: string; filter?: KsefFilter }): Promise<RegisterEntry[]> {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const start = startOfShopDay(`${month}-01`, TIME_ZONE).toISOString();
  const next = mon === 12 ? `${year + 1}-01-01` : `${year}-${String(mon + 1).padStart(2, '0')}-01`;
  const end = startOfShopDay(next, TIME_ZONE).toISOString();
  const rows = await db
    .selectFrom('invoices')
    .leftJoin('ksef_submissions as s', 's.invoice_id', 'invoices.id')
    .select((eb) => [
      'invoices.id',
      'invoices.number',
      'invoices.kind',
      'invoices.order_id',
      'invoices.issued_at',
      'invoices.buyer',
      'invoices.gross_cents',
      'invoices.currency',
      'invoices.ksef_number as recorded',
      eb('invoices.ksef_xml', 'is not', null).as('has_xml'),
      's.status',
      's.ksef_number',
      's.accepted_at',
      's.offline',
      's.handed_over_at',
      's.deadline',
      's.error_code',
      's.error_text',
      eb('s.upo', 'is not', null).as('has_upo'),
    ])
    .where('invoices.issued_at', '>=', start)
    .where('invoices.issued_at', '<', end)
    .where('invoices.purged_at', 'is', null)
    .orderBy('invoices.issued_at', 'desc')
    .orderBy('invoices.number', 'desc')
    .execute();
  const entries = rows.map((r): RegisterEntry => {
    const buyer = JSON.parse(r.buyer) as InvoiceBuyer;
    const status = r.status;
    const standing: KsefStanding = !status ? (r.recorded ? 'recorded' : 'outside') : (status as KsefStanding);
    return {
      id: r.id,
      number: r.number,
      kind: r.kind === 'correction' ? 'correction' : 'invoice',
      orderId: r.order_id,
      orderLabel: orderLabel(r.order_id),
      issuedAt: r.issued_at,
      buyerName: buyer.name,
      buyerTaxId: buyer.taxId,
      grossCents: Number(r.gross_cents),
      currency: r.currency,
      hasXml: Boolean(r.has_xml),
      standing,
      ksefNumber: r.ksef_number ?? r.recorded,
      acceptedAt: r.accepted_at,
      offline: Number(r.offline ?? 0) === 1 || (status !== null && status !== 'accepted' && r.deadline !== null && Date.now() > startOfNextDay(r.issued_at)),
      handedOverAt: r.handed_over_at,
      deadline: status && status !== 'accepted' ? r.deadline : null,
      errorCode: r.error_code === null ? null : Number(r.error_code),
      errorText: r.error_text,
      hasUpo: Boolean(r.has_upo),
      buyer,
    };
  });
  if (!filter) return entries;
  return entries.filter((e) =>
    filter === 'pending'
      ? e.standing === 'waiting' || e.standing === 'queued' || e.standing === 'unsure' || e.standing === 'sent'
      : filter === 'accepted'
        ? e.standing === 'accepted' || e.standing === 'recorded'
        : filter === 'refused'
          ? e.standing === 'refused'
          : filter === 'offline'
            ? e.offline && e.standing !== 'accepted'
            : e.standing === 'outside',
  );
}

/** The start of the day after `iso`'s day in Poland (an invoice not in KSeF by then is an offline one). */
const startOfNextDay = (iso: string) => startOfShopDay(addDays(shopDayOf(new Date(iso), TIME_ZONE), 1), TIME_ZONE).getTime();

export async function invoiceUpo(db: Executor, invoiceId: string): Promise<{ number: string; upo: string } | null> {
  const row = await db
    .selectFrom('ksef_submissions')
    .innerJoin('invoices', 'invoices.id', 'ksef_submissions.invoice_id')
    .select(['invoices.number', 'ksef_submissions.upo'])
    .where('ksef_submissions.invoice_id', '=', invoiceId)
    .where('ksef_submissions.status', '=', 'accepted')
    .executeTakeFirst();
  return row?.upo ? { number: row.number, upo: row.upo } : null;
}

export type ResendOutcome = { ok: true; number: string } | { ok: false; reason: 'not_found' | 'not_refused' | 'no_xml' };

/**
 * A refused invoice, its buyer corrected by the owner, sent again under the same number: KSeF never accepted it, so
 * it was never issued in law, and the document is made again from the same snapshot with the new buyer (its PDF
 * and XML). Only a refused one: an accepted invoice is changed by a correction, never sent twice. Logged.
 */
export async function resendRefusedInvoice(db: Executor, actor: Actor, input: { invoiceId: string; buyer: InvoiceBuyer }): Promise<ResendOutcome> {
  return inTransaction(db, async (trx): Promise<ResendOutcome> => {
    const submission = await trx.selectFrom('ksef_submissions').select('status').where('invoice_id', '=', input.invoiceId).executeTakeFirst();
    const invoice = await getInvoice(trx, input.invoiceId);
    if (!invoice || !submission) return { ok: false, reason: 'not_found' };
    if (submission.status !== 'refused') return { ok: false, reason: 'not_refused' };
    const fixed = { ...invoice, buyer: input.buyer };
    const row = await trx.selectFrom('invoices').select('ksef_xml').where('id', '=', invoice.id).executeTakeFirstOrThrow();
    // The document keeps the moment it was made (DataWytworzeniaFa): only the buyer changes.
    const createdAt = /<DataWytworzeniaFa>([^<]+)<\/DataWytworzeniaFa>/.exec(row.ksef_xml ?? '')?.[1];
    const xml = await rebuildKsefXml(trx, fixed, createdAt ? new Date(createdAt) : new Date(invoice.issuedAt));
    if (!xml) return { ok: false, reason: 'no_xml' };
    const pdf = await renderInvoicePdf(fixed);
    // The row is taken back from `refused` first: a second owner (another tab, another node) sending it again at the
    // same moment finds it queued already and changes nothing.
    if (!(await resendKsefSubmission(trx, { invoiceId: invoice.id, xml }))) return { ok: false, reason: 'not_refused' };
    await trx.updateTable('invoices').set({ buyer: JSON.stringify(input.buyer), ksef_xml: xml, pdf: pdf.toString('base64') }).where('id', '=', invoice.id).execute();
    await recordActivity(trx, actor, {
      action: 'invoice.resent',
      subjectType: 'order',
      subjectId: invoice.orderId,
      subjectLabel: orderLabel(invoice.orderId),
      details: { number: invoice.number, buyer: [invoice.buyer.name, input.buyer.name], taxId: [invoice.buyer.taxId, input.buyer.taxId] },
    });
    return { ok: true, number: invoice.number };
  });
}

export type KsefAttention = { refused: number; dueSoon: number; earliestDeadline: string | null };

/**
 * What the owner must see on the dashboard about KSeF: invoices KSeF refused (they are not issued until corrected)
 * and invoices not in KSeF yet whose offline deadline is less than a day away (or past).
 */
export async function ksefAttention(db: Executor, now = new Date()): Promise<KsefAttention> {
  const soon = new Date(now.getTime() + 24 * 3600_000).toISOString();
  const [refused, due] = await Promise.all([
    db.selectFrom('ksef_submissions').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'refused').executeTakeFirstOrThrow(),
    db
      .selectFrom('ksef_submissions')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('deadline').as('earliest')])
      .where('status', 'in', ['waiting', 'queued', 'unsure', 'sent'])
      .where('deadline', '<', soon)
      .executeTakeFirstOrThrow(),
  ]);
  return { refused: Number(refused.n), dueSoon: Number(due.n), earliestDeadline: Number(due.n) > 0 ? due.earliest : null };
}
