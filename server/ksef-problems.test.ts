/**
 * A shop that should send its invoices to KSeF but cannot is said, never a silent switch-off (issue 51, point 1):
 * without KSEF_TOKEN it says so at start-up, on the dashboard and on the invoices page, in both languages; with a
 * token KSeF refuses (the KSeF stand-in, tests/doubles/ksef.js) the owner reads KSeF's own words there, the invoice
 * waits, and the token itself appears in no log line and no page. With an offline certificate (KOD II) the
 * invoices page and the log say what it does, and no key material appears anywhere.
 */
import type { ChildProcess } from 'node:child_process';
import { createCookie } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getT } from '~/modules/i18n/index.server';
import { queueKsefSubmission } from '~/modules/ksef/index.server';
import { formatDateTime } from '~/lib/format';
import { spawnStandIn } from '../tests/doubles/spawn';
import { makeOfflineCertificate } from '../tests/fixtures/offline-certificate';
import { type TestShop, rawRequest, startTestShop } from './test-shop';

const seller = { SHOP_LEGAL_NAME: 'Kopi Palarnia sp. z o.o.', SHOP_ADDRESS: 'ul. Mokotowska 12, 00-640 Warszawa', SHOP_TAX_ID: '5260250274' };
const PORT = 3471 + Number(process.env.VITEST_POOL_ID ?? 0);
/** The page's text as a reader sees it (entities decoded, spaces plain). */
const plain = (html: string) => html.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

async function pagesSay(shop: TestShop, pages: string[], key: string, values: Record<string, string | number> = {}) {
  const admin = await shop.admin();
  const polish = (await createCookie('lang', { secrets: shop.config.sessionSecrets }).serialize('pl')).split(';')[0];
  for (const [locale, cookie] of [['en', admin.cookie], ['pl', `${admin.cookie}; ${polish}`]] as const) {
    const text = plain(getT(locale)(key, values));
    for (const page of pages) {
      const response = await rawRequest(shop.port, { method: 'GET', path: page, headers: { cookie } });
      expect(response.status, page).toBe(200);
      expect(plain(response.body), `${page} in ${locale}`).toContain(text);
    }
  }
}

describe('a shop that should send to KSeF without a token', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ ...seller, KSEF_SENDER: 'kopi', KSEF_ENV: 'test' }, { captureLogs: true });
  });
  afterAll(() => shop?.close());

  it('says so at start-up, on the dashboard and on the invoices page, in both languages', async () => {
    expect(shop.logs.some((line) => /KSEF_SENDER=kopi but KSEF_TOKEN is not set/.test(line.msg))).toBe(true);
    await pagesSay(shop, ['/admin'], 'admin.ksef.dashboard.noToken');
    await pagesSay(shop, ['/admin/invoices'], 'admin.ksef.noToken', { count: 0 });
  });
});

describe('a shop whose KSeF token KSeF refuses', () => {
  let shop: TestShop;
  let standIn: ChildProcess;
  // KSeF's shape, but for another NIP: the stand-in refuses it as KSeF does (450).
  const token = `20261204-EC-0123456789-ABCDEF0123-4F|nip-1111111111|${'f'.repeat(64)}`;
  beforeAll(async () => {
    standIn = await spawnStandIn('ksef.js', PORT);
    shop = await startTestShop({ ...seller, KSEF_SENDER: 'kopi', KSEF_ENV: `http://127.0.0.1:${PORT}/v2`, KSEF_TOKEN: token }, { captureLogs: true });
  });
  afterAll(async () => {
    await shop?.close();
    standIn?.kill();
  });

  it("shows KSeF's words on the invoices page and the dashboard; the invoice waits; the token is in no log and no page", async () => {
    const at = new Date().toISOString();
    await shop.db
      .insertInto('invoices')
      .values({ id: 'inv-refused-token', number: 'FV/2026/00001', series: 'FV', year: 2026, seq: 1, order_id: 'o-refused-token', kind: 'invoice', corrects_id: null, refund_id: null, locale: 'pl', currency: 'PLN', issued_at: at, sale_date: at.slice(0, 10), seller: '{}', buyer: JSON.stringify({ name: 'Kawiarnia', taxId: '7250018200', country: 'PL', address: '', zipCode: '', city: '' }), lines: '[]', totals: '{}', payment: '{}', gross_cents: 100, vat_cents: 19, pdf: null, ksef_xml: '<Faktura/>', ksef_number: null, created_by: null, created_at: at })
      .execute();
    await queueKsefSubmission(shop.db, { invoiceId: 'inv-refused-token', xml: '<Faktura/>', issuedAt: at });
    let problem: string | null = null;
    for (let i = 0; i < 100 && !problem; i++) {
      await new Promise((r) => setTimeout(r, 100));
      problem = (await shop.db.selectFrom('ksef_contexts').select('problem').executeTakeFirst())?.problem ?? null;
    }
    expect(problem).toMatch(/^450 Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu: Nieprawidłowy token/);
    await pagesSay(shop, ['/admin'], 'admin.ksef.dashboard.tokenRefused', { words: problem! });
    const admin = await shop.admin();
    const page = await rawRequest(shop.port, { method: 'GET', path: '/admin/invoices', headers: { cookie: admin.cookie } });
    expect(plain(page.body)).toContain(plain(problem!));
    expect(page.body).not.toContain(token.split('|')[2]);
    expect((await shop.db.selectFrom('ksef_submissions').select('status').executeTakeFirstOrThrow()).status).toBe('queued');
    expect(JSON.stringify(shop.logs)).not.toContain(token.split('|')[2]);
    expect(shop.logs.some((line) => /KSeF refused the KSeF token/.test(line.msg))).toBe(true);
  });
});

describe('a shop with an offline KSeF certificate', () => {
  let shop: TestShop;
  let standIn: ChildProcess;
  const files = makeOfflineCertificate();
  const token = `20261204-EC-0123456789-ABCDEF0123-4F|nip-5260250274|${'e'.repeat(64)}`;
  beforeAll(async () => {
    standIn = await spawnStandIn('ksef.js', PORT);
    shop = await startTestShop({ ...seller, KSEF_SENDER: 'kopi', KSEF_ENV: `http://127.0.0.1:${PORT}/v2`, KSEF_TOKEN: token, KSEF_OFFLINE_CERTIFICATE: files.certificate, KSEF_OFFLINE_KEY: files.key }, { captureLogs: true });
  });
  afterAll(async () => {
    await shop?.close();
    standIn?.kill();
    files.remove();
  });

  it('says on the invoices page, in both languages, and at start-up that invoices KSeF is slow to number go to their buyers offline; the key is nowhere', async () => {
    const certificate = shop.config.ksef.offlineCertificate!;
    const admin = await shop.admin();
    const polish = (await createCookie('lang', { secrets: shop.config.sessionSecrets }).serialize('pl')).split(';')[0];
    for (const [locale, cookie] of [['en', admin.cookie], ['pl', `${admin.cookie}; ${polish}`]] as const) {
      const text = getT(locale)('admin.ksef.offlineCertificate', { serial: certificate.serialNumber, from: '', until: formatDateTime(certificate.validTo.toISOString(), locale) });
      const page = await rawRequest(shop.port, { method: 'GET', path: '/admin/invoices', headers: { cookie } });
      expect(plain(page.body)).toContain(plain(text));
      expect(page.body).not.toContain('PRIVATE KEY');
    }
    expect(shop.logs.some((line) => /offline KSeF certificate: an invoice KSeF has not numbered within a minute goes to its buyer offline/.test(line.msg))).toBe(true);
    const key = files.keyPem.split('\n')[1]!;
    expect(JSON.stringify(shop.logs)).not.toContain(key);
  });
});
