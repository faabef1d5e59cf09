/**
 * Invoices on their way to KSeF (docs/decisions/0034). Issuing an invoice queues it in the issuing transaction
 * (`ksef_submissions`, the mail outbox's exactly-once pattern); a worker claims due rows under a lease and moves
 * each along:
 *
 *   queued ──send──▶ unsure ──answer──▶ sent ──status 200 / 440──▶ accepted (KSeF number, UPO)
 *                      │                  └──status 4xx────────▶ refused (KSeF's code and words)
 *                      └─ no answer: before any resend, KSeF's list of the session's invoices is asked whether
 *                         one with this file's hash arrived; only if none did is it sent again (and a resend
 *                         that KSeF has after all is its 440, which names the original's KSeF number).
 *
 * A row is `unsure` in the database before the request leaves, so a SIGKILL between sending and recording the
 * answer is always found out, never resent blindly: one invoice, one KSeF number. A 429 or maintenance pauses
 * every node until KSeF's Retry-After; no answer at all is retried with back-off. An invoice issued on a day before
 * it reaches KSeF is sent with `offlineMode` (offline24), and must arrive by the end of the next business day.
 *
 * With the owner's offline KSeF certificate, an invoice KSeF has not accepted a minute after it was issued (KSeF
 * down, slow, or asking to wait) is handed to its buyer at once in the offline24 mode: its PDF with KOD I labelled
 * OFFLINE and KOD II signed with the certificate (`handOverOffline`). It is then offline in law, and goes to KSeF
 * with `offlineMode` whatever the day; the mail is not sent again when KSeF numbers it.
 */
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import { type DB, type Executor, databaseKind, inTransaction } from '~/db/database.server';
import type { KsefSubmissionsTable } from '~/db/schema';
import { shopDayOf } from '~/lib/shop-days';
import { type KsefApi, KsefError, type SessionInvoiceStatus } from './api.server';
import { type OfflineCertificate, certificateValidAt } from './certificate.server';
import type { KsefContext } from './context.server';
import { encryptedInvoice, sha256Base64, sha256Base64Url } from './crypto.server';
import { offlineDeadline } from './deadline';
import { certificateVerificationUrl, invoiceVerificationUrl } from './qr';

const TIME_ZONE = 'Europe/Warsaw';
/** How long a claim hides a row from other workers (a send and its first polls fit well inside). */
const LEASE_MS = 60_000;
/**
 * KSeF takes a moment to verify an invoice: a pass asks after 0.3 s, 1 s and 2 s more (KSeF allows 120 status
 * questions a minute); what is still being processed is asked about by the next pass.
 */
const POLL_DELAYS_MS = [300, 1_000, 2_000];
const POLL_MS = 1_000;
const FIRST_RETRY_MS = 5_000;
/** How soon a send that got no answer is looked for in KSeF's list of the session's invoices. */
const UNSURE_CHECK_MS = 2_000;
const MAX_RETRY_MS = 5 * 60_000;
/** Status codes of an invoice still being processed. */
const PROCESSING = new Set([100, 150]);
/** KSeF gave up on it itself (405: the session's error; 500: unknown; 550: cancelled by the system, "try again"): sent again. */
const TRY_AGAIN = new Set([405, 500, 550]);
/** How far KSeF's clock may be behind ours when matching a send to what the session received. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** A UPO KSeF has not made within a day is not asked for again (the owner has the KSeF number, which is what counts). */
const UPO_DAYS_MS = 24 * 3600_000;
/** How long a buyer waits for KSeF's number before, with an offline certificate, the invoice is handed over offline. */
export const HANDOVER_AFTER_MS = 60_000;

type Row = Selectable<KsefSubmissionsTable>;

/**
 * Queues an issued invoice for KSeF, in the issuing transaction. `waiting`: a correction whose invoice KSeF has
 * not accepted yet; it goes once that invoice has its number (releaseWaitingSubmission).
 */
export async function queueKsefSubmission(trx: Executor, input: { invoiceId: string; xml: string; issuedAt: string; waiting?: boolean }): Promise<void> {
  const at = new Date().toISOString();
  await trx
    .insertInto('ksef_submissions')
    .values({
      invoice_id: input.invoiceId,
      status: input.waiting ? 'waiting' : 'queued',
      next_attempt_at: at,
      invoice_hash: sha256Base64(input.xml),
      deadline: offlineDeadline(shopDayOf(new Date(input.issuedAt), TIME_ZONE)).toISOString(),
      offline_after: input.waiting ? null : handoverAt(),
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/**
 * Sends a refused invoice again once its document was corrected (the same number: KSeF never accepted it, so it
 * was never issued in law). Only a refused one; false for any other (an accepted invoice is never sent twice).
 */
export async function resendKsefSubmission(db: Executor, input: { invoiceId: string; xml: string }): Promise<boolean> {
  const at = new Date().toISOString();
  // One handed over offline stays an offline invoice: the corrected file goes as KSeF's technical correction of the
  // one the buyer holds (`hashOfCorrectedInvoice`), and the buyer is mailed the corrected document once accepted.
  const updated = await db
    .updateTable('ksef_submissions')
    .set({ status: 'queued', invoice_hash: sha256Base64(input.xml), next_attempt_at: at, claim_token: null, session_reference: null, invoice_reference: null, error_code: null, error_text: null, offline_after: handoverAt(), updated_at: at })
    .where('invoice_id', '=', input.invoiceId)
    .where('status', '=', 'refused')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** A waiting correction, its XML now naming its invoice's KSeF number, goes to KSeF. */
export async function releaseWaitingSubmission(trx: Executor, input: { invoiceId: string; xml: string }): Promise<void> {
  const at = new Date().toISOString();
  await trx.updateTable('ksef_submissions').set({ status: 'queued', invoice_hash: sha256Base64(input.xml), next_attempt_at: at, offline_after: handoverAt(), updated_at: at }).where('invoice_id', '=', input.invoiceId).where('status', '=', 'waiting').execute();
}

const handoverAt = () => new Date(Date.now() + HANDOVER_AFTER_MS).toISOString();

export function ksefRetryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/** Claims up to `limit` due rows for one worker (PostgreSQL skips rows another node is claiming). */
export async function claimDueSubmissions(db: DB, { now, limit, token }: { now: Date; limit: number; token: string }): Promise<Row[]> {
  const lease = { next_attempt_at: new Date(now.getTime() + LEASE_MS).toISOString(), claim_token: token };
  const due = (qb: typeof db) =>
    qb
      .selectFrom('ksef_submissions')
      .select('invoice_id')
      .where('status', 'in', ['queued', 'unsure', 'sent'])
      .where('next_attempt_at', '<=', now.toISOString())
      .orderBy('next_attempt_at')
      .orderBy('invoice_id')
      .limit(limit);
  const rows =
    databaseKind(db) === 'postgres'
      ? await db
          .with((cte) => cte('due').materialized(), (qb) => due(qb as typeof db).forUpdate().skipLocked())
          .updateTable('ksef_submissions')
          .from('due')
          .set(lease)
          .whereRef('ksef_submissions.invoice_id', '=', 'due.invoice_id')
          .where('ksef_submissions.status', 'in', ['queued', 'unsure', 'sent'])
          .returningAll('ksef_submissions')
          .execute()
      : await db.updateTable('ksef_submissions').set(lease).where('invoice_id', 'in', due(db)).where('status', 'in', ['queued', 'unsure', 'sent']).returningAll().execute();
  return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.invoice_id.localeCompare(b.invoice_id));
}

/**
 * `certificateUrl`: KOD II, when the invoice was handed to its buyer offline before KSeF numbered it. `mail`: the
 * buyer has not got this document yet (false for one handed over as it was accepted; true after a correction).
 */
export type AcceptedInvoice = { invoiceId: string; ksefNumber: string; verificationUrl: string; certificateUrl: string | null; mail: boolean };

/** An invoice handed to its buyer offline: its PDF carries KOD I (labelled OFFLINE) and KOD II. */
export type HandedOverInvoice = { invoiceId: string; verificationUrl: string; certificateUrl: string };

export type KsefDeps = {
  db: DB;
  api: KsefApi;
  context: KsefContext;
  log: Logger;
  /** Where KOD I points (kody-qr.md): the environment's QR address. */
  qrUrl: string;
  sellerNip: string;
  /** In the transaction that records the acceptance: the invoice's PDF with its QR code, its mail. */
  onAccepted?: (trx: Executor, accepted: AcceptedInvoice) => Promise<void>;
  /** The owner's offline certificate, and what handing an invoice over offline does (its PDF and mail), in the transaction that records it. */
  offline?: { certificate: OfflineCertificate; onHandedOver: (trx: Executor, handed: HandedOverInvoice) => Promise<void> };
};

export type PassOutcome = { handled: number; accepted: number; refused: number; pausedUntil?: Date };

/**
 * One pass of the worker: claims what is due, sends each (or finds out about an unsure one), then asks KSeF about
 * all of them together until each has its verdict or the pass has waited long enough. Stops early when KSeF asks to
 * wait or cannot be reached (the rest of the batch is released for later).
 */
export async function sendDueInvoices(deps: KsefDeps, { now = new Date(), limit = 20 }: { now?: Date; limit?: number } = {}): Promise<PassOutcome> {
  const outcome: PassOutcome = { handled: 0, accepted: 0, refused: 0 };
  // First, whether KSeF answers or not: invoices a buyer has waited long enough for go to them offline.
  await handOverOffline(deps, now).catch((error: unknown) => deps.log.error({ err: error }, 'handing invoices over offline failed'));
  const state = await deps.context.state();
  if (state.pausedUntil && state.pausedUntil > now) return { ...outcome, pausedUntil: state.pausedUntil };
  const token = randomBytes(12).toString('base64url');
  const rows = await claimDueSubmissions(deps.db, { now, limit, token });
  if (rows.length === 0) {
    // Nothing to send: a UPO still to fetch is fetched now.
    const missing = await deps.db.selectFrom('ksef_submissions').select('invoice_id').where('status', '=', 'accepted').where('upo', 'is', null).where('accepted_at', '>', new Date(Date.now() - UPO_DAYS_MS).toISOString()).limit(1).executeTakeFirst();
    if (missing) await fetchMissingUpos(deps, await deps.context.accessToken()).catch((error: unknown) => deps.log.warn({ err: error }, 'fetching UPOs from KSeF failed'));
    return outcome;
  }
  const stop = async (row: Row, rest: Row[], error: unknown) => {
    const wait = await failed(deps, row, token, error);
    // KSeF asked to wait, or is down: the rest of the batch goes back to the queue untouched.
    for (const other of rest) await release(deps.db, other, token, new Date(Date.now() + (wait ?? 0)));
    if (wait !== null) outcome.pausedUntil = new Date(Date.now() + wait);
  };
  let access: string;
  try {
    access = await deps.context.accessToken();
  } catch (error) {
    await stop(rows[0]!, rows.slice(1), error);
    return outcome;
  }
  // Every row to KSeF (or found there), one after another.
  const pending: Row[] = [];
  for (const [i, row] of rows.entries()) {
    try {
      pending.push(await toKsef(deps, row, token, access));
    } catch (error) {
      await stop(row, [...rows.slice(i + 1), ...pending], error);
      return outcome;
    }
  }
  // Their verdicts, asked for together: KSeF takes a moment over each.
  for (const delay of POLL_DELAYS_MS) {
    if (pending.length === 0) break;
    await new Promise((r) => setTimeout(r, delay));
    for (const row of [...pending]) {
      try {
        const verdict = await verdictOf(deps, row, token, access);
        if (verdict === 'processing') continue;
        pending.splice(pending.indexOf(row), 1);
        outcome.handled++;
        if (verdict === 'accepted') outcome.accepted++;
        else if (verdict === 'refused') outcome.refused++;
      } catch (error) {
        await stop(row, pending.filter((p) => p !== row), error);
        return outcome;
      }
    }
  }
  // Still being processed: asked about again shortly, by whichever worker is first.
  for (const row of pending) await release(deps.db, row, token, new Date(Date.now() + POLL_MS));
  await fetchMissingUpos(deps, access);
  return outcome;
}

/** UPOs KSeF had not made yet when their invoices were accepted, a few a pass (two nodes fetching one write the same). */
async function fetchMissingUpos(deps: KsefDeps, access: string): Promise<void> {
  const missing = await deps.db
    .selectFrom('ksef_submissions')
    .select(['invoice_id', 'session_reference', 'invoice_reference', 'ksef_number'])
    .where('status', '=', 'accepted')
    .where('upo', 'is', null)
    .where('session_reference', 'is not', null)
    .where('updated_at', '<', new Date(Date.now() - 2_000).toISOString())
    .where('accepted_at', '>', new Date(Date.now() - UPO_DAYS_MS).toISOString())
    .limit(5)
    .execute();
  for (const row of missing) {
    const upo = await (row.invoice_reference
      ? deps.api.invoiceUpo(access, row.session_reference!, row.invoice_reference)
      : deps.api.invoiceUpoByKsefNumber(access, row.session_reference!, row.ksef_number!)
    ).catch(() => null);
    if (upo) await deps.db.updateTable('ksef_submissions').set({ upo, updated_at: new Date().toISOString() }).where('invoice_id', '=', row.invoice_id).where('upo', 'is', null).execute();
    else await deps.db.updateTable('ksef_submissions').set({ updated_at: new Date().toISOString() }).where('invoice_id', '=', row.invoice_id).execute();
  }
}

const invoiceXmlOf = async (db: Executor, invoiceId: string) =>
  (await db.selectFrom('invoices').select(['ksef_xml', 'issued_at']).where('id', '=', invoiceId).executeTakeFirst()) ?? null;

/** Sends a queued row, or finds out what became of an unsure one (sending it again only if KSeF has none); the row as sent. */
async function toKsef(deps: KsefDeps, row: Row, token: string, access: string): Promise<Row> {
  const { db, api } = deps;
  let current = row;
  if (current.status === 'unsure') {
    // The last send got no answer: did KSeF receive it? Ask before anything is sent again.
    const arrived = current.session_reference ? await findInSession(api, access, current.session_reference, current.invoice_hash, current.sent_at) : null;
    if (arrived) {
      current = await mark(db, current, token, { status: 'sent', invoice_reference: arrived.referenceNumber });
      deps.log.info({ invoiceId: row.invoice_id }, 'KSeF had received the invoice whose answer was lost: not sent again');
    } else {
      current = await mark(db, current, token, { status: 'queued' });
    }
  }
  return current.status === 'queued' ? send(deps, current, token, access) : current;
}

/**
 * The session's invoice with this file's hash that this attempt sent: the latest such, and none KSeF received before
 * the attempt began (an earlier refused send of the same file is not this one).
 */
async function findInSession(api: KsefApi, access: string, session: string, hash: string, sentAt: string | null): Promise<SessionInvoiceStatus | null> {
  try {
    const since = sentAt ? Date.parse(sentAt) - CLOCK_SKEW_MS : -Infinity;
    const matches = (await api.sessionInvoices(access, session)).filter((i) => i.invoiceHash === hash && Date.parse(i.invoicingDate) >= since);
    return matches.sort((a, b) => b.ordinalNumber - a.ordinalNumber)[0] ?? null;
  } catch (error) {
    // A session KSeF no longer knows cannot be asked: sending again is then safe, a duplicate being KSeF's 440.
    if (error instanceof KsefError && error.kind === 'refused') return null;
    throw error;
  }
}

async function send(deps: KsefDeps, row: Row, token: string, access: string): Promise<Row> {
  const { db, api, context } = deps;
  const invoice = await invoiceXmlOf(db, row.invoice_id);
  if (!invoice?.ksef_xml) throw new Error(`invoice ${row.invoice_id} has no KSeF XML`);
  const session = await context.session(access);
  const issueDay = shopDayOf(new Date(invoice.issued_at), TIME_ZONE);
  // Issued on an earlier day, or already in the buyer's hands as an offline invoice (the claim keeps `row` current).
  const offline = issueDay < shopDayOf(new Date(), TIME_ZONE) || row.handed_over_at !== null;
  const unsure = await mark(db, row, token, {
    status: 'unsure',
    session_reference: session.reference,
    invoice_reference: null,
    sent_at: new Date().toISOString(),
    attempts: row.attempts + 1,
    offline: offline ? 1 : 0,
    // The file as it leaves now: what KSeF will list, and what KOD I hashes.
    invoice_hash: sha256Base64(invoice.ksef_xml),
  });
  try {
    // The buyer holds another file of this invoice (handed over, then refused and corrected): KSeF's technical correction.
    const corrects = row.handed_over_hash && row.handed_over_hash !== sha256Base64(invoice.ksef_xml) ? row.handed_over_hash : undefined;
    const sent = await api.sendInvoice(access, session.reference, { ...encryptedInvoice(session.key, invoice.ksef_xml), offlineMode: offline, ...(corrects ? { hashOfCorrectedInvoice: corrects } : {}) });
    return await mark(db, unsure, token, { status: 'sent', invoice_reference: sent.referenceNumber });
  } catch (error) {
    // KSeF answered, and did not take it (a refusal, a 401, a 429, 503 "unavailable": maintenance): nothing arrived,
    // so it is safe to send again (in a new session if this one is over). Any other failure leaves it unsure.
    const notTaken = error instanceof KsefError && (error.kind !== 'unavailable' || error.details.status === 503);
    if (notTaken) {
      await mark(db, unsure, token, { status: 'queued' });
      if ((error as KsefError).kind === 'refused') await context.forgetSession(session.reference);
    }
    throw error;
  }
}

/** Asks KSeF once about a sent row: accepted (its number and UPO kept), refused (KSeF's words kept), or still processing. */
async function verdictOf(deps: KsefDeps, row: Row, token: string, access: string): Promise<'accepted' | 'refused' | 'retry' | 'processing'> {
  const { db, api } = deps;
  const status = await api.invoiceStatus(access, row.session_reference!, row.invoice_reference!);
  const code = status.status.code;
  if (code === 200 && status.ksefNumber) {
    // The number is what matters in law: it is kept even when the UPO is not ready yet (fetched by a later pass).
    const upo = await api.invoiceUpo(access, row.session_reference!, row.invoice_reference!).catch((error: unknown) => {
      if (error instanceof KsefError && error.kind !== 'unauthorized') return null;
      throw error;
    });
    await accept(deps, row, token, status.ksefNumber, status.acquisitionDate ?? new Date().toISOString(), upo);
    return 'accepted';
  }
  if (code === 440) {
    // A duplicate of one KSeF accepted before: that one's number is this invoice's.
    const original = status.status.extensions as { originalKsefNumber?: string; originalSessionReferenceNumber?: string } | null | undefined;
    if (original?.originalKsefNumber && original.originalSessionReferenceNumber) {
      const upo = await api.invoiceUpoByKsefNumber(access, original.originalSessionReferenceNumber, original.originalKsefNumber).catch(() => null);
      await accept(deps, row, token, original.originalKsefNumber, status.acquisitionDate ?? new Date().toISOString(), upo);
      deps.log.warn({ invoiceId: row.invoice_id, ksefNumber: original.originalKsefNumber }, 'KSeF already had this invoice (440): its original number kept');
      return 'accepted';
    }
  }
  if (PROCESSING.has(code)) return 'processing';
  const words = [status.status.description, ...(status.status.details ?? [])].join(': ');
  if (TRY_AGAIN.has(code)) {
    await mark(db, row, token, { status: 'queued', error_code: code, error_text: words, claim_token: null, next_attempt_at: new Date(Date.now() + ksefRetryDelayMs(row.attempts || 1)).toISOString() });
    deps.log.warn({ invoiceId: row.invoice_id, code, description: words }, 'KSeF gave up on an invoice itself: it is sent again');
    return 'retry';
  }
  await mark(db, row, token, { status: 'refused', error_code: code, error_text: words, claim_token: null });
  deps.log.warn({ invoiceId: row.invoice_id, code, description: words }, 'KSeF refused an invoice');
  return 'refused';
}

async function accept(deps: KsefDeps, row: Row, token: string, ksefNumber: string, acceptedAt: string, upo: string | null): Promise<void> {
  const invoice = await invoiceXmlOf(deps.db, row.invoice_id);
  const verificationUrl = kodOne(deps, invoice);
  await inTransaction(deps.db, async (trx) => {
    const updated = await trx
      .updateTable('ksef_submissions')
      .set({ status: 'accepted', ksef_number: ksefNumber, accepted_at: acceptedAt, upo, verification_url: verificationUrl, error_code: null, error_text: null, claim_token: null, updated_at: new Date().toISOString() })
      .where('invoice_id', '=', row.invoice_id)
      .where('claim_token', '=', token)
      // Whether it was handed over offline, as committed now (a handover racing this one is either before or not at all).
      .returning(['handed_over_at', 'handed_over_hash', 'certificate_url'])
      .executeTakeFirst();
    if (!updated) throw new LostClaim(row.invoice_id);
    await trx.updateTable('invoices').set({ ksef_number: ksefNumber }).where('id', '=', row.invoice_id).execute();
    const handed = updated.handed_over_at !== null;
    const same = handed && updated.handed_over_hash === sha256Base64(invoice?.ksef_xml ?? '');
    // A corrected file of an invoice handed over is an offline one too: its own KOD II, if the certificate still signs.
    const certificateUrl = !handed ? null : same ? updated.certificate_url : kodTwo(deps, invoice?.ksef_xml ?? '', new Date());
    await deps.onAccepted?.(trx, { invoiceId: row.invoice_id, ksefNumber, verificationUrl, certificateUrl, mail: !same });
  });
}

/** KOD I hashes the file exactly as sent, and names the issue date the file gives (P_1). */
function kodOne(deps: Pick<KsefDeps, 'qrUrl' | 'sellerNip'>, invoice: { ksef_xml: string | null; issued_at: string } | null): string {
  const xml = invoice?.ksef_xml ?? '';
  const issueDate = /<P_1>(\d{4}-\d{2}-\d{2})<\/P_1>/.exec(xml)?.[1] ?? shopDayOf(new Date(invoice?.issued_at ?? Date.now()), TIME_ZONE);
  return invoiceVerificationUrl(deps.qrUrl, deps.sellerNip, issueDate, xml);
}

/** KOD II for this file, signed with the offline certificate; null without one valid at `at`. */
function kodTwo(deps: KsefDeps, xml: string, at: Date): string | null {
  const certificate = deps.offline?.certificate;
  if (!certificate || !certificateValidAt(certificate, at)) return null;
  return certificateVerificationUrl(deps.qrUrl, { contextNip: deps.sellerNip, sellerNip: deps.sellerNip, serialNumber: certificate.serialNumber, hashBase64Url: sha256Base64Url(xml) }, certificate.sign);
}

/**
 * Hands to their buyers the invoices KSeF has not accepted by their `offline_after` (docs/decisions/0034): each once,
 * whichever node is first, and none a worker is sending right now (its claim is respected; one still being checked
 * by KSeF, `sent`, waits for its verdict). The row's claim is cleared, so a worker whose lease lapsed cannot send it
 * as online afterwards. Nothing without an offline certificate valid today.
 */
export async function handOverOffline(deps: KsefDeps, now = new Date()): Promise<number> {
  const offline = deps.offline;
  if (!offline || !certificateValidAt(offline.certificate, now)) return 0;
  const due = await deps.db
    .selectFrom('ksef_submissions')
    .innerJoin('invoices', 'invoices.id', 'ksef_submissions.invoice_id')
    .select(['ksef_submissions.invoice_id', 'invoices.ksef_xml', 'invoices.issued_at'])
    .where('ksef_submissions.status', 'in', ['queued', 'unsure'])
    .where('ksef_submissions.handed_over_at', 'is', null)
    .where('ksef_submissions.offline_after', '<=', now.toISOString())
    .orderBy('ksef_submissions.offline_after')
    .limit(20)
    .execute();
  let handed = 0;
  for (const row of due) {
    if (!row.ksef_xml) continue;
    const verificationUrl = kodOne(deps, row);
    const certificateUrl = kodTwo(deps, row.ksef_xml, now)!;
    const at = new Date().toISOString();
    try {
      const took = await inTransaction(deps.db, async (trx) => {
        const updated = await trx
          .updateTable('ksef_submissions')
          .set({ handed_over_at: at, handed_over_hash: sha256Base64(row.ksef_xml!), offline: 1, verification_url: verificationUrl, certificate_url: certificateUrl, claim_token: null, updated_at: at })
          .where('invoice_id', '=', row.invoice_id)
          .where('status', 'in', ['queued', 'unsure'])
          .where('handed_over_at', 'is', null)
          // Still due, and still the file these codes name (not corrected and sent again since it was read).
          .where('offline_after', '<=', at)
          .where('invoice_hash', '=', sha256Base64(row.ksef_xml!))
          .where((eb) => eb.or([eb('claim_token', 'is', null), eb('next_attempt_at', '<=', at)]))
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return false;
        await offline.onHandedOver(trx, { invoiceId: row.invoice_id, verificationUrl, certificateUrl });
        return true;
      });
      if (took) {
        handed++;
        deps.log.warn({ invoiceId: row.invoice_id }, 'KSeF has not numbered an invoice in time: it was handed to its buyer offline (KOD II), and goes to KSeF when it answers');
      }
    } catch (error) {
      // One that cannot be handed over (its PDF, its mail) does not hold up the others: tried again later.
      deps.log.error({ err: error, invoiceId: row.invoice_id }, 'handing an invoice over offline failed');
      await deps.db.updateTable('ksef_submissions').set({ offline_after: new Date(Date.now() + ksefRetryDelayMs(1)).toISOString() }).where('invoice_id', '=', row.invoice_id).where('handed_over_at', 'is', null).execute();
    }
  }
  return handed;
}

class LostClaim extends Error {
  constructor(invoiceId: string) {
    super(`the claim on invoice ${invoiceId} lapsed while it was being sent`);
  }
}

/** Moves a row this worker holds; throws when the claim was lost (another worker took it over). */
async function mark(db: DB, row: Row, token: string, values: Partial<Omit<Row, 'invoice_id'>>): Promise<Row> {
  const updated = await db
    .updateTable('ksef_submissions')
    // Every step renews the claim (a send may take up to the API's timeout): no other worker takes a row in flight.
    .set({ next_attempt_at: new Date(Date.now() + LEASE_MS).toISOString(), ...values, updated_at: new Date().toISOString() })
    .where('invoice_id', '=', row.invoice_id)
    .where('claim_token', '=', token)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new LostClaim(row.invoice_id);
  return updated;
}

async function release(db: DB, row: Row, token: string, at: Date): Promise<void> {
  await db.updateTable('ksef_submissions').set({ claim_token: null, next_attempt_at: at.toISOString() }).where('invoice_id', '=', row.invoice_id).where('claim_token', '=', token).execute();
}

/** Records a failed step; the milliseconds every node should now wait (null: only this row waits). */
async function failed(deps: KsefDeps, row: Row, token: string, error: unknown): Promise<number | null> {
  const current = (await deps.db.selectFrom('ksef_submissions').selectAll().where('invoice_id', '=', row.invoice_id).executeTakeFirst()) ?? row;
  if (error instanceof LostClaim) return null;
  if (error instanceof KsefError) {
    if (error.kind === 'rate_limited' || (error.kind === 'unavailable' && error.details.retryAfterMs !== undefined)) {
      const wait = error.details.retryAfterMs ?? ksefRetryDelayMs(1);
      await deps.context.pause(new Date(Date.now() + wait));
      await release(deps.db, current, token, new Date(Date.now() + wait));
      deps.log.warn({ waitMs: wait }, `KSeF asked to wait: ${error.message}`);
      return wait;
    }
    if (error.kind === 'unauthorized') await deps.context.forgetAccess();
    // Sent without an answer: asked about soon (KSeF lists what it received at once), not after the back-off.
    const wait = current.status === 'unsure' ? UNSURE_CHECK_MS : ksefRetryDelayMs(current.attempts || 1);
    await deps.db
      .updateTable('ksef_submissions')
      .set({ claim_token: null, next_attempt_at: new Date(Date.now() + wait).toISOString(), error_text: error.message, error_code: error.details.code ?? null, updated_at: new Date().toISOString() })
      .where('invoice_id', '=', row.invoice_id)
      .where('claim_token', '=', token)
      .execute();
    deps.log.warn({ invoiceId: row.invoice_id, waitMs: wait }, `KSeF: ${error.message}`);
    return error.kind === 'unavailable' || error.kind === 'refused' ? wait : null;
  }
  await release(deps.db, current, token, new Date(Date.now() + ksefRetryDelayMs(current.attempts || 1)));
  deps.log.error({ err: error, invoiceId: row.invoice_id }, 'sending an invoice to KSeF failed');
  return null;
}
