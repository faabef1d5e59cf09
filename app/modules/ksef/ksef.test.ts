/**
 * Sending invoices to KSeF, against its stand-in (tests/doubles/ksef.js, in a process of its own, with its own RSA
 * keys and the FA(3) schema): the cryptography, authentication shared by every worker, a send that is accepted
 * with a KSeF number whose CRC-8 is right and a UPO that validates, KSeF's refusal in its own words, a 429's
 * Retry-After honoured by every node, maintenance, and an answer lost after KSeF accepted — never sent twice.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { X509Certificate, constants, createDecipheriv, generateKeyPairSync, privateDecrypt, verify } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { isKsefNumber } from '~/modules/invoices/ksef';
import { spawnStandIn } from '../../../tests/doubles/spawn';
import { makeOfflineCertificate } from '../../../tests/fixtures/offline-certificate';
import { createKsefApi, retryAfterMs } from './api.server';
import { createKsefContext } from './context.server';
import { aesEncrypt, encryptKsefToken, encryptedInvoice, rsaOaepEncrypt, sha256Base64 } from './crypto.server';
import { isBusinessDay, nextBusinessDay, offlineDeadline } from './deadline';
import { certificateValidAt, readOfflineCertificate } from './certificate.server';
import { CERTIFICATE_QR_LABEL, certificateVerificationUrl, invoiceVerificationUrl, qrLabel, verificationUrlOf } from './qr';
import { createLimiter } from './limits';
import { createSealer } from './seal.server';
import { claimDueSubmissions, queueKsefSubmission, resendKsefSubmission, sendDueInvoices } from './submissions.server';

const PORT = 3451 + Number(process.env.VITEST_POOL_ID ?? 0);
const baseUrl = `http://127.0.0.1:${PORT}/v2`;
const control = `http://127.0.0.1:${PORT}`;
const log = pino({ level: 'silent' });
const SELLER = '5260250274';
const tokenFor = (nip: string, secret = 'a') => `20261204-EC-0123456789-ABCDEF0123-4F|nip-${nip}|${secret.repeat(64)}`;
const SCHEMA = fileURLToPath(new URL('../../../vendor/ksef/', import.meta.url));

let standIn: ChildProcess;
beforeAll(async () => {
  standIn = await spawnStandIn('ksef.js', PORT);
});
afterAll(() => {
  standIn.kill();
});

const post = (route: string, body: unknown = {}) => fetch(`${control}${route}`, { method: 'POST', body: JSON.stringify(body) });
const standInRequests = async () => (await (await fetch(`${control}/__requests`)).json()) as { requests: Record<string, number>; sends: Record<string, number> };

/** A small FA(3) invoice as Kopi issues them (the schema's required parts), numbered `number`, to `buyerNip`. */
function fa3(number: string, { buyerNip = '1111111111', issueDate = new Date().toISOString().slice(0, 10) } = {}) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">
<Naglowek><KodFormularza kodSystemowy="FA (3)" wersjaSchemy="1-0E">FA</KodFormularza><WariantFormularza>3</WariantFormularza><DataWytworzeniaFa>${issueDate}T10:00:00Z</DataWytworzeniaFa><SystemInfo>Kopi</SystemInfo></Naglowek>
<Podmiot1><DaneIdentyfikacyjne><NIP>${SELLER}</NIP><Nazwa>Kopi Palarnia sp. z o.o.</Nazwa></DaneIdentyfikacyjne><Adres><KodKraju>PL</KodKraju><AdresL1>ul. Mokotowska 12</AdresL1></Adres></Podmiot1>
<Podmiot2><DaneIdentyfikacyjne><NIP>${buyerNip}</NIP><Nazwa>Kawiarnia Ziarno</Nazwa></DaneIdentyfikacyjne><Adres><KodKraju>PL</KodKraju><AdresL1>ul. Długa 1, 00-001 Warszawa</AdresL1></Adres><JST>2</JST><GV>2</GV></Podmiot2>
<Fa><KodWaluty>PLN</KodWaluty><P_1>${issueDate}</P_1><P_2>${number}</P_2><P_6>${issueDate}</P_6><P_13_1>40.65</P_13_1><P_14_1>9.35</P_14_1><P_15>50.00</P_15>
<Adnotacje><P_16>2</P_16><P_17>2</P_17><P_18>2</P_18><P_18A>2</P_18A><Zwolnienie><P_19N>1</P_19N></Zwolnienie><NoweSrodkiTransportu><P_22N>1</P_22N></NoweSrodkiTransportu><P_23>2</P_23><PMarzy><P_PMarzyN>1</P_PMarzyN></PMarzy></Adnotacje>
<RodzajFaktury>VAT</RodzajFaktury>
<FaWiersz><NrWierszaFa>1</NrWierszaFa><P_7>Kawa Gayo 250 g</P_7><P_8A>szt.</P_8A><P_8B>1</P_8B><P_9B>50.00</P_9B><P_11A>50.00</P_11A><P_12>23</P_12></FaWiersz>
</Fa>
</Faktura>
`;
}

function validatesAgainst(xsd: string, xml: string, catalog = true) {
  const file = path.join(os.tmpdir(), `kopi-ksef-${process.pid}-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  execFileSync('xmllint', ['--nonet', '--noout', '--schema', xsd, file], { env: { ...process.env, ...(catalog ? { XML_CATALOG_FILES: path.join(SCHEMA, 'catalog.xml') } : {}) }, stdio: 'pipe' });
}

describe('the KSeF cryptography', () => {
  it('encrypts the token and the session key with RSA-OAEP SHA-256, and the invoice with AES-256-CBC and PKCS#7, hashes and sizes as sent', () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const oaep = (data: string) => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(data, 'base64'));
    expect(oaep(encryptKsefToken(publicKey, 'ref|nip-5260250274|secret', 1733310000123)).toString()).toBe('ref|nip-5260250274|secret|1733310000123');
    const key = { key: Buffer.alloc(32, 7), iv: Buffer.alloc(16, 9) };
    expect(oaep(rsaOaepEncrypt(publicKey, key.key).toString('base64'))).toEqual(key.key);
    // A known answer, NIST SP 800-38A F.2.5 (CBC-AES256): the first block as published, then one block of PKCS#7 padding.
    const nist = { key: Buffer.from('603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4', 'hex'), iv: Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex') };
    const cipher = aesEncrypt(nist, Buffer.from('6bc1bee22e409f96e93d7e117393172a', 'hex'));
    expect(cipher.subarray(0, 16).toString('hex')).toBe('f58c4c04d6e5f1ba779eabfb5f7bfbd6');
    expect(cipher).toHaveLength(32);
    const decipher = createDecipheriv('aes-256-cbc', nist.key, nist.iv).setAutoPadding(false);
    const raw = Buffer.concat([decipher.update(cipher), decipher.final()]);
    expect([...raw.subarray(16)]).toEqual(Array(16).fill(16));
    const sent = encryptedInvoice(key, 'zażółć');
    expect(sent.invoiceSize).toBe(Buffer.byteLength('zażółć'));
    expect(sent.invoiceHash).toBe(sha256Base64(Buffer.from('zażółć')));
    expect(sent.encryptedInvoiceSize).toBe(16);
    expect(sent.encryptedInvoiceHash).toBe(sha256Base64(Buffer.from(sent.encryptedInvoiceContent, 'base64')));
  });

  it('seals what it stores under the KSeF token: another token opens nothing', () => {
    const sealer = createSealer(tokenFor(SELLER));
    const sealed = sealer.seal('access-token');
    expect(sealed).not.toContain('access-token');
    expect(sealer.open(sealed)).toBe('access-token');
    expect(createSealer(tokenFor(SELLER, 'b')).open(sealed)).toBeNull();
    expect(sealer.open('rubbish')).toBeNull();
  });
});

describe('the verification QR link (KOD I)', () => {
  it('is the example of kody-qr.md for its inputs, and hashes the XML file as sent', () => {
    expect(verificationUrlOf('https://qr-test.ksef.mf.gov.pl', '1111111111', '2026-02-01', 'UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE')).toBe(
      'https://qr-test.ksef.mf.gov.pl/invoice/1111111111/01-02-2026/UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE',
    );
    // SHA-256 of "abc", Base64URL (no padding, - and _ for + and /).
    expect(invoiceVerificationUrl('https://qr.ksef.mf.gov.pl/', '5260250274', '2026-12-04', 'abc')).toBe('https://qr.ksef.mf.gov.pl/invoice/5260250274/04-12-2026/ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(qrLabel(null)).toBe('OFFLINE');
    expect(qrLabel('5260250274-20261204-0A1B2C3D4E5F-F7')).toBe('5260250274-20261204-0A1B2C3D4E5F-F7');
  });
});

describe('KOD II, signed with the offline KSeF certificate', () => {
  const read = (file: string) => readFileSync(file, 'utf8');
  const hash = 'UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE';

  it('is the link of kody-qr.md, signed over its path without https:// with RSASSA-PSS (SHA-256, 32-byte salt)', () => {
    const files = makeOfflineCertificate({ kind: 'rsa' });
    try {
      const certificate = readOfflineCertificate({ certificate: files.certificate, key: files.key }, read);
      const url = certificateVerificationUrl('https://qr-test.ksef.mf.gov.pl/', { contextNip: '1111111111', sellerNip: '1111111111', serialNumber: certificate.serialNumber, hashBase64Url: hash }, certificate.sign);
      const signed = `qr-test.ksef.mf.gov.pl/certificate/Nip/1111111111/1111111111/${certificate.serialNumber}/${hash}`;
      expect(url.startsWith(`https://${signed}/`)).toBe(true);
      expect(certificate.serialNumber).toMatch(/^[0-9A-F]+$/);
      expect(certificate.serialNumber).toBe(new X509Certificate(files.certificatePem).serialNumber.toUpperCase());
      const signature = url.slice(`https://${signed}/`.length);
      expect(signature).toMatch(/^[A-Za-z0-9_-]+$/);
      const publicKey = new X509Certificate(files.certificatePem).publicKey;
      const pss = { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
      expect(verify('sha256', Buffer.from(signed), pss, Buffer.from(signature, 'base64url'))).toBe(true);
      // Over the path alone: the same signature does not verify the full URL, nor another invoice's hash.
      expect(verify('sha256', Buffer.from(`https://${signed}`), pss, Buffer.from(signature, 'base64url'))).toBe(false);
      expect(verify('sha256', Buffer.from(signed.replace(hash, 'x'.repeat(43))), pss, Buffer.from(signature, 'base64url'))).toBe(false);
      expect(CERTIFICATE_QR_LABEL).toBe('CERTYFIKAT');
      expect(certificateValidAt(certificate, new Date())).toBe(true);
      expect(certificateValidAt(certificate, new Date(Date.now() + 40 * 86400_000))).toBe(false);
    } finally {
      files.remove();
    }
  });

  it('with an EC P-256 key signs ECDSA in IEEE P1363 form (r ‖ s, 64 bytes); an encrypted key opens with its passphrase', () => {
    const files = makeOfflineCertificate({ kind: 'ec', passphrase: 'kawa-z-jawy' });
    try {
      expect(() => readOfflineCertificate({ certificate: files.certificate, key: files.key }, read)).toThrow(/KSEF_OFFLINE_KEY_PASSPHRASE/);
      // PEM text works as well as a path.
      const certificate = readOfflineCertificate({ certificate: files.certificatePem, key: files.keyPem, passphrase: 'kawa-z-jawy' }, read);
      const url = certificateVerificationUrl('https://qr.ksef.mf.gov.pl', { contextNip: '5260250274', sellerNip: '5260250274', serialNumber: certificate.serialNumber, hashBase64Url: hash }, certificate.sign);
      const signature = Buffer.from(url.split('/').at(-1)!, 'base64url');
      expect(signature).toHaveLength(64);
      const signed = url.slice('https://'.length, url.lastIndexOf('/'));
      expect(verify('sha256', Buffer.from(signed), { key: new X509Certificate(files.certificatePem).publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    } finally {
      files.remove();
    }
  });

  it('refuses, in plain words, a key that is not the certificate’s, one too weak for KSeF, and a file that is not there', () => {
    const one = makeOfflineCertificate();
    const other = makeOfflineCertificate();
    const weak = makeOfflineCertificate({ kind: 'rsa1024' });
    try {
      expect(() => readOfflineCertificate({ certificate: one.certificate, key: other.key }, read)).toThrow('KSEF_OFFLINE_KEY is not the private key of KSEF_OFFLINE_CERTIFICATE');
      expect(() => readOfflineCertificate({ certificate: weak.certificate, key: weak.key }, read)).toThrow(/at least 2048 bits/);
      expect(() => readOfflineCertificate({ certificate: '/nowhere/offline.crt', key: one.key }, read)).toThrow('KSEF_OFFLINE_CERTIFICATE is neither a PEM text (-----BEGIN …) nor a file that can be read (ENOENT)');
      // A key given without its PEM lines (base64 alone) is taken for a path that cannot be read: never repeated.
      const bare = one.keyPem.split('\n').filter((line) => line && !line.startsWith('-----')).join('');
      let message = '';
      try {
        readOfflineCertificate({ certificate: one.certificate, key: bare }, read);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^KSEF_OFFLINE_KEY is neither a PEM text/);
      expect(message).not.toContain(bare.slice(0, 24));
      // PEM text whose line breaks were written as \n (one line in an environment file) is read as PEM.
      const oneLine = readOfflineCertificate({ certificate: one.certificatePem.replace(/\n/g, '\\n'), key: one.keyPem.replace(/\n/g, '\\n') }, read);
      expect(oneLine.serialNumber).toBe(readOfflineCertificate({ certificate: one.certificate, key: one.key }, read).serialNumber);
      expect(() => readOfflineCertificate({ certificate: one.key, key: one.key }, read)).toThrow(/KSEF_OFFLINE_CERTIFICATE is not a readable PEM certificate/);
    } finally {
      for (const files of [one, other, weak]) files.remove();
    }
  });
});

describe("KSeF's request limits, kept by the client", () => {
  it('lets a call wait a short turn, and refuses one whose turn is far (the worker pauses): per second, minute and hour', async () => {
    let clock = 1_000_000;
    const limiter = createLimiter(1, () => clock);
    // invoiceSend: 10 a second, 30 a minute, 180 an hour.
    for (let i = 0; i < 10; i++) expect(await limiter.take('invoiceSend')).toEqual({ ok: true });
    for (let second = 0; second < 2; second++) {
      clock += 1_000;
      for (let i = 0; i < 10; i++) expect((await limiter.take('invoiceSend')).ok).toBe(true);
    }
    // The 31st in a minute waits for the first of them to leave the minute: too long to wait for.
    clock += 1_000;
    const refused = await limiter.take('invoiceSend');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.retryAfterMs).toBeGreaterThan(50_000);
    // The test environment's ten times as many; other groups count apart.
    expect((await limiter.take('invoiceStatus')).ok).toBe(true);
    const test = createLimiter(10, () => clock);
    for (let i = 0; i < 100; i++) expect((await test.take('invoiceSend')).ok).toBe(true);
    // A short turn is waited for: the eleventh send of a second goes when the second has passed.
    const real = createLimiter(1);
    for (let i = 0; i < 10; i++) await real.take('invoiceSend');
    const before = Date.now();
    expect(await real.take('invoiceSend')).toEqual({ ok: true });
    expect(Date.now() - before).toBeGreaterThanOrEqual(900);
  });
});

describe('the offline24 deadline', () => {
  it('is the end of the next business day in Warsaw: over a weekend, Christmas, Easter and Independence Day', () => {
    expect(offlineDeadline('2026-12-02').toISOString()).toBe('2026-12-03T22:59:59.999Z'); // Wednesday → Thursday, winter time
    expect(offlineDeadline('2026-12-04').toISOString()).toBe('2026-12-07T22:59:59.999Z'); // Friday → Monday
    expect(nextBusinessDay('2026-12-23')).toBe('2026-12-28'); // Christmas Eve, Christmas Day, St Stephen's, Sunday
    expect(nextBusinessDay('2026-04-03')).toBe('2026-04-07'); // Good Friday is a business day; Easter Monday is not
    expect(nextBusinessDay('2026-11-10')).toBe('2026-11-12');
    expect(offlineDeadline('2026-06-03').toISOString()).toBe('2026-06-05T21:59:59.999Z'); // Corpus Christi (4 June), summer time
    expect([isBusinessDay('2026-05-01'), isBusinessDay('2026-05-04'), isBusinessDay('2027-01-06')]).toEqual([false, true, false]);
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.now() + 10_000).toUTCString(), Date.now())).toBeGreaterThan(8000);
    expect(retryAfterMs(null)).toBe(60_000);
  });
});

describe.each(testDatabases())('sending to KSeF on %s', (_kind, open) => {
  let test: TestDatabase;
  const api = createKsefApi({ baseUrl, limitScale: 10 });
  const contextFor = (token = tokenFor(SELLER)) => createKsefContext({ db: test.db, api, baseUrl, nip: SELLER, token, log });

  beforeAll(async () => {
    test = await open();
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    await post('/__reset');
    await test.db.deleteFrom('ksef_submissions').execute();
    await test.db.deleteFrom('ksef_contexts').execute();
  });

  let nextSeq = 1;
  /** An issued invoice with its FA(3) XML, queued for KSeF as issuing does. */
  async function issued(number: string, options: { buyerNip?: string; issueDate?: string } = {}) {
    const id = `inv-${number.replaceAll('/', '-')}-${Math.random().toString(36).slice(2, 8)}`;
    const xml = fa3(number, options);
    const at = new Date().toISOString();
    await test.db
      .insertInto('invoices')
      .values({ id, number, series: 'FV', year: 2026, seq: nextSeq++, order_id: `order-${id}`, kind: 'invoice', corrects_id: null, refund_id: null, locale: 'pl', currency: 'PLN', issued_at: options.issueDate ? `${options.issueDate}T10:00:00.000Z` : at, sale_date: at.slice(0, 10), seller: '{}', buyer: '{}', lines: '[]', totals: '{}', payment: '{}', gross_cents: 5000, vat_cents: 935, pdf: '', ksef_xml: xml, ksef_number: null, created_by: null, created_at: at })
      .execute();
    await queueKsefSubmission(test.db, { invoiceId: id, xml, issuedAt: options.issueDate ? `${options.issueDate}T10:00:00.000Z` : at });
    return id;
  }
  const submission = (id: string) => test.db.selectFrom('ksef_submissions').selectAll().where('invoice_id', '=', id).executeTakeFirstOrThrow();
  const deps = (context = contextFor()) => ({ db: test.db, api, context, log, qrUrl: 'https://qr-test.ksef.mf.gov.pl', sellerNip: SELLER });

  it('authenticates once for every worker, sends, and keeps the KSeF number, the acceptance time and a UPO that validates', async () => {
    const id = await issued('FV/2026/00001');
    // Two workers (two nodes) wanting a token at once: one authentication, both get the same token.
    const [a, b] = await Promise.all([contextFor().accessToken(), contextFor().accessToken()]);
    expect(a).toBe(b);
    expect((await standInRequests()).requests).toMatchObject({ challenge: 1, 'ksef-token': 1, redeem: 1 });
    // What is stored is sealed: the token itself is not in the database.
    const stored = await test.db.selectFrom('ksef_contexts').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(a);

    expect(await sendDueInvoices(deps())).toMatchObject({ handled: 1, accepted: 1 });
    const row = await submission(id);
    expect(row).toMatchObject({ status: 'accepted', offline: 0, error_code: null });
    expect(isKsefNumber(row.ksef_number!)).toBe(true);
    expect(row.ksef_number!.startsWith(`${SELLER}-`)).toBe(true);
    expect(Date.parse(row.accepted_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await test.db.selectFrom('invoices').select('ksef_number').where('id', '=', id).executeTakeFirstOrThrow()).ksef_number).toBe(row.ksef_number);
    expect(row.upo).toContain(`<NumerKSeFDokumentu>${row.ksef_number}</NumerKSeFDokumentu>`);
    expect(row.upo).toContain('<NumerFaktury>FV/2026/00001</NumerFaktury>');
    validatesAgainst(path.join(SCHEMA, 'upo-v4-3.xsd'), row.upo!, false);
    // A second invoice reuses the token and the session.
    await issued('FV/2026/00002');
    expect(await sendDueInvoices(deps())).toMatchObject({ accepted: 1 });
    expect((await standInRequests()).requests).toMatchObject({ 'ksef-token': 1, 'open-session': 1, 'send-invoice': 2 });
  });

  it('refreshes an access token that is about to expire instead of authenticating again', async () => {
    const context = contextFor();
    await context.accessToken();
    await test.db.updateTable('ksef_contexts').set({ access_valid_until: new Date(Date.now() + 30_000).toISOString() }).execute();
    await context.accessToken();
    expect((await standInRequests()).requests).toMatchObject({ 'ksef-token': 1, refresh: 1 });
  });

  it('a token KSeF refuses is said in its words and kept for the owner to see; nothing is sent, and the invoices wait', async () => {
    const id = await issued('FV/2026/00003');
    const context = contextFor(tokenFor('1111111111'));
    const outcome = await sendDueInvoices(deps(context));
    expect(outcome.accepted).toBe(0);
    expect((await context.state()).problem).toMatch(/^450 Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu: Nieprawidłowy token/);
    expect(await submission(id)).toMatchObject({ status: 'queued', ksef_number: null });
    expect((await standInRequests()).requests['send-invoice']).toBeUndefined();
    // The refused token is not tried again at once (KSeF watches repeated failed authentications): no call at all.
    await test.db.updateTable('ksef_submissions').set({ next_attempt_at: new Date().toISOString() }).execute();
    expect(await sendDueInvoices(deps(context))).toMatchObject({ handled: 0 });
    expect((await standInRequests()).requests['ksef-token']).toBe(1);
    // With the right token the problem is gone and the invoice goes.
    const right = contextFor();
    expect(await sendDueInvoices(deps(right), { now: new Date(Date.now() + 10 * 60_000) })).toMatchObject({ accepted: 1 });
    expect((await right.state()).problem).toBeNull();
  });

  it("a semantic refusal keeps KSeF's code and words; the same number, fixed, is accepted when sent again", async () => {
    await post('/__refuse-buyer', { nip: '7770001111' });
    const id = await issued('FV/2026/00004', { buyerNip: '7770001111' });
    expect(await sendDueInvoices(deps())).toMatchObject({ refused: 1 });
    const refused = await submission(id);
    expect(refused).toMatchObject({ status: 'refused', error_code: 450, ksef_number: null });
    expect(refused.error_text).toContain('Nabywca o numerze NIP 7770001111 nie jest zarejestrowany jako podatnik VAT czynny');
    // A refused row is not sent again on its own.
    expect(await sendDueInvoices(deps())).toMatchObject({ handled: 0 });
    expect(await claimDueSubmissions(test.db, { now: new Date(Date.now() + 3600_000), limit: 10, token: 't' })).toEqual([]);
    // The owner corrects the buyer's NIP: the same number goes again, and is accepted.
    const fixed = fa3('FV/2026/00004', { buyerNip: '1111111111' });
    await test.db.updateTable('invoices').set({ ksef_xml: fixed }).where('id', '=', id).execute();
    expect(await resendKsefSubmission(test.db, { invoiceId: id, xml: fixed })).toBe(true);
    expect(await submission(id)).toMatchObject({ status: 'queued', error_code: null, error_text: null, invoice_hash: sha256Base64(fixed) });
    expect(await sendDueInvoices(deps())).toMatchObject({ accepted: 1 });
    expect((await submission(id)).upo).toContain('<NumerFaktury>FV/2026/00004</NumerFaktury>');
    // An accepted invoice is never sent again.
    expect(await resendKsefSubmission(test.db, { invoiceId: id, xml: fixed })).toBe(false);
  });

  it('a 429 pauses every worker until its Retry-After; maintenance is waited out with back-off; then all is sent', async () => {
    const id = await issued('FV/2026/00005');
    await contextFor().accessToken();
    await post('/__mode', { mode: 'rate-limit', count: 1, retryAfter: 2 });
    const first = await sendDueInvoices(deps());
    expect(first.accepted).toBe(0);
    expect(first.pausedUntil!.getTime()).toBeGreaterThan(Date.now() + 1_000);
    // Another node, a moment later, does not call KSeF at all before the time it gave.
    const before = (await standInRequests()).requests;
    expect(await sendDueInvoices(deps())).toMatchObject({ handled: 0 });
    expect((await standInRequests()).requests).toEqual(before);
    expect(await submission(id)).toMatchObject({ status: 'queued' });
    await new Promise((r) => setTimeout(r, 2_100));
    await post('/__mode', { mode: 'maintenance', count: 1, retryAfter: 1 });
    expect((await sendDueInvoices(deps())).accepted).toBe(0);
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await sendDueInvoices(deps())).toMatchObject({ accepted: 1 });
  });

  it('an answer lost after KSeF accepted is found out from the session, not sent again: one invoice, one KSeF number', async () => {
    const id = await issued('FV/2026/00006');
    await post('/__mode', { mode: 'lose-answer', count: 1 });
    const lost = await sendDueInvoices(deps());
    expect(lost.accepted).toBe(0);
    expect(await submission(id)).toMatchObject({ status: 'unsure' });
    expect(await sendDueInvoices(deps(), { now: new Date(Date.now() + 10 * 60_000) })).toMatchObject({ accepted: 1 });
    const { sends, requests } = await standInRequests();
    expect(sends['FV/2026/00006']).toBe(1);
    expect(requests['session-invoices']).toBe(1);
    expect(isKsefNumber((await submission(id)).ksef_number!)).toBe(true);
  });

  it('an invoice KSeF has already (a lost session, a copy) gets the original number from the 440, with its UPO', async () => {
    const first = await issued('FV/2026/00007');
    expect(await sendDueInvoices(deps())).toMatchObject({ accepted: 1 });
    const original = (await submission(first)).ksef_number;
    // The same document queued again (as a restore from a backup taken before the answer would do).
    const again = `${first}-again`;
    const xml = (await test.db.selectFrom('invoices').select('ksef_xml').where('id', '=', first).executeTakeFirstOrThrow()).ksef_xml!;
    await test.db.insertInto('invoices').values({ ...(await test.db.selectFrom('invoices').selectAll().where('id', '=', first).executeTakeFirstOrThrow()), id: again, number: 'FV/2026/00007-copy', seq: nextSeq++, order_id: `order-${again}`, ksef_number: null }).execute();
    await queueKsefSubmission(test.db, { invoiceId: again, xml, issuedAt: new Date().toISOString() });
    expect(await sendDueInvoices(deps())).toMatchObject({ accepted: 1 });
    expect(await submission(again)).toMatchObject({ status: 'accepted', ksef_number: original });
    expect((await submission(again)).upo).toContain(`<NumerKSeFDokumentu>${original}</NumerKSeFDokumentu>`);
  });

  it('an invoice issued on an earlier day goes as offline24 and knows its deadline', async () => {
    const id = await issued('FV/2026/00008', { issueDate: '2026-12-03' });
    expect((await submission(id)).deadline).toBe('2026-12-04T22:59:59.999Z');
    expect(await sendDueInvoices(deps())).toMatchObject({ accepted: 1 });
    expect(await submission(id)).toMatchObject({ offline: 1, status: 'accepted' });
    expect((await submission(id)).upo).toContain('<TrybWysylki>Offline</TrybWysylki>');
  });
});
