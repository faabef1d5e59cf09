/**
 * KSeF FA(3) XML: every kind of invoice the shop issues is validated against the Ministry of Finance's schema with
 * xmllint (offline, through the catalog in vendor/ksef, a copy of ../shared/ksef), and the figures that matter are read back. A missing
 * xmllint or schema fails the tests: they never skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { InvoiceBuyer } from './buyer';
import type { Invoice, InvoiceLine, Seller } from './invoices.server';
import { crc8, isKsefNumber, ksefEligible, ksefXml, vatInPln } from './ksef';

const KSEF_DIR = fileURLToPath(new URL('../../../vendor/ksef/', import.meta.url));
const SCHEMA = path.join(KSEF_DIR, 'schemat_FA(3)_v1-0E.xsd');
const CATALOG = path.join(KSEF_DIR, 'catalog.xml');

/** Runs xmllint against the FA(3) schema; throws (failing the test) with its messages unless it exits 0. */
function validate(xml: string, name: string): void {
  if (!existsSync(SCHEMA) || !existsSync(CATALOG)) throw new Error(`The FA(3) schema or its catalog is missing from ${KSEF_DIR}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'kopi-ksef-'));
  const file = path.join(dir, `${name}.xml`);
  writeFileSync(file, xml);
  try {
    execFileSync('xmllint', ['--nonet', '--noout', '--schema', SCHEMA, file], { env: { ...process.env, XML_CATALOG_FILES: CATALOG }, stdio: 'pipe' });
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    throw new Error(`xmllint rejected ${name}:\n${e.stderr?.toString() || e.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The texts of every `<name>` element, in order. */
const values = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);
const value = (xml: string, name: string) => values(xml, name)[0];
/** The XML of the first `<name>` element with its content. */
const block = (xml: string, name: string) => xml.match(new RegExp(`<${name}>[\\s\\S]*?</${name}>`))?.[0] ?? '';

/** A line as checkout stores it: VAT inside the gross, half away from zero. */
function line(name: string, sku: string | null, quantity: number, unitGrossCents: number, rateBp: number): InvoiceLine {
  const grossCents = quantity * unitGrossCents;
  const exact = (grossCents * rateBp) / (10_000 + rateBp);
  const vatCents = Math.sign(exact) * Math.round(Math.abs(exact));
  return { name, sku, quantity, unitGrossCents, grossCents, netCents: grossCents - vatCents, vatCents, rateBp };
}

function invoiceOf(fields: Partial<Invoice> & Pick<Invoice, 'number' | 'buyer' | 'lines'>): Invoice {
  const byRate = new Map<number, { rateBp: number; grossCents: number; netCents: number; vatCents: number }>();
  for (const l of fields.lines) {
    const p = byRate.get(l.rateBp) ?? { rateBp: l.rateBp, grossCents: 0, netCents: 0, vatCents: 0 };
    byRate.set(l.rateBp, { rateBp: l.rateBp, grossCents: p.grossCents + l.grossCents, netCents: p.netCents + l.netCents, vatCents: p.vatCents + l.vatCents });
  }
  const parts = [...byRate.values()];
  return {
    id: `inv_${fields.number.replace(/\W/g, '')}`,
    series: 'FV',
    kind: 'invoice',
    orderId: 'ord_0001',
    correctsNumber: null,
    locale: 'pl',
    currency: 'PLN',
    issuedAt: '2026-11-28T09:30:00.000Z',
    saleDate: '2026-11-20',
    seller,
    payment: { provider: 'test', paidAt: '2026-11-20T12:05:00.000Z', reference: 'pay_1' },
    totals: {
      byRate: parts,
      netCents: parts.reduce((s, p) => s + p.netCents, 0),
      vatCents: parts.reduce((s, p) => s + p.vatCents, 0),
      grossCents: parts.reduce((s, p) => s + p.grossCents, 0),
    },
    ...fields,
  };
}

const createdAt = new Date('2026-11-28T09:31:02.345Z');
const seller: Seller = { name: 'Kopi Palarnia sp. z o.o.', address: 'ul. Mokotowska 12\n00-640 Warszawa', taxId: '5260250274', email: 'sklep@kopi.test' };
const cafe: InvoiceBuyer = { name: 'Kawiarnia Żółć sp. z o.o.', taxId: '7250018200', country: 'PL', address: 'ul. Piotrkowska 100', zipCode: '90-004', city: 'Łódź' };

const cafeInvoice = invoiceOf({
  number: 'FV/2026/00042',
  buyer: cafe,
  lines: [line('Etiopia Yirgacheffe, 250 g', 'ETH-250', 2, 4900, 2300), line('Dostawa kurierem', null, 1, 1500, 2300)],
});

describe('KSeF numbers', () => {
  it('carry the CRC-8 of their first 32 characters, as faktury/numer-ksef.md computes it', () => {
    // The Ministry's example, and CRC-8 (polynomial 0x07, initial 0) of the standard check input.
    expect(isKsefNumber('5265877635-20250826-0100001AF629-AF')).toBe(true);
    expect(crc8('5265877635-20250826-0100001AF629')).toBe(0xaf);
    expect(crc8('123456789')).toBe(0xf4);
    for (const bad of ['5265877635-20250826-0100001AF629-AE', '5265877635-20250826-0100001AF628-AF', '5265877635-20250826-0100001AF629-af', '5265877635-20250826-010000-1AF629-AF', ' 5265877635-20250826-0100001AF629-AF']) {
      expect(isKsefNumber(bad), bad).toBe(false);
    }
  });
});

describe('ksefXml', () => {
  it('a Polish company at 23% in PLN, with a delivery line', () => {
    const xml = ksefXml(cafeInvoice, { createdAt });
    validate(xml, 'pl-company');
    expect(value(xml, 'P_2')).toBe('FV/2026/00042');
    expect(values(xml, 'NIP')).toEqual(['5260250274', '7250018200']);
    expect(value(xml, 'DataWytworzeniaFa')).toBe('2026-11-28T09:31:02Z');
    expect(value(xml, 'KodWaluty')).toBe('PLN');
    expect(value(xml, 'P_1')).toBe('2026-11-28');
    expect(value(xml, 'P_6')).toBe('2026-11-20');
    // 2 × 49.00 (VAT 18.33) + 15.00 delivery (VAT 2.80).
    expect(value(xml, 'P_13_1')).toBe('91.87');
    expect(value(xml, 'P_14_1')).toBe('21.13');
    expect(xml).not.toContain('P_14_1W');
    expect(value(xml, 'P_15')).toBe('113.00');
    expect(value(xml, 'RodzajFaktury')).toBe('VAT');
    expect(block(xml, 'Podmiot1')).toContain('<AdresL1>ul. Mokotowska 12</AdresL1>\n<AdresL2>00-640 Warszawa</AdresL2>');
    expect(block(xml, 'Podmiot2')).toContain('<KodKraju>PL</KodKraju>\n<AdresL1>ul. Piotrkowska 100</AdresL1>\n<AdresL2>90-004 Łódź</AdresL2>');
    expect(value(xml, 'JST')).toBe('2');
    expect(value(xml, 'GV')).toBe('2');
    expect(values(xml, 'P_7')).toEqual(['Etiopia Yirgacheffe, 250 g', 'Dostawa kurierem']);
    expect(values(xml, 'Indeks')).toEqual(['ETH-250']);
    expect(values(xml, 'P_8B')).toEqual(['2', '1']);
    expect(values(xml, 'P_9B')).toEqual(['49.00', '15.00']);
    expect(values(xml, 'P_11A')).toEqual(['98.00', '15.00']);
    expect(values(xml, 'P_11Vat')).toEqual(['18.33', '2.80']);
    expect(values(xml, 'P_12')).toEqual(['23', '23']);
    expect(block(xml, 'Platnosc')).toBe('<Platnosc>\n<Zaplacono>1</Zaplacono>\n<DataZaplaty>2026-11-20</DataZaplaty>\n</Platnosc>');
    // Deterministic given createdAt.
    expect(ksefXml(cafeInvoice, { createdAt })).toBe(xml);
  });

  it('an EUR invoice to a Polish company: each rate in its field, the VAT also in PLN at the given rate', () => {
    const invoice = invoiceOf({
      number: 'FV/2026/00043',
      currency: 'EUR',
      buyer: cafe,
      lines: [
        line('Kolumbia Huila, 250 g', 'COL-250', 1, 1490, 2300),
        line('Książka o kawie', 'BOOK-1', 1, 2100, 500),
        line('Ciastko', 'CAKE', 3, 450, 800),
        line('Karta podarunkowa', 'GIFT', 1, 1000, 0),
        line('Dostawa kurierem', null, 1, 990, 2300),
      ],
    });
    const xml = ksefXml(invoice, { createdAt, plnRate: 4.2537 });
    validate(xml, 'eur-pl-company');
    expect(value(xml, 'KodWaluty')).toBe('EUR');
    expect(value(xml, 'P_13_1')).toBe('20.16');
    expect(value(xml, 'P_14_1')).toBe('4.64');
    expect(value(xml, 'P_14_1W')).toBe('19.74'); // 4.64 × 4.2537 = 19.737…
    expect(value(xml, 'P_13_2')).toBe('12.50');
    expect(value(xml, 'P_14_2')).toBe('1.00');
    expect(value(xml, 'P_14_2W')).toBe('4.25');
    expect(value(xml, 'P_13_3')).toBe('20.00');
    expect(value(xml, 'P_14_3')).toBe('1.00');
    expect(value(xml, 'P_14_3W')).toBe('4.25');
    expect(value(xml, 'P_13_6_1')).toBe('10.00');
    expect(value(xml, 'P_15')).toBe('69.30');
    expect(values(xml, 'P_12')).toEqual(['23', '5', '8', '0 KR', '23']);
    expect(values(xml, 'KursWaluty')).toEqual(Array(5).fill('4.2537'));
    // Without a rate: the documented placeholder.
    const fallback = ksefXml(invoice, { createdAt });
    validate(fallback, 'eur-default-rate');
    expect(value(fallback, 'P_14_1W')).toBe('19.72');
    expect(values(fallback, 'KursWaluty')[0]).toBe('4.25');
  });

  it('a company abroad with an EU VAT number: its prefix as KodUE (EL for Greece), its country as GR', () => {
    const invoice = invoiceOf({
      number: 'FV/2026/00044',
      currency: 'EUR',
      buyer: { name: 'Kafeteria Athina AE', taxId: 'EL094259216', country: 'GR', address: 'Odos Ermou 15', zipCode: '105 63', city: 'Athina' },
      lines: [line('Etiopia Yirgacheffe, 250 g', 'ETH-250', 2, 1490, 2300), line('Dostawa kurierem', null, 1, 1290, 2300)],
    });
    const xml = ksefXml(invoice, { createdAt, plnRate: 4.2211 });
    validate(xml, 'eu-vat-number');
    const buyer = block(xml, 'Podmiot2');
    expect(value(buyer, 'KodUE')).toBe('EL');
    expect(value(buyer, 'NrVatUE')).toBe('094259216');
    expect(buyer).not.toContain('<NIP>');
    expect(value(buyer, 'KodKraju')).toBe('GR');
    expect(value(buyer, 'AdresL2')).toBe('105 63 Athina');
    expect(values(xml, 'NIP')).toEqual(['5260250274']);
    expect(value(xml, 'P_15')).toBe('42.70');
    expect(value(xml, 'P_14_1W')).toBe(((Math.round((557 + 241) * 4.2211)) / 100).toFixed(2));
  });

  it('a correction of the first invoice: KOR with the corrected invoice and negative differences', () => {
    const correction = invoiceOf({
      number: 'KOR/2026/00007',
      series: 'KOR',
      kind: 'correction',
      correctsNumber: 'FV/2026/00042',
      issuedAt: '2026-12-03T10:00:00.000Z',
      saleDate: '2026-11-20',
      buyer: cafe,
      lines: [line('Etiopia Yirgacheffe, 250 g', 'ETH-250', -1, 4900, 2300)],
      payment: { provider: 'test', paidAt: '2026-12-03T10:00:00.000Z', reference: 're_1' },
    });
    const options = { createdAt: new Date('2026-12-03T10:00:05Z'), correction: { number: 'FV/2026/00042', issuedAt: cafeInvoice.issuedAt, ksefNumber: '5260250274-20261128-0A1B2C3D4E5F-F7', reason: 'Zwrot towaru' } };
    const xml = ksefXml(correction, options);
    validate(xml, 'correction');
    expect(value(xml, 'P_2')).toBe('KOR/2026/00007');
    expect(values(xml, 'NIP')).toEqual(['5260250274', '7250018200']);
    expect(value(xml, 'RodzajFaktury')).toBe('KOR');
    expect(value(xml, 'PrzyczynaKorekty')).toBe('Zwrot towaru');
    expect(value(xml, 'TypKorekty')).toBe('2');
    const corrected = block(xml, 'DaneFaKorygowanej');
    expect(value(corrected, 'DataWystFaKorygowanej')).toBe('2026-11-28');
    expect(value(corrected, 'NrFaKorygowanej')).toBe('FV/2026/00042');
    expect(value(corrected, 'NrKSeF')).toBe('1');
    expect(value(corrected, 'NrKSeFFaKorygowanej')).toBe('5260250274-20261128-0A1B2C3D4E5F-F7');
    expect(value(xml, 'P_13_1')).toBe('-39.84');
    expect(value(xml, 'P_14_1')).toBe('-9.16');
    expect(value(xml, 'P_15')).toBe('-49.00');
    expect(value(xml, 'P_8B')).toBe('-1');
    expect(value(xml, 'P_11A')).toBe('-49.00');

    // The corrected invoice was issued outside KSeF.
    const outside = ksefXml(correction, { ...options, correction: { ...options.correction, ksefNumber: null } });
    validate(outside, 'correction-outside-ksef');
    expect(value(outside, 'NrKSeFN')).toBe('1');
    expect(outside).not.toContain('NrKSeFFaKorygowanej');

    expect(() => ksefXml(correction, { createdAt })).toThrow(/options\.correction/);
    expect(() => ksefXml(correction, { ...options, correction: { ...options.correction, ksefNumber: 'nope' } })).toThrow(/KSeF number/);
  });

  it('a private person without a tax number: BrakID with their name; sold on the day of issue: no P_6; not paid yet: no Platnosc', () => {
    const invoice = invoiceOf({
      number: 'FV/2026/00045',
      // Issued on the day of the sale in Warsaw (23:30 UTC is past midnight there): no P_6.
      issuedAt: '2026-11-27T23:30:00.000Z',
      saleDate: '2026-11-28',
      buyer: { name: 'Jan "Kawa" Kowalski & <syn>', taxId: '', country: 'PL', address: 'ul. Długa 5/7\nklatka B', zipCode: '80-827', city: 'Gdańsk' },
      lines: [line('Brazylia Santos, 1 kg', 'BRA-1000', 1, 11900, 2300)],
      payment: { provider: 'transfer', paidAt: null, reference: null },
      seller: { ...seller, address: 'ul. Mokotowska 12, 00-640 Warszawa', email: undefined },
    });
    const xml = ksefXml(invoice, { createdAt });
    validate(xml, 'private-person');
    const buyer = block(xml, 'Podmiot2');
    expect(value(buyer, 'BrakID')).toBe('1');
    expect(value(buyer, 'Nazwa')).toBe('Jan &quot;Kawa&quot; Kowalski &amp; &lt;syn&gt;');
    expect(value(buyer, 'AdresL1')).toBe('ul. Długa 5/7 klatka B');
    expect(values(xml, 'NIP')).toEqual(['5260250274']);
    expect(block(xml, 'Podmiot1')).toContain('<AdresL1>ul. Mokotowska 12</AdresL1>\n<AdresL2>00-640 Warszawa</AdresL2>');
    expect(xml).not.toContain('DaneKontaktowe');
    expect(value(xml, 'P_15')).toBe('119.00');
    expect(value(xml, 'P_1')).toBe('2026-11-28');
    expect(xml).not.toContain('<P_6>');
    expect(xml).not.toContain('<Platnosc>');
    expect(ksefEligible(invoice)).toBe(false);
  });

  it('an OSS invoice to a German consumer at 7% and 19%: P_13_5/P_14_5, the rates in P_12_XII, no PLN conversion', () => {
    const lines = [
      line('Etiopia Yirgacheffe, 250 g', 'ETH-250', 2, 1490, 700),
      line('Kubek', 'MUG', 1, 1800, 1900),
      // The delivery follows its goods: split over both rates.
      line('Lieferung', null, 1, 619, 700),
      line('Lieferung', null, 1, 371, 1900),
    ];
    const invoice = invoiceOf({ number: 'FV/2026/00046', currency: 'EUR', buyer: { name: 'Erika Mustermann', taxId: '', country: 'DE', address: 'Hauptstraße 1', zipCode: '10115', city: 'Berlin' }, lines });
    const xml = ksefXml(invoice, { createdAt, taxCountry: 'DE' });
    validate(xml, 'oss-de');
    const net = lines.reduce((s, l) => s + l.netCents, 0);
    const vat = lines.reduce((s, l) => s + l.vatCents, 0);
    expect(value(xml, 'P_13_5')).toBe((net / 100).toFixed(2));
    expect(value(xml, 'P_14_5')).toBe((vat / 100).toFixed(2));
    expect(value(xml, 'P_15')).toBe('57.70');
    expect(xml).not.toMatch(/<P_1[34]_[1-3]/);
    expect(xml).not.toMatch(/<P_14_\dW>|<KursWaluty>|<P_12>/);
    expect(values(xml, 'P_12_XII')).toEqual(['7', '19', '7', '19']);
    expect(values(xml, 'Procedura')).toEqual(Array(4).fill('WSTO_EE'));
    expect(value(block(xml, 'Podmiot2'), 'KodKraju')).toBe('DE');
    // Rates that are not Poland's tell OSS without taxCountry too.
    expect(ksefXml(invoice, { createdAt })).toBe(xml);
    // Declared as Polish VAT, a German rate is an error, not a guess.
    expect(() => ksefXml(invoice, { createdAt, taxCountry: 'PL' })).toThrow(/not a Polish VAT rate/);
  });

  it('is checked by a validator that does reject what the schema forbids', () => {
    const xml = ksefXml(cafeInvoice, { createdAt });
    expect(() => validate(xml.replace('<GV>2</GV>', ''), 'without-gv')).toThrow(/GV/);
    expect(() => validate(xml.replace('<P_15>113.00</P_15>', '<P_15>113.001</P_15>'), 'three-decimals')).toThrow(/P_15/);
  });

  it('refuses a seller whose tax number is not a NIP', () => {
    expect(() => ksefXml({ ...cafeInvoice, seller: { ...seller, taxId: '0123456789' } }, { createdAt })).toThrow(/not a NIP/);
  });
});

describe('ksefEligible', () => {
  it('is a buyer with a Polish NIP', () => {
    expect(ksefEligible(cafeInvoice)).toBe(true);
    expect(ksefEligible({ buyer: { ...cafe, taxId: '' } })).toBe(false);
    expect(ksefEligible({ buyer: { ...cafe, country: 'DE', taxId: 'DE123456789' } })).toBe(false);
    expect(ksefEligible({ buyer: { ...cafe, country: 'DE' } })).toBe(false);
  });
});

describe('vatInPln', () => {
  it('converts each rate’s VAT once, exactly, half away from zero: 70.00 € at 4.2345 is 296.42 zł, not float’s 296.41', () => {
    expect(7000 * 4.2345).toBeLessThan(29641.5); // what floating point makes of it
    expect(vatInPln([{ vatCents: 7000 }], 4.2345)).toBe(29642);
    expect(vatInPln([{ vatCents: -7000 }], 4.2345)).toBe(-29642);
    expect(vatInPln([{ vatCents: 920 }, { vatCents: 93 }], 4.25)).toBe(3910 + 395);
  });
});
