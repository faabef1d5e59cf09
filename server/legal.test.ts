/**
 * The pages an EU shop must publish: every one in both languages, linked from every page's footer, with the
 * seller's details from the configuration, the owner's own text taking the template's place without code,
 * and the sentences at sign-up, payment and in the cookie banner leading to them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalPages } from '~/modules/legal/pages';
import { type TestShop, startTestShop } from './test-shop';

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop({
    SHOP_LEGAL_NAME: 'Kopi Roasters sp. z o.o.',
    SHOP_ADDRESS: 'ul. Palacza 7, 00-001 Warszawa',
    SHOP_TAX_ID: 'PL5250000000',
    SHOP_EMAIL: 'sklep@kopi.example',
    SHOP_PHONE: '+48 22 000 00 00',
    PAGE_CACHE: 'false',
  });
});
afterAll(() => shop?.close());

const get = (path: string) => fetch(shop.base + path, { redirect: 'manual' });
/** The page's text as rendered (the hydration data also carries the untranslated catalogue). */
const article = (html: string) => /<article[\s\S]*<\/article>/.exec(html)?.[0] ?? '';
const h1 = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];

describe('legal pages', () => {
  const titles = {
    en: ['Terms of sale', 'Privacy policy', 'Cookie policy', 'Shipping and returns', 'Seller', 'How reviews are checked'],
    pl: ['Regulamin sklepu', 'Polityka prywatności', 'Polityka plików cookie', 'Dostawa i zwroty', 'Sprzedawca', 'Jak sprawdzamy opinie'],
  };

  it('every page exists in both languages, with the seller’s details filled in and the template marked as one', async () => {
    for (const [locale, prefix] of [['en', ''], ['pl', '/pl']] as const) {
      for (const [i, page] of legalPages.entries()) {
        const response = await get(`${prefix}/legal/${page}`);
        expect(response.status, page).toBe(200);
        const html = await response.text();
        expect(html).toContain(`<html lang="${locale}"`);
        expect(h1(html), page).toBe(titles[locale][i]);
        expect(html).toContain('data-testid="legal-template"');
        expect(article(html)).not.toContain('{{');
        expect(article(html), page).not.toMatch(/not set|nie ustawiono/);
      }
    }
    const seller = await (await get('/pl/legal/seller')).text();
    for (const detail of ['Kopi Roasters sp. z o.o.', 'ul. Palacza 7, 00-001 Warszawa', 'PL5250000000', 'mailto:sklep@kopi.example']) expect(seller).toContain(detail);
    const returns = await (await get('/legal/shipping-returns')).text();
    expect(returns).toContain('Model withdrawal form');
    expect(returns).toContain('To: Kopi Roasters sp. z o.o., ul. Palacza 7, 00-001 Warszawa, sklep@kopi.example');
    expect(await (await get('/pl/legal/shipping-returns')).text()).toContain('Wzór formularza odstąpienia od umowy');
  });

  it('an unknown page is a 404 in the page’s language', async () => {
    for (const url of ['/legal/imprint', '/pl/legal/..%2F..%2Fetc%2Fpasswd', '/legal/terms.md', '/legal/']) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
    }
  });

  it('the footer of every page links to all of them, in the page’s language', async () => {
    for (const [url, prefix] of [['/', ''], ['/pl/about', '/pl'], ['/cart', '']] as const) {
      const html = await (await get(url)).text();
      for (const page of legalPages) expect(html, `${url} → ${page}`).toContain(`href="${prefix}/legal/${page}"`);
    }
  });

  it('sign-up and the payment step say that continuing accepts the terms, and link to them', async () => {
    const signUp = await (await get('/pl/auth?mode=signup')).text();
    expect(signUp).toMatch(/>Zakładając konto, akceptujesz <a [^>]*href="\/pl\/legal\/terms"[^>]*>Regulamin<\/a> i potwierdzasz, że znasz <a [^>]*href="\/pl\/legal\/privacy"[^>]*>politykę prywatności<\/a>/);
    const login = await (await get('/auth?mode=login')).text();
    expect(login).not.toMatch(/>By creating an account you accept the <a/);
  });

  it('the sitemap lists them in both languages', async () => {
    const xml = await (await get('/sitemap.xml')).text();
    for (const page of legalPages) {
      expect(xml).toContain(`<loc>http://127.0.0.1:3999/legal/${page}</loc>`);
      expect(xml).toContain(`<loc>http://127.0.0.1:3999/pl/legal/${page}</loc>`);
    }
  });
});

describe('the owner’s own texts', () => {
  it('a file in LEGAL_DIR/{locale}/{page}.md replaces the template, with placeholders filled and no HTML let through', async () => {
    const dir = path.join(shop.config.legalDir, 'pl');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'terms.md'), '# Nasz regulamin\n\nSprzedaje {{legalName}}, NIP {{taxId}}.\n\n<script>alert(1)</script>\n');
    try {
      const html = await (await get('/pl/legal/terms')).text();
      expect(h1(html)).toBe('Nasz regulamin');
      expect(html).toContain('Sprzedaje Kopi Roasters sp. z o.o., NIP PL5250000000.');
      expect(html).not.toContain('data-testid="legal-template"');
      expect(html).not.toContain('<script>alert(1)');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      // The English page still shows the template.
      expect(h1(await (await get('/legal/terms')).text())).toBe('Terms of sale');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
