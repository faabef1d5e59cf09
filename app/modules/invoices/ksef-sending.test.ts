/**
 * Invoices the shop sends to KSeF itself (docs/decisions/0034), against the KSeF stand-in (tests/doubles/ksef.js):
 * issuing queues a business invoice in its transaction and holds its mail; KSeF's acceptance puts the number and
 * KOD I on the PDF (read back with pdftotext, the QR code decoded from the rendered page) and sends the mail; a
 * refund's correction waits for its invoice's number and then names it; the buyer gets nothing before KSeF has
 * numbered it; a consumer's invoice stays outside KSeF; a number cannot be typed over KSeF's; with an offline
 * certificate, an invoice KSeF does not number in time goes to its buyer offline with KOD I and a signed KOD II.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { X509Certificate, constants, createHash, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { type PaymentServices, payWithCard, startPayment } from '~/modules/checkout/index.server';
import { cancelOrder } from '~/modules/fulfilment/index.server';
import { createKsefApi, createKsefContext, handOverOffline, recordKsefPolicy, sendDueInvoices } from '~/modules/ksef/index.server';
import { readOfflineCertificate } from '~/modules/ksef/certificate.server';
import { TEST_CARDS, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { address, courier, createCoffee, createUser, fillCart } from '../../../tests/fixtures/shop';
import { spawnStandIn } from '../../../tests/doubles/spawn';
import { makeOfflineCertificate } from '../../../tests/fixtures/offline-certificate';
import { qrCodeOnPdf, qrCodesOnPdf } from '../../../tests/fixtures/qr';
import { type InvoiceBuyer, invoiceAcceptedByKsef, invoiceHandedOverOffline, invoicePdf, issueInvoice, listOrderInvoices, recordKsefNumber, sellerOf } from './index.server';
import { invoiceRegister, ksefAttention, resendRefusedInvoice } from './register.server';

const PORT = 3461 + Number(process.env.VITEST_POOL_ID ?? 0);
const baseUrl = `http://127.0.0.1:${PORT}/v2`;
const QR = 'https://qr-test.ksef.mf.gov.pl';
const log = pino({ level: 'silent' });
const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const seller = sellerOf({ legalName: 'Kopi Palarnia sp. z o.o.', address: 'ul. Mokotowska 12\n00-640 Warszawa', taxId: '5260250274', email: 'sklep@kopi.test' })!;
const cafe: InvoiceBuyer = { name: 'Kawiarnia Ziarno sp. z o.o.', taxId: '7250018200', country: 'PL', address: 'ul. Piotrkowska 100', zipCode: '90-004', city: 'Łódź' };
const TOKEN = `20261204-EC-0123456789-ABCDEF0123-4F|nip-${seller.taxId}|${'c'.repeat(64)}`;

let standIn: ChildProcess;
const certificateFiles = makeOfflineCertificate();
const certificate = readOfflineCertificate({ certificate: certificateFiles.certificate, key: certificateFiles.key }, (file) => readFileSync(file, 'utf8'));
beforeAll(async () => {
  standIn = await spawnStandIn('ksef.js', PORT);
});
afterAll(() => {
  standIn.kill();
  certificateFiles.remove();
});
const mode = (body: object) => fetch(`http://127.0.0.1:${PORT}/__mode`, { method: 'POST', body: JSON.stringify(body) });

const textOf = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString().replace(/[\u00a0\u202f]/g, ' ');

describe.each(testDatabases())('invoices through KSeF on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let services: PaymentServices;
  const api = createKsefApi({ baseUrl, limitScale: 10 });
  const deps = (offline = false) => ({
    db,
    api,
    context: createKsefContext({ db, api, baseUrl, nip: seller.taxId, token: TOKEN, log }),
    log,
    qrUrl: QR,
    sellerNip: seller.taxId,
    onAccepted: invoiceAcceptedByKsef,
    offline: offline ? { certificate, onHandedOver: invoiceHandedOverOffline } : undefined,
  });
  const send = (offline = false) => sendDueInvoices(deps(offline));

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    services = { db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test', kickMail: () => {} };
    await recordKsefPolicy(db, { sender: 'kopi', consumerInvoices: false });
    // Each database numbers its invoices from 1: KSeF would take the second FV/…/00001 for a duplicate (440).
    await fetch(`http://127.0.0.1:${PORT}/__reset`, { method: 'POST' });
  });
  afterAll(() => handle.close());

  async function paidOrder(name: string) {
    const user = await createUser(db);
    const coffee = await createCoffee(db, name, 2460);
    const cartId = await fillCart(db, user.id, [[coffee, 2]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address, delivery: courier });
    if (!started.ok) throw new Error(started.reason);
    expect(await payWithCard(services, { userId: user.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
    return { userId: user.id, orderId: started.orderId };
  }
  const mailsAbout = (number: string) => db.selectFrom('mail_outbox').select(['subject', 'attachments']).where('subject', 'like', `%${number}%`).orderBy('created_at').execute();
  const submission = (invoiceId: string) => db.selectFrom('ksef_submissions').selectAll().where('invoice_id', '=', invoiceId).executeTakeFirstOrThrow();

  it('a business invoice waits for KSeF: then its PDF names the KSeF number under a QR code that decodes to KOD I, and only then is it mailed', async () => {
    const o = await paidOrder('Kawa do KSeF');
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { customer: o.userId } });
    if (!issued.ok) throw new Error(issued.reason);
    const number = issued.invoice.number;
    expect(await submission(issued.invoice.id)).toMatchObject({ status: 'queued' });
    expect(await mailsAbout(number)).toEqual([]);
    // The buyer gets nothing before KSeF has numbered it; the owner sees it as issued.
    expect(await invoicePdf(db, issued.invoice.id, { userId: o.userId })).toEqual({ number, pending: true });
    expect((await listOrderInvoices(db, o.orderId))[0]).toMatchObject({ ksefStatus: 'queued', buyerName: cafe.name, buyerTaxId: cafe.taxId });

    expect(await send()).toMatchObject({ accepted: 1 });
    const row = await submission(issued.invoice.id);
    const xml = (await db.selectFrom('invoices').select('ksef_xml').where('id', '=', issued.invoice.id).executeTakeFirstOrThrow()).ksef_xml!;
    const issueDay = /<P_1>(\d{4})-(\d{2})-(\d{2})<\/P_1>/.exec(xml)!;
    const kod = `${QR}/invoice/${seller.taxId}/${issueDay[3]}-${issueDay[2]}-${issueDay[1]}/${createHash('sha256').update(xml).digest('base64url')}`;
    expect(row.verification_url).toBe(kod);

    const mails = await mailsAbout(number);
    expect(mails).toHaveLength(1);
    const pdf = Buffer.from((JSON.parse(mails[0]!.attachments!) as Array<{ base64: string }>)[0]!.base64, 'base64');
    expect(textOf(pdf)).toContain(row.ksef_number!);
    expect(textOf(pdf)).toContain('Weryfikacja w KSeF');
    expect(qrCodeOnPdf(pdf)).toBe(kod);
    const file = await invoicePdf(db, issued.invoice.id, { userId: o.userId });
    expect(file && 'pdf' in file && file.pdf.equals(pdf)).toBe(true);
    // KSeF's number stands: it cannot be typed over.
    expect(await recordKsefNumber(db, owner, { orderId: o.orderId, invoiceId: issued.invoice.id, ksefNumber: '5260250274-20261128-0A1B2C3D4E5F-F7' })).toEqual({ ok: false, reason: 'sent_by_shop' });
  }, 60_000);

  it("a refund's correction waits until its invoice has a KSeF number, then names it and goes", async () => {
    const o = await paidOrder('Kawa zwrócona');
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner } });
    if (!issued.ok) throw new Error(issued.reason);
    expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toMatchObject({ ok: true });
    const correction = (await listOrderInvoices(db, o.orderId)).find((i) => i.kind === 'correction')!;
    expect(await submission(correction.id)).toMatchObject({ status: 'waiting' });
    // The invoice goes first; its acceptance releases the correction with the number in its XML.
    await send();
    const invoiceNumber = (await submission(issued.invoice.id)).ksef_number!;
    const released = await db.selectFrom('invoices').select('ksef_xml').where('id', '=', correction.id).executeTakeFirstOrThrow();
    expect(released.ksef_xml).toContain(`<NrKSeFFaKorygowanej>${invoiceNumber}</NrKSeFFaKorygowanej>`);
    expect(await submission(correction.id)).toMatchObject({ status: 'queued' });
    expect(await send()).toMatchObject({ accepted: 1 });
    expect(await submission(correction.id)).toMatchObject({ status: 'accepted' });
    expect(await mailsAbout(correction.number)).toHaveLength(1);
    // In the owner's register both are in KSeF with their numbers.
    const month = new Date().toISOString().slice(0, 7);
    const register = await invoiceRegister(db, { month, filter: 'accepted' });
    expect(register.filter((e) => e.orderId === o.orderId).map((e) => [e.kind, e.standing])).toEqual([
      ['correction', 'accepted'],
      ['invoice', 'accepted'],
    ]);
  }, 60_000);

  it('refused for its buyer, the owner corrects the buyer and the same number is accepted; only a refused one may be sent again', async () => {
    await fetch(`http://127.0.0.1:${PORT}/__refuse-buyer`, { method: 'POST', body: JSON.stringify({ nip: cafe.taxId }) });
    const o = await paidOrder('Kawa odrzucona');
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner } });
    if (!issued.ok) throw new Error(issued.reason);
    expect(await send()).toMatchObject({ refused: 1 });
    const month = new Date().toISOString().slice(0, 7);
    const [refused] = (await invoiceRegister(db, { month, filter: 'refused' })).filter((e) => e.id === issued.invoice.id);
    expect(refused).toMatchObject({ standing: 'refused', errorCode: 450 });
    expect(refused!.errorText).toContain(`Nabywca o numerze NIP ${cafe.taxId} nie jest zarejestrowany jako podatnik VAT czynny`);
    // The dashboard says so.
    expect(await ksefAttention(db)).toMatchObject({ refused: 1 });
    await fetch(`http://127.0.0.1:${PORT}/__refuse-buyer`, { method: 'POST', body: '{}' });
    const fixed = { ...cafe, taxId: '5213017228', name: 'Kawiarnia Ziarno S.A.' };
    expect(await resendRefusedInvoice(db, owner, { invoiceId: issued.invoice.id, buyer: fixed })).toEqual({ ok: true, number: issued.invoice.number });
    expect(await send()).toMatchObject({ accepted: 1 });
    const xml = (await db.selectFrom('invoices').select('ksef_xml').where('id', '=', issued.invoice.id).executeTakeFirstOrThrow()).ksef_xml!;
    expect(xml).toContain(`<P_2>${issued.invoice.number}</P_2>`);
    expect(xml).toContain('<NIP>5213017228</NIP>');
    const mails = await mailsAbout(issued.invoice.number);
    expect(textOf(Buffer.from((JSON.parse(mails[0]!.attachments!) as Array<{ base64: string }>)[0]!.base64, 'base64'))).toContain('Kawiarnia Ziarno S.A.');
    expect(await resendRefusedInvoice(db, owner, { invoiceId: issued.invoice.id, buyer: cafe })).toEqual({ ok: false, reason: 'not_refused' });
    expect(await ksefAttention(db)).toMatchObject({ refused: 0 });
    // An invoice not in KSeF a day before its offline deadline is named on the dashboard too.
    const late = await paidOrder('Kawa spóźniona');
    const waiting = await issueInvoice(db, { orderId: late.orderId, buyer: cafe, seller, by: { admin: owner } });
    if (!waiting.ok) throw new Error(waiting.reason);
    const deadline = new Date(Date.now() + 3600_000).toISOString();
    await db.updateTable('ksef_submissions').set({ deadline }).where('invoice_id', '=', waiting.invoice.id).execute();
    expect(await ksefAttention(db)).toEqual({ refused: 0, dueSoon: 1, earliestDeadline: deadline });
    await send();
    expect(await ksefAttention(db)).toMatchObject({ dueSoon: 0 });
  }, 60_000);

  it('with KSEF_CONSUMER_INVOICES a consumer’s invoice goes to KSeF too, written as FA(3) for a buyer with no tax number', async () => {
    await recordKsefPolicy(db, { sender: 'kopi', consumerInvoices: true });
    try {
      const o = await paidOrder('Kawa dla konsumenta');
      const issued = await issueInvoice(db, { orderId: o.orderId, buyer: { ...cafe, name: 'Anna Nowak', taxId: '' }, seller, by: { customer: o.userId } });
      if (!issued.ok) throw new Error(issued.reason);
      const xml = (await db.selectFrom('invoices').select('ksef_xml').where('id', '=', issued.invoice.id).executeTakeFirstOrThrow()).ksef_xml!;
      expect(xml).toContain('<BrakID>1</BrakID>');
      expect(await submission(issued.invoice.id)).toMatchObject({ status: 'queued' });
      // The stand-in checks it against the FA(3) schema before it numbers it.
      expect(await send()).toMatchObject({ accepted: 1 });
      expect(await mailsAbout(issued.invoice.number)).toHaveLength(1);
    } finally {
      await recordKsefPolicy(db, { sender: 'kopi', consumerInvoices: false });
    }
  }, 60_000);

  it('with an offline certificate, an invoice KSeF does not number within a minute goes to its buyer offline with both codes, and to KSeF as offline once it answers', async () => {
    await mode({ mode: 'maintenance', retryAfter: 1 });
    try {
      const o = await paidOrder('Kawa offline');
      const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { customer: o.userId } });
      if (!issued.ok) throw new Error(issued.reason);
      const number = issued.invoice.number;
      expect(await send(true)).toMatchObject({ accepted: 0 });
      // Within its minute the buyer waits, as without a certificate.
      expect(await mailsAbout(number)).toEqual([]);
      expect(await invoicePdf(db, issued.invoice.id, { userId: o.userId })).toEqual({ number, pending: true });
      // A minute on, KSeF still down (and the shop paused by it): handed over, by one pass alone.
      await db.updateTable('ksef_submissions').set({ offline_after: new Date(Date.now() - 1_000).toISOString() }).where('invoice_id', '=', issued.invoice.id).execute();
      // Not with a certificate that has expired by then.
      expect(await handOverOffline(deps(true), new Date(Date.now() + 40 * 86400_000))).toBe(0);
      await Promise.all([send(true), send(true)]);
      const mails = await mailsAbout(number);
      expect(mails).toHaveLength(1);
      const pdf = Buffer.from((JSON.parse(mails[0]!.attachments!) as Array<{ base64: string }>)[0]!.base64, 'base64');
      const text = textOf(pdf);
      expect(text).toContain('OFFLINE');
      expect(text).toContain('CERTYFIKAT');
      expect(text).toContain('Wystawiona w trybie offline KSeF');
      const xml = (await db.selectFrom('invoices').select('ksef_xml').where('id', '=', issued.invoice.id).executeTakeFirstOrThrow()).ksef_xml!;
      const hash = createHash('sha256').update(xml).digest('base64url');
      const [kodTwo, kodOne] = qrCodesOnPdf(pdf);
      expect(kodOne).toMatch(new RegExp(`^${QR}/invoice/${seller.taxId}/\\d{2}-\\d{2}-\\d{4}/${hash}$`));
      const signed = `qr-test.ksef.mf.gov.pl/certificate/Nip/${seller.taxId}/${seller.taxId}/${certificate.serialNumber}/${hash}`;
      expect(kodTwo!.startsWith(`https://${signed}/`)).toBe(true);
      const signature = Buffer.from(kodTwo!.slice(`https://${signed}/`.length), 'base64url');
      expect(verify('sha256', Buffer.from(signed), { key: new X509Certificate(certificateFiles.certificatePem).publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature)).toBe(true);
      // The buyer has it now: in My Orders and as the download, the document mailed.
      const file = await invoicePdf(db, issued.invoice.id, { userId: o.userId });
      expect(file && 'pdf' in file && file.pdf.equals(pdf)).toBe(true);
      const month = new Date().toISOString().slice(0, 7);
      const [entry] = (await invoiceRegister(db, { month, filter: 'offline' })).filter((e) => e.id === issued.invoice.id);
      expect(entry).toMatchObject({ standing: 'queued', offline: true });
      expect(entry!.handedOverAt).not.toBeNull();

      // KSeF back: sent as an offline invoice, numbered, and not mailed a second time.
      await mode({ mode: 'normal' });
      await new Promise((r) => setTimeout(r, 1_100));
      expect(await send(true)).toMatchObject({ accepted: 1 });
      const row = await submission(issued.invoice.id);
      expect(row.upo).toContain('<TrybWysylki>Offline</TrybWysylki>');
      expect(await mailsAbout(number)).toHaveLength(1);
      const kept = await invoicePdf(db, issued.invoice.id, { admin: true });
      expect(textOf(kept!.pdf)).toContain(row.ksef_number!);
      expect(qrCodesOnPdf(kept!.pdf)).toEqual([kodTwo, kodOne]);
    } finally {
      await mode({ mode: 'normal' });
      await new Promise((r) => setTimeout(r, 1_100));
    }
  }, 60_000);

  it('a handed-over invoice KSeF refuses is corrected and sent as its technical correction, mailed again; a row a worker holds is never handed over', async () => {
    await mode({ mode: 'maintenance', retryAfter: 1 });
    try {
      const o = await paidOrder('Kawa korygowana');
      const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { customer: o.userId } });
      if (!issued.ok) throw new Error(issued.reason);
      const number = issued.invoice.number;
      const past = new Date(Date.now() - 1_000).toISOString();
      // A worker's claim whose lease still runs (a send in flight): not handed over under it.
      await db.updateTable('ksef_submissions').set({ offline_after: past, claim_token: 'another-worker', next_attempt_at: new Date(Date.now() + 30_000).toISOString() }).where('invoice_id', '=', issued.invoice.id).execute();
      expect(await handOverOffline(deps(true))).toBe(0);
      await db.updateTable('ksef_submissions').set({ claim_token: null, next_attempt_at: past }).where('invoice_id', '=', issued.invoice.id).execute();
      expect(await handOverOffline(deps(true))).toBe(1);
      const handedHash = (await submission(issued.invoice.id)).handed_over_hash;
      expect(await mailsAbout(number)).toHaveLength(1);

      // KSeF back, and it refuses the buyer: the owner corrects the buyer and sends it again.
      await fetch(`http://127.0.0.1:${PORT}/__refuse-buyer`, { method: 'POST', body: JSON.stringify({ nip: cafe.taxId }) });
      await mode({ mode: 'normal' });
      await new Promise((r) => setTimeout(r, 1_100));
      expect(await send(true)).toMatchObject({ refused: 1 });
      await fetch(`http://127.0.0.1:${PORT}/__refuse-buyer`, { method: 'POST', body: '{}' });
      const fixed = { ...cafe, taxId: '5213017228', name: 'Kawiarnia Ziarno S.A.' };
      expect(await resendRefusedInvoice(db, owner, { invoiceId: issued.invoice.id, buyer: fixed })).toEqual({ ok: true, number });
      expect(await send(true)).toMatchObject({ accepted: 1 });
      const row = await submission(issued.invoice.id);
      // Sent as an offline invoice naming the file the buyer holds, and the corrected one mailed with its own codes.
      expect(row.upo).toContain('<TrybWysylki>Offline</TrybWysylki>');
      const accepted = (await (await fetch(`http://127.0.0.1:${PORT}/__invoices`)).json()) as Array<{ ksefNumber: string; correctsHash: string | null }>;
      expect(accepted.find((a) => a.ksefNumber === row.ksef_number)?.correctsHash).toBe(handedHash);
      const mails = await mailsAbout(number);
      expect(mails).toHaveLength(2);
      const pdf = Buffer.from((JSON.parse(mails[1]!.attachments!) as Array<{ base64: string }>)[0]!.base64, 'base64');
      expect(textOf(pdf)).toContain('Kawiarnia Ziarno S.A.');
      const xml = (await db.selectFrom('invoices').select('ksef_xml').where('id', '=', issued.invoice.id).executeTakeFirstOrThrow()).ksef_xml!;
      const hash = createHash('sha256').update(xml).digest('base64url');
      const [kodTwo, kodOne] = qrCodesOnPdf(pdf);
      expect(kodOne!.endsWith(`/${hash}`)).toBe(true);
      expect(kodTwo).toContain(`/${certificate.serialNumber}/${hash}/`);
    } finally {
      await fetch(`http://127.0.0.1:${PORT}/__refuse-buyer`, { method: 'POST', body: '{}' });
      await mode({ mode: 'normal' });
      await new Promise((r) => setTimeout(r, 1_100));
    }
  }, 60_000);

  it("a consumer's invoice stays outside KSeF and is mailed at once", async () => {
    const o = await paidOrder('Kawa konsumencka');
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: { ...cafe, name: 'Jan Kowalski', taxId: '' }, seller, by: { customer: o.userId } });
    if (!issued.ok) throw new Error(issued.reason);
    expect(await db.selectFrom('ksef_submissions').select('status').where('invoice_id', '=', issued.invoice.id).executeTakeFirst()).toBeUndefined();
    expect(await mailsAbout(issued.invoice.number)).toHaveLength(1);
  });
});
