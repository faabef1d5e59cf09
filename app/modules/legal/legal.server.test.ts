import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '~/config/env.server';
import { legalDocument } from './legal.server';

const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-legal-')), ...env }, { readDotEnv: false });

describe('legal documents', () => {
  it('says plainly which seller detail is not configured yet, in the page’s language', async () => {
    const text = JSON.stringify(await legalDocument(config(), 'seller', 'en'));
    expect(text).toContain('(not set: SHOP_LEGAL_NAME)');
    expect(text).toContain('(not set: SHOP_TAX_ID)');
    expect(JSON.stringify(await legalDocument(config(), 'seller', 'pl'))).toContain('(nie ustawiono: SHOP_ADDRESS)');
    // A link to an address that is not set is no link, just the words.
    const seller = await legalDocument(config(), 'seller', 'en');
    const email = seller.blocks.find((b) => b.kind === 'list');
    expect(JSON.stringify(email)).toContain(': (not set: SHOP_EMAIL)');
    expect(JSON.stringify(seller)).not.toContain('mailto:');
  });

  it('takes its title from the first heading and reports whether the owner wrote it', async () => {
    const shop = config({ SHOP_LEGAL_NAME: 'Kopi SA' });
    const template = await legalDocument(shop, 'privacy', 'en');
    expect(template).toMatchObject({ title: 'Privacy policy', fromOwner: false });
    fs.mkdirSync(path.join(shop.legalDir, 'en'), { recursive: true });
    fs.writeFileSync(path.join(shop.legalDir, 'en', 'privacy.md'), 'No heading, just {{legalName}}.');
    const own = await legalDocument(shop, 'privacy', 'en');
    expect(own).toMatchObject({ title: 'Privacy policy', fromOwner: true, blocks: [{ kind: 'paragraph', content: [{ kind: 'text', text: 'No heading, just Kopi SA.' }] }] });
  });

  it('states the retention periods as configured, in both languages', async () => {
    const text = JSON.stringify(await legalDocument(config({ RETENTION_CART_DAYS: '45', RETENTION_TAX_YEARS: '6' }), 'privacy', 'en'));
    expect(text).toContain('6 years after the end of the year in which the tax on the sale was due');
    expect(text).toContain('guest carts: 45 days');
    expect(text).toContain('their text 30 days after sending');
    expect(text).not.toContain('{{');
    const pl = JSON.stringify(await legalDocument(config(), 'privacy', 'pl'));
    expect(pl).toContain('5 lat od końca roku, w którym minął termin zapłaty podatku od sprzedaży');
    expect(pl).toContain('13 mies.');
    // Statistics are linked to a signed-in customer's account: pseudonymous, never called anonymous.
    expect(text).toContain('pseudonymous, not anonymous');
    expect(text).not.toMatch(/\banonymous page views/);
    expect(pl).toContain('spseudonimizowane, a nie anonimowe');
    expect(pl).not.toContain('anonimowe odsłony');
  });

  it('refuses retention periods below what the law needs', () => {
    expect(() => config({ RETENTION_TAX_YEARS: '4' })).toThrow(/RETENTION_TAX_YEARS/);
    expect(() => config({ RETENTION_CART_DAYS: 'soon' })).toThrow(/RETENTION_CART_DAYS/);
  });

  it('LEGAL_DIR moves the owner’s folder; by default it is DATA_DIR/legal', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-legal-'));
    expect(loadConfig({ DATA_DIR: dataDir }, { readDotEnv: false }).legalDir).toBe(path.join(dataDir, 'legal'));
    expect(loadConfig({ DATA_DIR: dataDir, LEGAL_DIR: '/srv/legal' }, { readDotEnv: false }).legalDir).toBe('/srv/legal');
  });
});
