/**
 * Invoicing set up but not usable is said, not found out later (issue 50, point 18): a seller NIP that fails its
 * checksum, or one of the three details missing, is logged at start-up and shown on the tax page and the
 * dashboard in the owner's language; a shop that sets none of them (it does not invoice) is told nothing.
 */
import { createCookie } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellerProblem } from '~/modules/invoices/index.server';
import { getT } from '~/modules/i18n/index.server';
import { type TestShop, rawRequest, startTestShop } from './test-shop';

const seller = { legalName: 'Kopi Palarnia sp. z o.o.', address: 'ul. Mokotowska 12, 00-640 Warszawa' };
/** The page's text as a reader sees it (entities decoded, spaces plain). */
const plain = (html: string) => html.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('the seller’s details', () => {
  it('name the problem: a NIP failing its checksum, a detail missing; none at all is a shop that does not invoice', () => {
    expect(sellerProblem({ ...seller, taxId: '5260250274' })).toBeNull();
    expect(sellerProblem({ ...seller, taxId: '526-025-02-74' })).toBeNull();
    expect(sellerProblem({ ...seller, taxId: '5260250275' })).toBe('taxId');
    expect(sellerProblem({ ...seller, taxId: '' })).toBe('incomplete');
    expect(sellerProblem({ legalName: seller.legalName, taxId: '5260250274' })).toBe('incomplete');
    expect(sellerProblem({})).toBeNull();
  });
});

describe('a shop whose NIP fails its checksum', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ SHOP_LEGAL_NAME: seller.legalName, SHOP_ADDRESS: seller.address, SHOP_TAX_ID: '5260250275' }, { captureLogs: true });
  });
  afterAll(() => shop?.close());

  it('says so at start-up, and on the tax page and the dashboard in both languages', async () => {
    expect(shop.logs.some((line) => line.problem === 'taxId' && /SHOP_TAX_ID is not a valid NIP/.test(line.msg))).toBe(true);
    const admin = await shop.admin();
    // The back office speaks the language the owner chose (its signed cookie), English by default.
    const polish = (await createCookie('lang', { secrets: shop.config.sessionSecrets }).serialize('pl')).split(';')[0];
    for (const [locale, cookie] of [['en', admin.cookie], ['pl', `${admin.cookie}; ${polish}`]] as const) {
      const text = getT(locale)('admin.invoices.sellerProblem.taxId');
      for (const page of ['/admin/tax', '/admin']) {
        const response = await rawRequest(shop.port, { method: 'GET', path: page, headers: { cookie } });
        expect(response.status).toBe(200);
        expect(plain(response.body)).toContain(plain(text));
      }
    }
  });
});
