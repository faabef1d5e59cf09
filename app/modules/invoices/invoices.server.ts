/**
 * Invoices (docs/decisions/0028): issued for a paid order — by the owner for any, by the customer for their own
 * within the legal window — once per order. Issuing allocates the next number of the series and year in the same
 * transaction that stores the invoice (one guarded counter update: no gaps, no repeats, on any number of nodes),
 * and stores a snapshot of everything it says; the PDF is rendered from that snapshot and kept as issued.
 */
import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import { type DB, type Executor, databaseKind, inTransaction, now } from '~/db/database.server';
import type { InvoicesTable } from '~/db/schema';
import { newId } from '~/db/ids.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { lineName } from '~/modules/catalog/variants';
import { getT, isLocale, type Locale } from '~/modules/i18n/index.server';
import { findOrderRecord, getOrderRecordLines, orderLabel, vatPartsOf } from '~/modules/orders/index.server';
import { type VatPart, sumByRate } from '~/modules/tax/index.server';
import { shopDayOf, startOfShopDay } from '~/lib/shop-days';
import { type InvoiceBuyer, invoiceWindowEnds, normalizeTaxId, nothingToInvoice } from './buyer';
import { type KsefMark, renderInvoicePdf } from './pdf.server';
import { type KsefCorrection, isKsefNumber, ksefEligible, ksefXml } from './ksef';
import type { ExchangeRates, NbpRate } from './nbp.server';
import { RATE_SCALE, currencySettings } from '~/modules/pricing/index.server';
import { type OutgoingMail, queueMail } from '~/modules/mail/index.server';
import { type AcceptedInvoice, type HandedOverInvoice, type KsefPolicy, ksefPolicy, qrLabel, queueKsefSubmission, releaseWaitingSubmission } from '~/modules/ksef/index.server';

export type Seller = { name: string; address: string; taxId: string; email?: string };
export type InvoiceLine = { name: string; sku: string | null; quantity: number; unitGrossCents: number; grossCents: number; netCents: number; vatCents: number; rateBp: number };
export type InvoiceTotals = {
  byRate: VatPart[];
  netCents: number;
  vatCents: number;
  grossCents: number;
  /** PLN per unit of a foreign currency, fixed when issued (a correction keeps its invoice's). */
  plnRate?: number;
  /** The NBP table `plnRate` comes from; absent when NBP could not be asked and the shop's own rate was used. */
  nbp?: { table: string; date: string };
  /** The country whose VAT the invoice charges when it is not Poland's (a consumer under OSS); absent for Polish VAT. */
  taxCountry?: string;
};
export type InvoicePayment = { provider: string; paidAt: string | null; reference: string | null };

export type Invoice = {
  id: string;
  number: string;
  series: string;
  kind: 'invoice' | 'correction';
  orderId: string;
  correctsNumber: string | null;
  /** When the corrected invoice was issued (a correction's). */
  correctsIssuedAt?: string | null;
  locale: Locale;
  currency: string;
  issuedAt: string;
  saleDate: string;
  seller: Seller;
  buyer: InvoiceBuyer;
  lines: InvoiceLine[];
  totals: InvoiceTotals;
  payment: InvoicePayment;
};

export const INVOICE_SERIES = { invoice: 'FV', correction: 'KOR' } as const;
const TIME_ZONE = 'Europe/Warsaw';

/** The shop's details an invoice needs; null when one is not configured (SHOP_LEGAL_NAME, SHOP_ADDRESS, SHOP_TAX_ID). */
/**
 * Why the shop's legal details issue no invoices although the owner set some of them: one of SHOP_LEGAL_NAME,
 * SHOP_ADDRESS and SHOP_TAX_ID is missing (`incomplete`), or the NIP fails its checksum (`taxId`). Null when they
 * make a seller, or when none is set (a shop that does not invoice). Said at start-up, on the tax page and the
 * dashboard: otherwise checkout would quietly stop offering invoices.
 */
export function sellerProblem(config: { legalName?: string; address?: string; taxId?: string }): 'incomplete' | 'taxId' | null {
  const given = [config.legalName, config.address, config.taxId].filter((v) => v && v.trim() !== '');
  if (given.length === 0) return null;
  if (given.length < 3) return 'incomplete';
  return sellerOf(config) ? null : 'taxId';
}

export function sellerOf(config: { legalName?: string; address?: string; taxId?: string; email?: string }): Seller | null {
  if (!config.legalName || !config.address || !config.taxId) return null;
  // The seller's NIP, as an invoice (and KSeF) must carry it: anything else issues no invoices.
  const taxId = normalizeTaxId(config.taxId, 'PL');
  if (!taxId.ok || !taxId.taxId) return null;
  return { name: config.legalName, address: config.address, taxId: taxId.taxId, email: config.email };
}

/**
 * The next number of a series in a year, in the caller's transaction: the counter row is created once, then moved
 * by one guarded update whose row lock (PostgreSQL) or write lock (SQLite) queues concurrent issuers, so every
 * number is given once and, the transaction committing with its invoice, none is skipped.
 */
export async function nextInvoiceNumber(trx: Executor, series: string, year: number): Promise<{ seq: number; number: string }> {
  await trx.insertInto('invoice_counters').values({ series, year, last: 0 }).onConflict((oc) => oc.columns(['series', 'year']).doNothing()).execute();
  const row = await trx
    .updateTable('invoice_counters')
    .set((eb) => ({ last: eb('last', '+', 1) }))
    .where('series', '=', series)
    .where('year', '=', year)
    .returning('last')
    .executeTakeFirstOrThrow();
  const seq = Number(row.last);
  return { seq, number: `${series}/${year}/${String(seq).padStart(5, '0')}` };
}

export type IssueOutcome =
  | { ok: true; invoice: Invoice }
  | { ok: false; reason: 'not_found' | 'not_paid' | 'already_issued' | 'window_closed' | 'seller_missing' | 'nothing_to_invoice' };

/**
 * Issues the invoice of a paid order for `buyer`, in the order's language: refused when the order has one, is not
 * paid, or — for a customer (`by.customer`) — the window has closed. The owner's issuing is logged.
 */
export async function issueInvoice(
  db: Executor,
  input: { orderId: string; buyer: InvoiceBuyer; seller: Seller | null; by: { admin: Actor } | { customer: string | null }; now?: Date; rates?: ExchangeRates },
): Promise<IssueOutcome> {
  if (!input.seller) return { ok: false, reason: 'seller_missing' };
  const seller = input.seller;
  const at = input.now ?? new Date();
  // A foreign currency's VAT in złoty at NBP's rate, asked before the transaction (no lock is held over the network).
  const before = input.rates ? await findOrderRecord(db, input.orderId) : null;
  const nbp = before && before.currency !== 'PLN' && before.paidAt ? await input.rates!.rateBefore(before.currency, new Date(before.paidAt)) : null;
  const outcome = await inTransaction(db, async (trx): Promise<IssueOutcome> => {
    const order = await findOrderRecord(trx, input.orderId);
    if (!order) return { ok: false, reason: 'not_found' };
    if ('customer' in input.by && order.userId !== input.by.customer) return { ok: false, reason: 'not_found' };
    if (order.paymentStatus !== 'succeeded' || !order.paidAt) return { ok: false, reason: 'not_paid' };
    const existing = await trx.selectFrom('invoices').select('id').where('order_id', '=', order.id).where('kind', '=', 'invoice').executeTakeFirst();
    if (existing) return { ok: false, reason: 'already_issued' };
    const state = await trx.selectFrom('orders').select(['delivered_at', 'refunded_cents']).where('id', '=', order.id).executeTakeFirstOrThrow();
    // Cancelled or refunded in full before it was invoiced: no invoice (it would be corrected to nothing at once).
    if (nothingToInvoice({ shippingStatus: order.shippingStatus, refundedCents: state.refunded_cents, totalCents: order.totalCents })) return { ok: false, reason: 'nothing_to_invoice' };
    if ('customer' in input.by && at >= invoiceWindowEnds(state.delivered_at ?? order.paidAt)) return { ok: false, reason: 'window_closed' };
    const locale: Locale = isLocale(order.locale) ? order.locale : 'en';
    const t = getT(locale);
    const orderLines = await getOrderRecordLines(trx, order.id);
    const lines: InvoiceLine[] = orderLines.map((l) => {
      const vat = l.vat ?? { rateBp: 0, grossCents: l.unitPriceCents * l.quantity - (l.discountCents ?? 0), netCents: l.unitPriceCents * l.quantity - (l.discountCents ?? 0), vatCents: 0 };
      return { name: lineName(l.title || t('orders.mail.unnamed'), l.label), sku: l.sku, quantity: l.quantity, unitGrossCents: l.unitPriceCents, grossCents: vat.grossCents, netCents: vat.netCents, vatCents: vat.vatCents, rateBp: vat.rateBp };
    });
    for (const part of order.deliveryVat) {
      const name = order.delivery ? t('delivery.deliveryVia', { method: t(`delivery.kinds.${order.delivery.kind}`) }) : t('delivery.delivery');
      lines.push({ name, sku: null, quantity: 1, unitGrossCents: part.grossCents, grossCents: part.grossCents, netCents: part.netCents, vatCents: part.vatCents, rateBp: part.rateBp });
    }
    const totals: InvoiceTotals = {
      ...totalsOf(lines),
      ...(order.currency === 'PLN' ? {} : await plnRateOf(trx, order.currency === before?.currency ? nbp : null)),
      ...(order.taxCountry && order.taxCountry !== 'PL' ? { taxCountry: order.taxCountry } : {}),
    };
    const year = Number(shopDayOf(at, TIME_ZONE).slice(0, 4));
    const { seq, number } = await nextInvoiceNumber(trx, INVOICE_SERIES.invoice, year);
    const invoice: Invoice = {
      id: newId(),
      number,
      series: INVOICE_SERIES.invoice,
      kind: 'invoice',
      orderId: order.id,
      correctsNumber: null,
      locale,
      currency: order.currency,
      issuedAt: at.toISOString(),
      saleDate: shopDayOf(new Date(order.paidAt), TIME_ZONE),
      seller,
      buyer: input.buyer,
      lines,
      totals,
      payment: { provider: order.paymentProvider, paidAt: order.paidAt, reference: order.paymentId },
    };
    // Rendered from the snapshot in the issuing transaction: an invoice never exists without its PDF and its mail.
    const pdf = await renderInvoicePdf(invoice);
    const policy = await ksefPolicy(trx);
    const xml = await ksefOf(trx, invoice, { taxCountry: order.taxCountry, createdAt: at, policy });
    await trx
      .insertInto('invoices')
      .values({
        id: invoice.id,
        number,
        series: invoice.series,
        year,
        seq,
        order_id: order.id,
        kind: 'invoice',
        corrects_id: null,
        refund_id: null,
        locale,
        currency: invoice.currency,
        issued_at: invoice.issuedAt,
        sale_date: invoice.saleDate,
        seller: JSON.stringify(seller),
        buyer: JSON.stringify(input.buyer),
        lines: JSON.stringify(lines),
        totals: JSON.stringify(totals),
        payment: JSON.stringify(invoice.payment),
        gross_cents: totals.grossCents,
        vat_cents: totals.vatCents,
        pdf: pdf.toString('base64'),
        ksef_xml: xml,
        ksef_number: null,
        created_by: 'admin' in input.by ? input.by.admin.id : null,
        created_at: now(),
      })
      .execute();
    // Sent to KSeF by the shop: the buyer's mail goes once KSeF has given the invoice its number (docs/decisions/0034).
    if (xml && policy.sends) await queueKsefSubmission(trx, { invoiceId: invoice.id, xml, issuedAt: invoice.issuedAt });
    else await queueMail(trx, invoiceMail(invoice, order.userEmail, pdf));
    if ('admin' in input.by) {
      await recordActivity(trx, input.by.admin, { action: 'invoice.issued', subjectType: 'order', subjectId: order.id, subjectLabel: orderLabel(order.id), details: { number, buyer: input.buyer.name, taxId: input.buyer.taxId } });
    }
    // Refunds made before the invoice are corrected at once.
    await issueCorrections(trx, order.id, at);
    return { ok: true, invoice };
  }).catch(async (error: unknown) => {
    // Two requests for one order at once: the unique index lets one through.
    if (await db.selectFrom('invoices').select('id').where('order_id', '=', input.orderId).where('kind', '=', 'invoice').executeTakeFirst()) return { ok: false, reason: 'already_issued' } as const;
    throw error;
  });
  return outcome;
}

/** The buyer's copy: the invoice as a PDF attachment, in the order's language. */
export function invoiceMail(invoice: Invoice, to: string, pdf: Buffer): OutgoingMail {
  const t = getT(invoice.locale);
  const label = invoice.orderId.slice(-6).toUpperCase();
  const text = [t('invoices.mail.greeting'), '', t(invoice.kind === 'correction' ? 'invoices.mail.correctionText' : 'invoices.mail.text', { number: invoice.number, label }), '', t('invoices.mail.footer'), ''].join('\n');
  return {
    to,
    subject: t(invoice.kind === 'correction' ? 'invoices.mail.correctionSubject' : 'invoices.mail.subject', { number: invoice.number, label }),
    text,
    attachments: [{ filename: invoiceFileName(invoice.number), contentType: 'application/pdf', base64: pdf.toString('base64') }],
  };
}

/**
 * The correcting invoices an invoiced order's refunds call for, each once (a unique index on the refund): one for
 * every refund that has succeeded and has none yet, in the correction series (KOR), pointing at the invoice, with
 * what was given back per VAT rate as negative lines (as the refund recorded it: docs/decisions/0027). Called in
 * the transaction that records or confirms a refund, and after an invoice is issued for an order refunded before.
 * Each is mailed to the buyer with its PDF.
 */
export async function issueCorrections(trx: Executor, orderId: string, at = new Date()): Promise<Invoice[]> {
  const invoiceRow = await trx
    .selectFrom('invoices')
    .select(['id', 'number', 'series', 'kind', 'order_id', 'corrects_id', 'locale', 'currency', 'issued_at', 'sale_date', 'seller', 'buyer', 'lines', 'totals', 'payment'])
    .where('order_id', '=', orderId)
    .where('kind', '=', 'invoice')
    .executeTakeFirst();
  if (!invoiceRow) return [];
  const refunds = await trx
    .selectFrom('refunds')
    .leftJoin('invoices', 'invoices.refund_id', 'refunds.id')
    .select(['refunds.id', 'refunds.amount_cents', 'refunds.tax', 'refunds.provider_refund_id', 'refunds.created_at'])
    .where('refunds.order_id', '=', orderId)
    .where('refunds.status', '=', 'succeeded')
    .where('invoices.id', 'is', null)
    .orderBy('refunds.created_at')
    .execute();
  if (refunds.length === 0) return [];
  const original = toInvoice(invoiceRow, null);
  const policy = await ksefPolicy(trx);
  // A correction goes to KSeF only once its invoice has a KSeF number to name (tryby-offline.md): until then it waits.
  // The invoice's submission is locked (PostgreSQL) before it is read, so KSeF's acceptance recorded by a worker at
  // this moment either comes first (and the correction names its number) or waits for this transaction (and then
  // releases the waiting correction): a correction is never left waiting for an acceptance that already happened.
  const inKsef = trx.selectFrom('ksef_submissions').select('status').where('invoice_id', '=', original.id);
  const originalInKsef = await (databaseKind(trx) === 'postgres' ? inKsef.forUpdate() : inKsef).executeTakeFirst();
  const waitsForOriginal = originalInKsef !== undefined && originalInKsef.status !== 'accepted';
  const invoiceKsefNumber = (await trx.selectFrom('invoices').select('ksef_number').where('id', '=', original.id).executeTakeFirst())?.ksef_number ?? null;
  const order = await findOrderRecord(trx, orderId);
  const t = getT(original.locale);
  const issued: Invoice[] = [];
  for (const refund of refunds) {
    const parts = vatPartsOf(refund.tax);
    const lines: InvoiceLine[] = (parts.length > 0 ? parts : [{ rateBp: 0, grossCents: Number(refund.amount_cents), netCents: Number(refund.amount_cents), vatCents: 0 }]).map((p) => ({
      name: t('invoices.pdf.refundLine', { number: original.number }),
      sku: null,
      quantity: 1,
      unitGrossCents: -p.grossCents,
      grossCents: -p.grossCents,
      netCents: -p.netCents,
      vatCents: -p.vatCents,
      rateBp: p.rateBp,
    }));
    // A correction keeps its invoice's rate, table and VAT country.
    const { plnRate, nbp, taxCountry } = original.totals;
    const totals: InvoiceTotals = { ...totalsOf(lines), ...(plnRate ? { plnRate } : {}), ...(nbp ? { nbp } : {}), ...(taxCountry ? { taxCountry } : {}) };
    const year = Number(shopDayOf(at, TIME_ZONE).slice(0, 4));
    const { seq, number } = await nextInvoiceNumber(trx, INVOICE_SERIES.correction, year);
    const correction: Invoice = {
      ...original,
      id: newId(),
      number,
      series: INVOICE_SERIES.correction,
      kind: 'correction',
      correctsNumber: original.number,
      correctsIssuedAt: original.issuedAt,
      issuedAt: at.toISOString(),
      saleDate: original.saleDate,
      lines,
      totals,
      payment: { provider: original.payment.provider, paidAt: refund.created_at, reference: refund.provider_refund_id },
    };
    const pdf = await renderInvoicePdf(correction);
    const xml = await ksefOf(trx, correction, {
      taxCountry: order?.taxCountry ?? null,
      createdAt: at,
      correction: correctionOf(original, invoiceKsefNumber, t('invoices.pdf.refundReason')),
      policy,
    });
    await trx
      .insertInto('invoices')
      .values({
        id: correction.id,
        number,
        series: correction.series,
        year,
        seq,
        order_id: orderId,
        kind: 'correction',
        corrects_id: original.id,
        refund_id: refund.id,
        locale: correction.locale,
        currency: correction.currency,
        issued_at: correction.issuedAt,
        sale_date: correction.saleDate,
        seller: JSON.stringify(correction.seller),
        buyer: JSON.stringify(correction.buyer),
        lines: JSON.stringify(lines),
        totals: JSON.stringify(totals),
        payment: JSON.stringify(correction.payment),
        gross_cents: totals.grossCents,
        vat_cents: totals.vatCents,
        pdf: pdf.toString('base64'),
        ksef_xml: xml,
        ksef_number: null,
        created_by: null,
        created_at: now(),
      })
      .execute();
    if (xml && policy.sends) await queueKsefSubmission(trx, { invoiceId: correction.id, xml, issuedAt: correction.issuedAt, waiting: waitsForOriginal });
    else if (order) await queueMail(trx, invoiceMail(correction, order.userEmail, pdf));
    await recordActivity(trx, { id: null, email: 'Kopi' }, { action: 'invoice.corrected', subjectType: 'order', subjectId: orderId, subjectLabel: orderLabel(orderId), details: { number, corrects: original.number, buyer: correction.buyer.name } });
    issued.push(correction);
  }
  return issued;
}

/**
 * Issues the corrections refunds call for — of one order, or of every invoiced order with a refund still without
 * one (the sweep) — each order in its own transaction, after the refund was recorded: a failure is logged and
 * tried again by the next sweep, never undoing a refund. Returns how many were issued.
 */
export async function correctRefundedInvoices(db: Executor, { orderId, log }: { orderId?: string; log?: Logger } = {}): Promise<number> {
  const orders = orderId
    ? [{ order_id: orderId }]
    : await db
        .selectFrom('refunds')
        .innerJoin('invoices as original', (join) => join.onRef('original.order_id', '=', 'refunds.order_id').on('original.kind', '=', 'invoice'))
        .leftJoin('invoices as correction', 'correction.refund_id', 'refunds.id')
        .select('refunds.order_id')
        .distinct()
        .where('refunds.status', '=', 'succeeded')
        .where('correction.id', 'is', null)
        .limit(50)
        .execute();
  let issued = 0;
  for (const { order_id } of orders) {
    try {
      issued += (await inTransaction(db, (trx) => issueCorrections(trx, order_id))).length;
    } catch (error) {
      log?.error({ err: error, orderId: order_id }, 'issuing a correcting invoice failed; the sweep tries again');
    }
  }
  return issued;
}

/** The złoty rate an invoice in a foreign currency is issued at: NBP's when known, else the shop's own (said so on it). */
async function plnRateOf(db: Executor, nbp: NbpRate | null): Promise<Pick<InvoiceTotals, 'plnRate' | 'nbp'>> {
  if (nbp) return { plnRate: nbp.mid, nbp: { table: nbp.table, date: nbp.date } };
  return { plnRate: (await currencySettings(db)).rate / RATE_SCALE };
}

export function totalsOf(lines: readonly InvoiceLine[]): InvoiceTotals {
  const byRate = sumByRate(lines.map((l) => ({ rateBp: l.rateBp, grossCents: l.grossCents, netCents: l.netCents, vatCents: l.vatCents })));
  return {
    byRate,
    netCents: byRate.reduce((sum, p) => sum + p.netCents, 0),
    vatCents: byRate.reduce((sum, p) => sum + p.vatCents, 0),
    grossCents: byRate.reduce((sum, p) => sum + p.grossCents, 0),
  };
}

/**
 * The invoice as KSeF's FA(3) XML, for a buyer with a Polish NIP (null for anyone else). A euro invoice states its
 * VAT in złoty (P_14_xW) at the rate it was issued with (KursWaluty): NBP's of the last working day before the
 * payment, or the shop's when NBP could not be asked (docs/decisions/0028). FA(3) has no field for the table.
 */
async function ksefOf(trx: Executor, invoice: Invoice, options: { taxCountry: string | null; createdAt: Date; correction?: KsefCorrection; policy: KsefPolicy }): Promise<string | null> {
  if (!ksefEligible(invoice) && !options.policy.consumerInvoices) return null;
  const plnRate = invoice.currency === 'PLN' ? 1 : (invoice.totals.plnRate ?? (await currencySettings(trx)).rate / RATE_SCALE);
  try {
    return ksefXml(invoice, { createdAt: options.createdAt, plnRate, taxCountry: options.taxCountry ?? undefined, correction: options.correction });
  } catch {
    // A document FA(3) cannot express (a Polish rate outside the act's, after an override): the invoice stands,
    // without XML; the owner's page shows no KSeF file for it.
    return null;
  }
}

const correctionOf = (original: Invoice, ksefNumber: string | null, reason: string): KsefCorrection => ({ number: original.number, issuedAt: original.issuedAt, ksefNumber, reason });

/**
 * KSeF accepted an invoice or a correction the shop sent (docs/decisions/0034), in the transaction that records
 * it: the PDF is rendered again from the same snapshot with KOD I and the KSeF number under it, kept, and mailed to
 * the buyer (the mail waited for this). A correction that waited for this invoice's number gets it in its XML and
 * goes to KSeF in turn.
 */
export async function invoiceAcceptedByKsef(trx: Executor, accepted: AcceptedInvoice): Promise<void> {
  const invoice = await getInvoice(trx, accepted.invoiceId);
  if (!invoice) return;
  // One handed over offline keeps its KOD II (it was issued offline) and was mailed then: not mailed twice, unless
  // the buyer holds another file of it (refused, corrected, sent as KSeF's technical correction).
  const pdf = await renderInvoicePdf(invoice, { url: accepted.verificationUrl, label: accepted.ksefNumber, certificateUrl: accepted.certificateUrl });
  await trx.updateTable('invoices').set({ pdf: pdf.toString('base64') }).where('id', '=', invoice.id).execute();
  const order = await findOrderRecord(trx, invoice.orderId);
  if (order && accepted.mail) await queueMail(trx, invoiceMail(invoice, order.userEmail, pdf));
  if (invoice.kind !== 'invoice') return;
  const waiting = await trx
    .selectFrom('invoices')
    .innerJoin('ksef_submissions', 'ksef_submissions.invoice_id', 'invoices.id')
    .select('invoices.id')
    .where('invoices.corrects_id', '=', invoice.id)
    .where('ksef_submissions.status', '=', 'waiting')
    .execute();
  const t = getT(invoice.locale);
  for (const { id } of waiting) {
    const correction = await getInvoice(trx, id);
    if (!correction) continue;
    const xml = await ksefOf(trx, correction, {
      taxCountry: order?.taxCountry ?? null,
      createdAt: new Date(correction.issuedAt),
      correction: correctionOf(invoice, accepted.ksefNumber, t('invoices.pdf.refundReason')),
      policy: { sends: true, consumerInvoices: true },
    });
    if (!xml) continue;
    await trx.updateTable('invoices').set({ ksef_xml: xml }).where('id', '=', id).execute();
    await releaseWaitingSubmission(trx, { invoiceId: id, xml });
  }
}

/**
 * KSeF has not numbered an invoice in time and the owner has an offline certificate (docs/decisions/0034): in the
 * transaction that records the handover, its PDF is rendered with KOD I labelled OFFLINE and KOD II, kept, and
 * mailed to the buyer — the invoice is theirs now, issued in KSeF's offline24 mode.
 */
export async function invoiceHandedOverOffline(trx: Executor, handed: HandedOverInvoice): Promise<void> {
  const invoice = await getInvoice(trx, handed.invoiceId);
  if (!invoice) return;
  const pdf = await renderInvoicePdf(invoice, { url: handed.verificationUrl, label: qrLabel(null), certificateUrl: handed.certificateUrl });
  await trx.updateTable('invoices').set({ pdf: pdf.toString('base64') }).where('id', '=', invoice.id).execute();
  const order = await findOrderRecord(trx, invoice.orderId);
  if (order) await queueMail(trx, invoiceMail(invoice, order.userEmail, pdf));
}

/**
 * An invoice's FA(3) XML made again from its snapshot (the buyer corrected after KSeF refused it): a correction
 * names its invoice's KSeF number as the database has it now. Null when FA(3) cannot express it.
 */
export async function rebuildKsefXml(trx: Executor, invoice: Invoice, createdAt: Date): Promise<string | null> {
  const order = await findOrderRecord(trx, invoice.orderId);
  let correction: KsefCorrection | undefined;
  if (invoice.kind === 'correction') {
    const original = await trx.selectFrom('invoices').select(['id']).where('order_id', '=', invoice.orderId).where('kind', '=', 'invoice').executeTakeFirst();
    const originalInvoice = original ? await getInvoice(trx, original.id) : null;
    if (!originalInvoice) return null;
    const number = (await trx.selectFrom('invoices').select('ksef_number').where('id', '=', originalInvoice.id).executeTakeFirst())?.ksef_number ?? null;
    correction = correctionOf(originalInvoice, number, getT(invoice.locale)('invoices.pdf.refundReason'));
  }
  return ksefOf(trx, invoice, { taxCountry: order?.taxCountry ?? null, createdAt, correction, policy: { sends: true, consumerInvoices: true } });
}

/** KOD I and the label under it, for an invoice KSeF has accepted (null for any other). */
async function ksefMarkOf(db: Executor, invoiceId: string): Promise<KsefMark | null> {
  const row = await db.selectFrom('ksef_submissions').select(['verification_url', 'ksef_number']).where('invoice_id', '=', invoiceId).where('status', '=', 'accepted').executeTakeFirst();
  return row?.verification_url && row.ksef_number ? { url: row.verification_url, label: row.ksef_number } : null;
}

/** Renders the invoice's PDF from its snapshot and keeps it, once (a PDF already kept stays as it is): for invoices issued before PDFs were kept with them. */
async function storePdf(db: Executor, invoice: Invoice): Promise<Buffer> {
  const pdf = await renderInvoicePdf(invoice, (await ksefMarkOf(db, invoice.id)) ?? undefined);
  await db.updateTable('invoices').set({ pdf: pdf.toString('base64') }).where('id', '=', invoice.id).where('pdf', 'is', null).execute();
  const kept = await db.selectFrom('invoices').select('pdf').where('id', '=', invoice.id).executeTakeFirst();
  return kept?.pdf ? Buffer.from(kept.pdf, 'base64') : pdf;
}

type InvoiceRow = Pick<Selectable<InvoicesTable>, 'id' | 'number' | 'series' | 'kind' | 'order_id' | 'corrects_id' | 'locale' | 'currency' | 'issued_at' | 'sale_date' | 'seller' | 'buyer' | 'lines' | 'totals' | 'payment'>;

function toInvoice(row: InvoiceRow, correctsNumber: string | null, correctsIssuedAt: string | null = null): Invoice {
  return {
    id: row.id,
    number: row.number,
    series: row.series,
    kind: row.kind === 'correction' ? 'correction' : 'invoice',
    orderId: row.order_id,
    correctsNumber,
    correctsIssuedAt,
    locale: isLocale(row.locale) ? row.locale : 'en',
    currency: row.currency,
    issuedAt: row.issued_at,
    saleDate: row.sale_date,
    seller: JSON.parse(row.seller) as Seller,
    buyer: JSON.parse(row.buyer) as InvoiceBuyer,
    lines: JSON.parse(row.lines) as InvoiceLine[],
    totals: JSON.parse(row.totals) as InvoiceTotals,
    payment: JSON.parse(row.payment) as InvoicePayment,
  };
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** An order's invoices and corrections, oldest first (the order's pages); a customer sees only their own order's. */
export type OrderInvoiceEntry = {
  id: string;
  number: string;
  kind: 'invoice' | 'correction';
  issuedAt: string;
  grossCents: number;
  currency: string;
  /** It has FA(3) XML. */
  ksef: boolean;
  ksefNumber: string | null;
  /** Where it stands when the shop sends it to KSeF (waiting, queued, unsure, sent, accepted, refused); null when the shop does not. */
  ksefStatus: string | null;
  /** KSeF's code and its own words for a refusal. */
  ksefErrorCode: number | null;
  ksefErrorText: string | null;
  /** When it was handed to its buyer offline, with KOD II, before KSeF numbered it. */
  ksefHandedOverAt: string | null;
  buyerName: string;
  buyerTaxId: string;
};

export async function listOrderInvoices(db: Executor, orderId: string): Promise<OrderInvoiceEntry[]> {
  if (!idPattern.test(orderId)) return [];
  const rows = await db
    .selectFrom('invoices')
    .leftJoin('ksef_submissions as s', 's.invoice_id', 'invoices.id')
    .select((eb) => ['invoices.id', 'invoices.number', 'invoices.kind', 'invoices.issued_at', 'invoices.gross_cents', 'invoices.currency', 'invoices.ksef_number', 'invoices.buyer', 's.status', 's.error_code', 's.error_text', 's.handed_over_at', eb('invoices.ksef_xml', 'is not', null).as('ksef')])
    .where('invoices.order_id', '=', orderId)
    .orderBy('invoices.issued_at')
    .orderBy('invoices.seq')
    .execute();
  return rows.map((r) => {
    const buyer = JSON.parse(r.buyer) as InvoiceBuyer;
    return {
      id: r.id,
      number: r.number,
      kind: r.kind === 'correction' ? 'correction' : 'invoice',
      issuedAt: r.issued_at,
      grossCents: Number(r.gross_cents),
      currency: r.currency,
      ksef: Boolean(r.ksef),
      ksefNumber: r.ksef_number,
      ksefStatus: r.status,
      ksefErrorCode: r.error_code === null ? null : Number(r.error_code),
      ksefErrorText: r.status === 'refused' ? r.error_text : null,
      ksefHandedOverAt: r.handed_over_at,
      buyerName: buyer.name,
      buyerTaxId: buyer.taxId,
    };
  });
}

export type RecordKsefOutcome = { ok: true; number: string } | { ok: false; reason: 'invalid' | 'not_found' | 'sent_by_shop' };

/**
 * The number KSeF gave an invoice once the owner sent its XML through KSeF's own tools: kept with the invoice (the
 * document itself does not change), so a later correction's XML refers to it (NrKSeFFaKorygowanej). Only for this
 * order's invoices that have KSeF XML and are not purged; a mistyped one may be replaced; every change is logged.
 */
export async function recordKsefNumber(db: DB, actor: Actor, input: { orderId: string; invoiceId: string; ksefNumber: string }): Promise<RecordKsefOutcome> {
  const ksefNumber = input.ksefNumber.trim().toUpperCase();
  if (!isKsefNumber(ksefNumber)) return { ok: false, reason: 'invalid' };
  if (!idPattern.test(input.invoiceId) || !idPattern.test(input.orderId)) return { ok: false, reason: 'not_found' };
  return inTransaction(db, async (trx): Promise<RecordKsefOutcome> => {
    const invoice = await trx
      .selectFrom('invoices')
      .select(['number', 'ksef_number'])
      .where('id', '=', input.invoiceId)
      .where('order_id', '=', input.orderId)
      .where('ksef_xml', 'is not', null)
      .where('purged_at', 'is', null)
      .executeTakeFirst();
    if (!invoice) return { ok: false, reason: 'not_found' };
    // The shop sends this one itself (or has sent it): its number is KSeF's answer, never typed in. One the shop
    // queued but never sent, before the owner handed sending to the accounting software, takes the typed number.
    const submission = await trx.selectFrom('ksef_submissions').select('status').where('invoice_id', '=', input.invoiceId).executeTakeFirst();
    if (submission && (['unsure', 'sent', 'accepted'].includes(submission.status) || (await ksefPolicy(trx)).sends)) return { ok: false, reason: 'sent_by_shop' };
    if (submission) await trx.deleteFrom('ksef_submissions').where('invoice_id', '=', input.invoiceId).execute();
    if (invoice.ksef_number === ksefNumber) return { ok: true, number: invoice.number };
    await trx.updateTable('invoices').set({ ksef_number: ksefNumber }).where('id', '=', input.invoiceId).execute();
    await recordActivity(trx, actor, { action: 'invoice.ksef', subjectType: 'order', subjectId: input.orderId, subjectLabel: orderLabel(input.orderId), details: { number: invoice.number, ksefNumber: [invoice.ksef_number, ksefNumber] } });
    return { ok: true, number: invoice.number };
  });
}

/**
 * An invoice's PDF as issued, for the owner (`{ admin: true }`) or the customer whose order it is; null for
 * anything else, and for one purged at the end of its retention. One whose PDF was never kept (the process stopped right after issuing) is rendered and kept now.
 */
export async function invoicePdf(db: Executor, invoiceId: string, who: { admin: true }): Promise<{ number: string; pdf: Buffer } | null>;
export async function invoicePdf(db: Executor, invoiceId: string, who: { admin: true } | { userId: string }): Promise<{ number: string; pdf: Buffer } | { number: string; pending: true } | null>;
export async function invoicePdf(db: Executor, invoiceId: string, who: { admin: true } | { userId: string }): Promise<{ number: string; pdf: Buffer } | { number: string; pending: true } | null> {
  if (!idPattern.test(invoiceId)) return null;
  const row = await db
    .selectFrom('invoices')
    .innerJoin('orders', 'orders.id', 'invoices.order_id')
    .leftJoin('ksef_submissions as s', 's.invoice_id', 'invoices.id')
    .select(['invoices.id', 'invoices.number', 'invoices.pdf', 'invoices.corrects_id', 'invoices.purged_at', 'orders.user_id', 's.status', 's.handed_over_at'])
    .where('invoices.id', '=', invoiceId)
    .executeTakeFirst();
  // Past its retention the document is gone for good (docs/decisions/0029): never rebuilt from what is left.
  if (!row || row.purged_at !== null || ('userId' in who && row.user_id !== who.userId)) return null;
  // Not the buyer's before KSeF has given it its number, or it was handed over offline (the owner sees it as issued).
  if ('userId' in who && kept(row)) return { number: row.number, pending: true };
  if (row.pdf) return { number: row.number, pdf: Buffer.from(row.pdf, 'base64') };
  const invoice = await getInvoice(db, invoiceId);
  return invoice ? { number: row.number, pdf: await storePdf(db, invoice) } : null;
}

export async function getInvoice(db: Executor, invoiceId: string): Promise<Invoice | null> {
  if (!idPattern.test(invoiceId)) return null;
  const row = await db
    .selectFrom('invoices')
    .select(['id', 'number', 'series', 'kind', 'order_id', 'corrects_id', 'locale', 'currency', 'issued_at', 'sale_date', 'seller', 'buyer', 'lines', 'totals', 'payment'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!row) return null;
  const corrects = row.corrects_id ? await db.selectFrom('invoices').select(['number', 'issued_at']).where('id', '=', row.corrects_id).executeTakeFirst() : undefined;
  return toInvoice(row, corrects?.number ?? null, corrects?.issued_at ?? null);
}

/** An invoice's KSeF XML as issued, for the owner; null when it has none (a buyer without a Polish NIP). */
export async function invoiceXml(db: Executor, invoiceId: string): Promise<{ number: string; xml: string } | null> {
  if (!idPattern.test(invoiceId)) return null;
  const row = await db.selectFrom('invoices').select(['number', 'ksef_xml']).where('id', '=', invoiceId).executeTakeFirst();
  return row?.ksef_xml ? { number: row.number, xml: row.ksef_xml } : null;
}

/** Every KSeF XML issued in a month (YYYY-MM, shop time), oldest first: the owner's batch for KSeF's own tools. */
export async function monthKsefXml(db: Executor, month: string): Promise<Array<{ number: string; xml: string }>> {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const start = startOfShopDay(`${month}-01`, TIME_ZONE).toISOString();
  const end = startOfShopDay(m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`, TIME_ZONE).toISOString();
  const rows = await db.selectFrom('invoices').select(['number', 'ksef_xml']).where('issued_at', '>=', start).where('issued_at', '<', end).where('ksef_xml', 'is not', null).orderBy('issued_at').orderBy('series').orderBy('seq').execute();
  return rows.map((r) => ({ number: r.number, xml: r.ksef_xml! }));
}

/** "FV/2026/00042" as a file name: "FV-2026-00042.pdf". */
export const invoiceFileName = (number: string) => `${number.replace(/\//g, '-')}.pdf`;

/** Invoices' numbers of one order for My Orders (orders without one are absent). */
/**
 * A customer's orders' documents. `pending`: the shop sends it to KSeF and KSeF has not given it its number yet;
 * until it has, the document is not handed out (it reaches the buyer by mail once it has, with its QR code).
 */
export async function invoicesByOrder(db: Executor, orderIds: string[]): Promise<Map<string, Array<{ id: string; number: string; kind: 'invoice' | 'correction'; pending: boolean }>>> {
  const out = new Map<string, Array<{ id: string; number: string; kind: 'invoice' | 'correction'; pending: boolean }>>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .selectFrom('invoices')
    .leftJoin('ksef_submissions as s', 's.invoice_id', 'invoices.id')
    .select(['invoices.id', 'invoices.number', 'invoices.kind', 'invoices.order_id', 's.status', 's.handed_over_at'])
    .where('invoices.order_id', 'in', orderIds)
    .where('invoices.purged_at', 'is', null)
    .orderBy('invoices.issued_at')
    .orderBy('invoices.seq')
    .execute();
  for (const r of rows) {
    const entry = { id: r.id, number: r.number, kind: r.kind === 'correction' ? ('correction' as const) : ('invoice' as const), pending: kept(r) };
    out.set(r.order_id, [...(out.get(r.order_id) ?? []), entry]);
  }
  return out;
}

/** Sent to KSeF by the shop and not the buyer's yet: KSeF has not numbered it, and it was not handed over offline. */
const kept = (row: { status: string | null; handed_over_at: string | null }) => row.status !== null && row.status !== 'accepted' && row.handed_over_at === null;

/** For a customer's order: whether they may still ask for its invoice, and until when. */
export function invoiceWindow(order: { paidAt: string | null; deliveredAt: string | null }, at = new Date()): { open: boolean; endsAt: string | null } {
  if (!order.paidAt) return { open: false, endsAt: null };
  const ends = invoiceWindowEnds(order.deliveredAt ?? order.paidAt);
  return { open: at < ends, endsAt: ends.toISOString() };
}

