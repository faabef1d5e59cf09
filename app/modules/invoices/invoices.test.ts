/**
 * Invoices (docs/decisions/0028): tax numbers checked, numbers per year without gaps or repeats under concurrency,
 * one invoice per order, the customer's window, and the PDF read back with poppler's pdftotext.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cancelOrder, recordRefundEvent, refundWithdrawal } from '~/modules/fulfilment/index.server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { listActivity } from '~/modules/activity/index.server';
import { type PaymentServices, issueRequestedInvoices, payWithCard, startPayment, sweepPayments } from '~/modules/checkout/index.server';
import { TEST_CARDS, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { findOrderRecord, getOrderRecordLines, orderLabel } from '~/modules/orders/index.server';
import { type VatPart, saveOssSetting, sumByRate } from '~/modules/tax/index.server';
import { findOwnOrderForWithdrawal, requestWithdrawal } from '~/modules/withdrawals/index.server';
import { address, courier, createCoffee, createUser, fillCart } from '../../../tests/fixtures/shop';
import { spawnStandIn } from '../../../tests/doubles/spawn';
import { type InvoiceBuyer, createNbpRates, getInvoice, invoicePdf, invoiceWindowEnds, invoiceXml, isValidNip, issueCorrections, issueInvoice, listOrderInvoices, normalizeTaxId, parseBuyer, recordKsefNumber, sellerOf } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const seller = sellerOf({ legalName: 'Kopi Palarnia sp. z o.o.', address: 'ul. Mokotowska 12\n00-640 Warszawa', taxId: 'PL 526-025-02-74', email: 'sklep@kopi.test' })!;
const cafe: InvoiceBuyer = { name: 'Kawiarnia Żółć sp. z o.o.', taxId: '7250018200', country: 'PL', address: 'ul. Piotrkowska 100', zipCode: '90-004', city: 'Łódź' };

describe('tax numbers', () => {
  it('checks a Polish NIP by its checksum, with or without dashes and the PL prefix', () => {
    expect(isValidNip('5260250274')).toBe(true);
    expect(isValidNip('5260250275')).toBe(false);
    expect(isValidNip('526025027')).toBe(false);
    expect(normalizeTaxId('PL 526-025-02-74', 'PL')).toEqual({ ok: true, taxId: '5260250274' });
    expect(normalizeTaxId('526-025-02-75', 'PL')).toEqual({ ok: false, error: 'nip' });
    // A checksum of 10 is never valid.
    expect(isValidNip('1000000160')).toBe(false);
    expect(isValidNip('1000000169')).toBe(false);
  });

  it('checks an EU VAT number by its country’s format, prefix optional (Greece’s is EL)', () => {
    expect(normalizeTaxId('DE 123 456 789', 'DE')).toEqual({ ok: true, taxId: 'DE123456789' });
    expect(normalizeTaxId('123456789', 'DE')).toEqual({ ok: true, taxId: 'DE123456789' });
    expect(normalizeTaxId('DE12345678', 'DE')).toEqual({ ok: false, error: 'vatFormat' });
    expect(normalizeTaxId('NL123456789B01', 'NL')).toEqual({ ok: true, taxId: 'NL123456789B01' });
    expect(normalizeTaxId('ATU12345678', 'AT')).toEqual({ ok: true, taxId: 'ATU12345678' });
    expect(normalizeTaxId('123456789', 'GR')).toEqual({ ok: true, taxId: 'EL123456789' });
    expect(normalizeTaxId('FR12345678901', 'FR')).toEqual({ ok: true, taxId: 'FR12345678901' });
    expect(normalizeTaxId('', 'DE')).toEqual({ ok: true, taxId: '' });
  });

  it('parses the buyer’s form: every field checked, the number normalised', () => {
    const form = (fields: Record<string, string>) => (name: string) => fields[name] ?? '';
    const ok = parseBuyer(form({ invoiceName: ' Kawiarnia ', invoiceTaxId: '725-001-82-00', invoiceCountry: 'pl', invoiceAddress: 'Piotrkowska 100', invoiceZipCode: '90-004', invoiceCity: 'Łódź' }));
    expect(ok).toEqual({ ok: true, buyer: { name: 'Kawiarnia', taxId: '7250018200', country: 'PL', address: 'Piotrkowska 100', zipCode: '90-004', city: 'Łódź' } });
    const bad = parseBuyer(form({ invoiceName: '', invoiceTaxId: '7250018201', invoiceCountry: 'US', invoiceAddress: 'x'.repeat(300), invoiceZipCode: '', invoiceCity: 'a\u0000b' }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors).toEqual({ name: 'invoices.errors.nameRequired', country: 'invoices.errors.country', address: 'invoices.errors.address', zipCode: 'invoices.errors.zipCodeRequired', city: 'invoices.errors.city' });
    const nip = parseBuyer(form({ invoiceName: 'K', invoiceTaxId: '7250018201', invoiceCountry: 'PL', invoiceAddress: 'A 1', invoiceZipCode: '00-001', invoiceCity: 'W' }));
    expect(nip.ok === false && nip.errors).toEqual({ taxId: 'invoices.errors.nip' });
  });

  it('a customer may ask until the end of the third month after the month of delivery', () => {
    // Delivered in November (Warsaw): until the end of February, Warsaw time (UTC+1 in winter).
    expect(invoiceWindowEnds('2026-11-27T10:00:00.000Z').toISOString()).toBe('2027-02-28T23:00:00.000Z');
    // 23:30 UTC on 31 January is 1 February in Warsaw: February's window, to the end of May (UTC+2 in summer).
    expect(invoiceWindowEnds('2026-01-31T23:30:00.000Z').toISOString()).toBe('2026-05-31T22:00:00.000Z');
  });
});

// NBP's exchange-rate API stand-in (tests/doubles/nbp.js), in a process of its own.
const nbpPort = 3356 + Number(process.env.VITEST_POOL_ID ?? 0);
const nbpUrl = `http://127.0.0.1:${nbpPort}`;
let nbpStandIn: ChildProcess;
beforeAll(async () => {
  nbpStandIn = await spawnStandIn('nbp.js', nbpPort);
});
afterAll(() => {
  nbpStandIn.kill();
});

describe.each(testDatabases())('invoices on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let services: PaymentServices;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    services = { db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test', kickMail: () => {} };
  });
  afterAll(() => handle.close());

  async function paidOrder(name: string, cents = 2190, locale: 'en' | 'pl' = 'pl') {
    const user = await createUser(db);
    const coffee = await createCoffee(db, name, cents);
    const cartId = await fillCart(db, user.id, [[coffee, 2]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale, currency: 'EUR', cartId, address, delivery: courier });
    if (!started.ok) throw new Error(started.reason);
    expect(await payWithCard(services, { userId: user.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
    return { userId: user.id, orderId: started.orderId };
  }

  it('50 invoices issued at once are numbered without gaps or repeats', async () => {
    const orders = [];
    for (let i = 0; i < 50; i += 1) orders.push(await paidOrder(`Numbered ${i}`));
    const at = new Date('2031-03-01T10:00:00Z');
    const issued = await Promise.all(orders.map((o) => issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner }, now: at })));
    const numbers = issued.map((r) => (r.ok ? r.invoice.number : r.reason));
    expect(numbers.every((n) => /^FV\/2031\/\d{5}$/.test(n))).toBe(true);
    expect(numbers.map((n) => Number(n.slice(-5))).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // A new year starts again at 1.
    const next = await issueInvoice(db, { orderId: (await paidOrder('Next year')).orderId, buyer: cafe, seller, by: { admin: owner }, now: new Date('2032-01-01T00:30:00+01:00') });
    expect(next.ok && next.invoice.number).toBe('FV/2032/00001');
  }, 120_000);

  it('one invoice per order, even asked for twice at once; an unpaid or someone else’s order has none; the owner’s is logged', async () => {
    const o = await paidOrder('Once only');
    const both = await Promise.all([1, 2].map(() => issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { customer: o.userId } })));
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.find((r) => !r.ok)).toEqual({ ok: false, reason: 'already_issued' });
    expect(await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner } })).toEqual({ ok: false, reason: 'already_issued' });
    expect(await listOrderInvoices(db, o.orderId)).toHaveLength(1);

    const other = await paidOrder('Not yours');
    expect(await issueInvoice(db, { orderId: other.orderId, buyer: cafe, seller, by: { customer: o.userId } })).toEqual({ ok: false, reason: 'not_found' });
    expect(await issueInvoice(db, { orderId: other.orderId, buyer: cafe, seller: null, by: { admin: owner } })).toEqual({ ok: false, reason: 'seller_missing' });
    expect(await listOrderInvoices(db, other.orderId)).toEqual([]);
    const issued = await issueInvoice(db, { orderId: other.orderId, buyer: cafe, seller, by: { admin: owner } });
    expect(issued.ok).toBe(true);
    expect((await listActivity(db, { limit: 1 }))[0]).toMatchObject({ action: 'invoice.issued', details: { buyer: cafe.name, taxId: cafe.taxId } });
  });

  it('a customer’s request after the window is refused; the owner may still issue', async () => {
    const o = await paidOrder('Late request');
    const late = new Date(Date.now() + 130 * 86_400_000);
    expect(await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { customer: o.userId }, now: late })).toEqual({ ok: false, reason: 'window_closed' });
    expect((await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner }, now: late })).ok).toBe(true);
  });

  it('a cancelled order refunded in full has nothing to invoice: no invoice and no correction, for the customer or the owner', async () => {
    const o = await paidOrder('Cancelled first');
    expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toMatchObject({ ok: true });
    expect(await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { customer: o.userId } })).toEqual({ ok: false, reason: 'nothing_to_invoice' });
    expect(await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner } })).toEqual({ ok: false, reason: 'nothing_to_invoice' });
    expect(await listOrderInvoices(db, o.orderId)).toEqual([]);
    // Asked for at checkout and cancelled before the sweep issued it: the sweep leaves it too.
    await db.updateTable('orders').set({ invoice_buyer: JSON.stringify(cafe) }).where('id', '=', o.orderId).execute();
    expect(await issueRequestedInvoices({ ...services, seller })).toBe(0);
    expect(await listOrderInvoices(db, o.orderId)).toEqual([]);
  });

  it('asked for at checkout, the invoice is issued when the order is paid, in the same transaction, and mailed', async () => {
    const user = await createUser(db);
    const coffee = await createCoffee(db, 'Asked At Checkout', 1500);
    const cartId = await fillCart(db, user.id, [[coffee, 1]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: courier, invoiceBuyer: cafe });
    if (!started.ok) throw new Error(started.reason);
    expect(await listOrderInvoices(db, started.orderId)).toEqual([]);
    expect(await payWithCard({ ...services, seller }, { userId: user.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
    const [invoice] = await listOrderInvoices(db, started.orderId);
    expect(invoice).toMatchObject({ kind: 'invoice', grossCents: 1500 + 499 });
    expect(await db.selectFrom('mail_outbox').select('subject').where('to_address', '=', user.email).where('subject', 'like', 'Your invoice%').execute()).toEqual([
      { subject: `Your invoice ${invoice!.number} for order ${started.orderId.slice(-6).toUpperCase()}` },
    ]);
  });

  it('a shop without its legal details still takes the payment; the request waits on the order for the owner', async () => {
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[await createCoffee(db, 'No Seller Yet', 1500), 1]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: courier, invoiceBuyer: cafe });
    if (!started.ok) throw new Error(started.reason);
    expect(await payWithCard({ ...services, seller: null }, { userId: user.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
    expect(await listOrderInvoices(db, started.orderId)).toEqual([]);
    expect((await findOrderRecord(db, started.orderId))?.invoiceBuyer).toEqual(cafe);
  });

  it('keeps the number KSeF gave an invoice (not a malformed one, not for another order’s), and its correction refers to it', async () => {
    const o = await paidOrder('KSeF Numer', 1800);
    const other = await paidOrder('KSeF Inne', 1800);
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner } });
    if (!issued.ok) throw new Error(issued.reason);
    const ksefNumber = '5260250274-20261128-0A1B2C3D4E5F-F7';
    // Short, a 13th month, a check that does not match (one character mistyped), markup after it.
    for (const bad of ['', 'nope', '5260250274-20261128-0A1B2C3D4E5F', '5260250274-20261328-0A1B2C3D4E5F-F7', '5260250274-20261128-0A1B2C3D4E5F-9C', '5260250274-20261128-0A1B2C3D4E5E-F7', `${ksefNumber}<x/>`]) {
      expect(await recordKsefNumber(db, owner, { orderId: o.orderId, invoiceId: issued.invoice.id, ksefNumber: bad })).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(await recordKsefNumber(db, owner, { orderId: other.orderId, invoiceId: issued.invoice.id, ksefNumber })).toEqual({ ok: false, reason: 'not_found' });
    expect((await listOrderInvoices(db, o.orderId))[0]!.ksefNumber).toBeNull();
    // As typed from KSeF's confirmation, in lower case with spaces around: kept as KSeF writes it.
    expect(await recordKsefNumber(db, owner, { orderId: o.orderId, invoiceId: issued.invoice.id, ksefNumber: ` ${ksefNumber.toLowerCase()} ` })).toEqual({ ok: true, number: issued.invoice.number });
    expect((await listOrderInvoices(db, o.orderId))[0]!.ksefNumber).toBe(ksefNumber);
    expect((await listActivity(db, { limit: 1 }))[0]).toMatchObject({ action: 'invoice.ksef', subjectId: o.orderId, details: { number: issued.invoice.number, ksefNumber: [null, ksefNumber] } });

    expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toMatchObject({ ok: true });
    const correction = (await listOrderInvoices(db, o.orderId)).find((d) => d.kind === 'correction')!;
    const xml = (await invoiceXml(db, correction.id))!.xml;
    expect(xml).toContain(`<NrKSeFFaKorygowanej>${ksefNumber}</NrKSeFFaKorygowanej>`);
    expect(xml).not.toContain('<NrKSeFN>');
  });

  it('a refund of an invoiced order issues a correcting invoice in its own series; a NIP buyer’s documents carry KSeF XML that validates', async () => {
    const o = await paidOrder('Korekta Kawa', 2460);
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner } });
    if (!issued.ok) throw new Error(issued.reason);
    expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toMatchObject({ ok: true });
    const documents = await listOrderInvoices(db, o.orderId);
    expect(documents.map((d) => [d.kind, d.grossCents])).toEqual([
      ['invoice', 2 * 2460 + 499],
      ['correction', -(2 * 2460 + 499)],
    ]);
    expect(documents[1]!.number).toMatch(/^KOR\/\d{4}\/\d{5}$/);
    const correction = await invoicePdf(db, documents[1]!.id, { admin: true });
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: correction!.pdf }).toString().replace(/[\u00a0\u202f]/g, ' ');
    expect(text).toContain(`Faktura korygująca ${documents[1]!.number}`);
    expect(text).toContain(`Koryguje fakturę ${issued.invoice.number}`);
    expect(text).toMatch(/Razem\s+-44,06 €\s+-10,13 €\s+-54,19 €/);
    // Each document once: another refund event changes nothing.
    await issueCorrections(db, o.orderId);
    expect(await listOrderInvoices(db, o.orderId)).toHaveLength(2);

    for (const document of documents) {
      const xml = (await invoiceXml(db, document.id))!.xml;
      expect(xml).toContain(`<P_2>${document.number}</P_2>`);
      const file = path.join(os.tmpdir(), `kopi-${document.id}.xml`);
      writeFileSync(file, xml);
      const schema = fileURLToPath(new URL('../../../vendor/ksef/', import.meta.url));
      execFileSync('xmllint', ['--nonet', '--noout', '--schema', path.join(schema, 'schemat_FA(3)_v1-0E.xsd'), file], { env: { ...process.env, XML_CATALOG_FILES: path.join(schema, 'catalog.xml') }, stdio: 'pipe' });
    }
    // A buyer without a Polish NIP has no KSeF document.
    const foreign = await paidOrder('Berlin Kawa');
    const berlin = await issueInvoice(db, { orderId: foreign.orderId, buyer: { ...cafe, name: 'Café Berlin GmbH', taxId: 'DE123456789', country: 'DE', city: 'Berlin', zipCode: '10119' }, seller, by: { admin: owner } });
    expect(berlin.ok && (await invoiceXml(db, berlin.invoice.id))).toBeNull();
  });

  it('an invoice in euros states its VAT in złoty at NBP’s rate of the working day before the payment; its correction keeps it; without NBP, the shop’s rate, said so', async () => {
    const rates = createNbpRates({ baseUrl: nbpUrl });
    const o = await paidOrder('Kawa w Euro', 2460);
    // Paid on Monday 2 November 2026 (the day before, 1 November, is All Saints' Day): Friday 30 October's table.
    await db.updateTable('orders').set({ paid_at: '2026-11-02T09:00:00.000Z' }).where('id', '=', o.orderId).execute();
    const nbp = ((await (await fetch(`${nbpUrl}/api/exchangerates/rates/a/eur/2026-10-30/`)).json()) as { rates: { no: string; mid: number }[] }).rates[0]!;
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner }, rates });
    if (!issued.ok) throw new Error(issued.reason);
    expect(issued.invoice.totals).toMatchObject({ plnRate: nbp.mid, nbp: { table: nbp.no, date: '2026-10-30' } });
    // 10.13 € of VAT at 23% (9.20 + 0.93), converted once: its złoty amount in P_14_1W, the rate on every line.
    const xml = (await invoiceXml(db, issued.invoice.id))!.xml;
    const plnVat = (Math.round(1013 * nbp.mid) / 100).toFixed(2);
    expect(xml).toContain(`<P_14_1W>${plnVat}</P_14_1W>`);
    expect(xml).toContain(`<KursWaluty>${nbp.mid}</KursWaluty>`);
    const pdfText = async (id: string) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: (await invoicePdf(db, id, { admin: true }))!.pdf }).toString().replace(/[\u00a0\u202f]/g, ' ').replace(/\s+/g, ' ');
    const polishRate = nbp.mid.toFixed(4).replace('.', ',');
    expect(await pdfText(issued.invoice.id)).toContain(`VAT w złotych: ${plnVat.replace('.', ',')} zł (średni kurs NBP ${polishRate} PLN/EUR, tabela nr ${nbp.no} z 30 października 2026)`);

    // Refunded: the correction converts at its invoice's rate.
    expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toMatchObject({ ok: true });
    const correction = (await listOrderInvoices(db, o.orderId)).find((d) => d.kind === 'correction')!;
    expect(await pdfText(correction.id)).toContain(`VAT w złotych: -${plnVat.replace('.', ',')} zł (średni kurs NBP ${polishRate} PLN/EUR, tabela nr ${nbp.no} z 30 października 2026)`);

    // NBP cannot be reached: the invoice is still issued, at the shop's rate (4.25), and says so.
    const offline = await paidOrder('Kawa Bez NBP', 2460);
    const fallback = await issueInvoice(db, { orderId: offline.orderId, buyer: cafe, seller, by: { admin: owner }, rates: createNbpRates({ baseUrl: 'http://127.0.0.1:9' }) });
    if (!fallback.ok) throw new Error(fallback.reason);
    expect(fallback.invoice.totals.plnRate).toBe(4.25);
    expect(fallback.invoice.totals.nbp).toBeUndefined();
    expect(await pdfText(fallback.invoice.id)).toContain('VAT w złotych: 43,05 zł (kurs sklepu 4,2500 PLN/EUR)');
  });

  it('an invoice charging German VAT under OSS records the country, keeps NBP’s rate but states no VAT in złoty; nor does its correction', async () => {
    await saveOssSetting(db, owner, true);
    let o: { userId: string; orderId: string };
    try {
      const user = await createUser(db);
      const cartId = await fillCart(db, user.id, [[await createCoffee(db, 'Kaffee Oss', 2460), 1]]);
      const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address, delivery: { country: 'DE', methodId: 'method-eu-courier' } });
      if (!started.ok) throw new Error(started.reason);
      expect(await payWithCard(services, { userId: user.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
      o = { userId: user.id, orderId: started.orderId };
    } finally {
      await saveOssSetting(db, owner, false);
    }
    const consumer: InvoiceBuyer = { name: 'Anna Schmidt', taxId: '', country: 'DE', address: 'Hauptstraße 1', zipCode: '10115', city: 'Berlin' };
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: consumer, seller, by: { admin: owner }, rates: createNbpRates({ baseUrl: nbpUrl }) });
    if (!issued.ok) throw new Error(issued.reason);
    expect(issued.invoice.totals).toMatchObject({ taxCountry: 'DE', plnRate: expect.any(Number) });
    expect(issued.invoice.totals.byRate.map((p) => p.rateBp)).toContain(700);
    const pdfText = async (id: string) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: (await invoicePdf(db, id, { admin: true }))!.pdf }).toString();
    const text = await pdfText(issued.invoice.id);
    expect(text).toContain('7%');
    expect(text).not.toContain('VAT w złotych');
    expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toMatchObject({ ok: true });
    const correction = (await listOrderInvoices(db, o.orderId)).find((d) => d.kind === 'correction')!;
    expect(await pdfText(correction.id)).not.toContain('VAT w złotych');
  });

  it('the PDF says who sells and buys, the number, each line’s net, rate, VAT and gross, in Polish letters', async () => {
    const o = await paidOrder('Kawa Łagodna', 2460);
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { customer: o.userId } });
    if (!issued.ok) throw new Error(issued.reason);
    const found = await invoicePdf(db, issued.invoice.id, { userId: o.userId });
    if (!found || 'pending' in found) throw new Error('the buyer has no PDF');
    const file = found;
    expect(file.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await invoicePdf(db, issued.invoice.id, { userId: 'someone-else' })).toBeNull();
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: file!.pdf }).toString().replace(/[\u00a0\u202f]/g, ' ');
    expect(text).toContain(`Faktura VAT ${issued.invoice.number}`);
    expect(text).toContain('Kopi Palarnia sp. z o.o.');
    expect(text).toContain('NIP: 5260250274');
    expect(text).toContain('Kawiarnia Żółć sp. z o.o.');
    expect(text).toContain('NIP: 7250018200');
    expect(text).toContain('Łódź');
    // 2 × 24.60 € = 49.20 € at 23%: 40.00 net + 9.20 VAT; below 50 € the courier costs 4.99 €: 4.06 + 0.93.
    expect(text).toMatch(/Kawa Łagodna PL\s+2 szt\.\s+24,60 €\s+40,00 €\s+23%\s+9,20 €\s+49,20 €/);
    expect(text).toMatch(/Dostawa: Kurier\s+1 szt\.\s+4,99 €\s+4,06 €\s+23%\s+0,93 €\s+4,99 €/);
    expect(text).toContain('Wystawiona także jako faktura ustrukturyzowana KSeF');
    expect(text).toMatch(/Razem\s+44,06 €\s+10,13 €\s+54,19 €/);
    expect(text).toContain('Do zapłaty: 0,00 €');
    // The buyer gets it by mail, in the order's language, the PDF attached.
    const mail = await db.selectFrom('mail_outbox').select(['subject', 'attachments', 'to_address']).where('subject', 'like', `%${issued.invoice.number}%`).executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`Faktura ${issued.invoice.number} do zamówienia ${o.orderId.slice(-6).toUpperCase()}`);
    const [attachment] = JSON.parse(mail.attachments!) as Array<{ filename: string; contentType: string; base64: string }>;
    expect(attachment).toMatchObject({ filename: `${issued.invoice.number.replace(/\//g, '-')}.pdf`, contentType: 'application/pdf' });
    expect(Buffer.from(attachment!.base64, 'base64').equals(file!.pdf)).toBe(true);
    // Kept as issued: the same bytes every time.
    expect((await invoicePdf(db, issued.invoice.id, { admin: true }))!.pdf.equals(file!.pdf)).toBe(true);
    // Purged at the end of its retention (docs/decisions/0029): gone for good, never rebuilt from what is left.
    await db.updateTable('invoices').set({ pdf: null, ksef_xml: null, buyer: '{}', purged_at: new Date().toISOString() }).where('id', '=', issued.invoice.id).execute();
    expect(await invoicePdf(db, issued.invoice.id, { admin: true })).toBeNull();
    expect(await invoicePdf(db, issued.invoice.id, { userId: o.userId })).toBeNull();
    expect((await db.selectFrom('invoices').select('pdf').where('id', '=', issued.invoice.id).executeTakeFirstOrThrow()).pdf).toBeNull();
  });

  it('a withdrawal’s refund stores the VAT of the lines withdrawn per rate and its correction gives them back negative; the whole order withdrawn returns exactly the order’s VAT', async () => {
    // Under OSS a German consumer pays 7% on a 30.00 € coffee and 19% on a 10.00 € mug; the EU courier's 9.99 €
    // follows them 3:1 (7.49 € at 7%, 2.50 € at 19%).
    const user = await createUser(db);
    const mug = await createCoffee(db, 'Widerruf Becher', 1000);
    await db.updateTable('products').set({ tax_class: 'other' }).where('id', '=', mug).execute();
    const cartId = await fillCart(db, user.id, [[await createCoffee(db, 'Widerruf Kaffee', 3000), 1], [mug, 1]]);
    await saveOssSetting(db, owner, true);
    let orderId: string;
    try {
      const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address, delivery: { country: 'DE', methodId: 'method-eu-courier' } });
      if (!started.ok) throw new Error(started.reason);
      expect(await payWithCard(services, { userId: user.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
      orderId = started.orderId;
    } finally {
      await saveOssSetting(db, owner, false);
    }
    const order = (await findOrderRecord(db, orderId))!;
    const lines = await getOrderRecordLines(db, orderId);
    expect(lines.map((l) => [l.title, l.vat])).toEqual([
      ['Widerruf Kaffee PL', { rateBp: 700, grossCents: 3000, netCents: 2804, vatCents: 196 }],
      ['Widerruf Becher PL', { rateBp: 1900, grossCents: 1000, netCents: 840, vatCents: 160 }],
    ]);
    expect(order.deliveryVat).toEqual([
      { rateBp: 1900, grossCents: 250, netCents: 210, vatCents: 40 },
      { rateBp: 700, grossCents: 749, netCents: 700, vatCents: 49 },
    ]);
    expect(order).toMatchObject({ totalCents: 4999, vatCents: 445 });
    const consumer: InvoiceBuyer = { name: 'Anna Schmidt', taxId: '', country: 'DE', address: 'Hauptstraße 1', zipCode: '10115', city: 'Berlin' };
    const issued = await issueInvoice(db, { orderId, buyer: consumer, seller, by: { admin: owner } });
    if (!issued.ok) throw new Error(issued.reason);

    const refundServices = { db, payments: provider, publicUrl: 'https://kopi.test/' };
    const withdraw = async (title: string) => {
      const found = (await findOwnOrderForWithdrawal(db, user.id, orderId))!;
      const position = lines.find((l) => l.title === title)!.position;
      const outcome = await requestWithdrawal(db, found, { name: 'Anna Schmidt', email: user.email, positions: [position], reason: '', locale: 'pl' }, { contactTo: 'shop@kopi.test' });
      if (!outcome.ok) throw new Error(outcome.reason);
      return outcome.withdrawal;
    };
    const refundsOf = async () =>
      (await db.selectFrom('refunds').select(['amount_cents', 'vat_cents', 'tax']).where('order_id', '=', orderId).orderBy('created_at').execute()).map((r) => ({
        amountCents: Number(r.amount_cents),
        vatCents: Number(r.vat_cents),
        tax: JSON.parse(r.tax!) as VatPart[],
      }));

    // The mug sent back: its 10.00 €, all of it at 19%, exactly the VAT its line was charged.
    const mugBack = await withdraw('Widerruf Becher PL');
    expect(await refundWithdrawal(refundServices, owner, orderId, mugBack.id)).toEqual({ ok: true, refundedCents: 1000 });
    expect(await refundsOf()).toEqual([{ amountCents: 1000, vatCents: 160, tax: [{ rateBp: 1900, grossCents: 1000, netCents: 840, vatCents: 160 }] }]);
    const afterMug = await listOrderInvoices(db, orderId);
    expect(afterMug.map((d) => [d.kind, d.grossCents])).toEqual([
      ['invoice', 4999],
      ['correction', -1000],
    ]);
    expect(afterMug[1]!.number).toMatch(/^KOR\/\d{4}\/\d{5}$/);
    const mugCorrection = (await getInvoice(db, afterMug[1]!.id))!;
    expect(mugCorrection).toMatchObject({ kind: 'correction', correctsNumber: issued.invoice.number, totals: { grossCents: -1000, netCents: -840, vatCents: -160, taxCountry: 'DE' } });
    expect(mugCorrection.lines).toEqual([
      { name: `Zwrot do faktury ${issued.invoice.number}`, sku: null, quantity: 1, unitGrossCents: -1000, grossCents: -1000, netCents: -840, vatCents: -160, rateBp: 1900 },
    ]);

    // The coffee too: the last withdrawal returns the delivery with it, each part at the rate it was charged.
    const coffeeBack = await withdraw('Widerruf Kaffee PL');
    expect(coffeeBack).toMatchObject({ amountCents: 3000 + 999, deliveryCents: 999 });
    expect(await refundWithdrawal(refundServices, owner, orderId, coffeeBack.id)).toEqual({ ok: true, refundedCents: 3999 });
    const refunds = await refundsOf();
    expect(refunds[1]).toEqual({
      amountCents: 3999,
      vatCents: 196 + 49 + 40,
      tax: [
        { rateBp: 1900, grossCents: 250, netCents: 210, vatCents: 40 },
        { rateBp: 700, grossCents: 3749, netCents: 3504, vatCents: 245 },
      ],
    });
    // Everything back: the refunds' VAT per rate is the order's, to the cent.
    expect(sumByRate(refunds.flatMap((r) => r.tax))).toEqual(sumByRate([...lines.map((l) => l.vat!), ...order.deliveryVat]));
    expect(refunds.reduce((sum, r) => sum + r.vatCents, 0)).toBe(order.vatCents);
    const documents = await listOrderInvoices(db, orderId);
    expect(documents.map((d) => [d.kind, d.grossCents])).toEqual([
      ['invoice', 4999],
      ['correction', -1000],
      ['correction', -3999],
    ]);
    expect((await getInvoice(db, documents[2]!.id))!.lines.map((l) => [l.rateBp, l.grossCents, l.netCents, l.vatCents])).toEqual([
      [1900, -250, -210, -40],
      [700, -3749, -3504, -245],
    ]);
  });

  it('a refund made at the provider is corrected by the payment sweep: one correcting invoice, however often the sweep runs', async () => {
    const o = await paidOrder('Korekta Z Panelu', 2460);
    const issued = await issueInvoice(db, { orderId: o.orderId, buyer: cafe, seller, by: { admin: owner } });
    if (!issued.ok) throw new Error(issued.reason);
    // 10.00 € given back in the provider's dashboard: its event records the refund, at the order's 23%.
    expect(await recordRefundEvent(db, { orderId: o.orderId, provider: provider.name, amountRefundedCents: 1000, refunds: [{ id: 're_dashboard_kor', amountCents: 1000, status: 'succeeded' }] })).toBe(
      'refund_recorded',
    );
    expect((await listOrderInvoices(db, o.orderId)).map((d) => d.kind)).toEqual(['invoice']);

    await sweepPayments(services);
    await sweepPayments(services);
    const documents = await listOrderInvoices(db, o.orderId);
    expect(documents.map((d) => [d.kind, d.grossCents])).toEqual([
      ['invoice', 2 * 2460 + 499],
      ['correction', -1000],
    ]);
    const correction = (await getInvoice(db, documents[1]!.id))!;
    expect(correction).toMatchObject({ number: expect.stringMatching(/^KOR\/\d{4}\/\d{5}$/), correctsNumber: issued.invoice.number, payment: { reference: 're_dashboard_kor' } });
    expect(correction.lines.map((l) => [l.rateBp, l.grossCents, l.netCents, l.vatCents])).toEqual([[2300, -1000, -813, -187]]);
    const mailed = await db.selectFrom('mail_outbox').select('subject').where('subject', 'like', `%${correction.number}%`).execute();
    expect(mailed).toEqual([{ subject: `Faktura korygująca ${correction.number} do zamówienia ${orderLabel(o.orderId)}` }]);
    // The event delivered again changes nothing, nor does another sweep.
    expect(await recordRefundEvent(db, { orderId: o.orderId, provider: provider.name, amountRefundedCents: 1000, refunds: [{ id: 're_dashboard_kor', amountCents: 1000, status: 'succeeded' }] })).toBe(
      'refund_confirmed',
    );
    await sweepPayments(services);
    expect(await listOrderInvoices(db, o.orderId)).toHaveLength(2);
  });
});
