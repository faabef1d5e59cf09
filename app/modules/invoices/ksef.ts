/**
 * An invoice as Poland's structured invoice, FA(3) (KSeF; namespace http://crd.gov.pl/wzor/2025/06/25/13775/),
 * from its stored snapshot. The output validates against the Ministry of Finance's schema (a copy and a catalog
 * for offline validation: vendor/ksef/, a copy of ../shared/ksef/). Pure and deterministic given `createdAt`: no database, no clock.
 *
 * How the snapshot maps onto the schema:
 * - Podmiot1 is the seller (NIP, name, address split into two lines); Podmiot2 the buyer: a Polish NIP as NIP, an
 *   EU VAT number as KodUE (its prefix, EL for Greece) + NrVatUE, any other number as KodKraju + NrID, none as
 *   BrakID; JST and GV "2" (not a local-government unit, not a VAT-group member).
 * - Amounts per rate (invoice currency): Polish VAT 23% → P_13_1/P_14_1, 8% → P_13_2/P_14_2, 5% → P_13_3/P_14_3,
 *   0% → P_13_6_1 (rate code "0 KR"). In a currency other than PLN each P_14_x also has its P_14_xW: the VAT in
 *   złoty at `plnRate`. VAT of another member state under OSS (dział XII rozdział 6a) → P_13_5 (net, all rates
 *   together) and P_14_5 (its VAT, not converted: it is paid to that state); the lines carry the rate in
 *   P_12_XII (no P_12: none of its codes is an OSS rate) and Procedura WSTO_EE.
 * - Lines are gross-based (the shop's prices are gross, art. 106e ust. 7): P_9B unit gross price, P_11A gross
 *   value, P_11Vat the line's VAT (computed per line from the gross), P_12 the rate code.
 * - A correction is RodzajFaktury KOR with PrzyczynaKorekty, TypKorekty 2 (a refund reduces the base when the
 *   correction is issued) and DaneFaKorygowanej; its amounts are the differences (negative for a refund).
 */
import { shopDayOf } from '~/lib/shop-days';
import type { InvoiceBuyer } from './buyer';
import type { Invoice, InvoiceLine } from './invoices.server';

export const KSEF_NAMESPACE = 'http://crd.gov.pl/wzor/2025/06/25/13775/';
/** Used when `plnRate` is not given: a placeholder, not a rate — callers must pass the NBP rate. */
export const DEFAULT_PLN_RATE = 4.25;
const TIME_ZONE = 'Europe/Warsaw';

export type KsefCorrection = {
  /** The corrected invoice's number. */
  number: string;
  /** When it was issued: an ISO instant (its Warsaw day is used) or a YYYY-MM-DD day. */
  issuedAt: string;
  /** Its KSeF number when it was sent to KSeF; null when it was issued outside KSeF. */
  ksefNumber: string | null;
  /** Why it is corrected (PrzyczynaKorekty, up to 256 characters). */
  reason: string;
};

export type KsefOptions = {
  /** DataWytworzeniaFa (the file's creation time); now when absent. Must be 2025-09-01 or later. */
  createdAt?: Date;
  /**
   * PLN per 1 unit of the invoice's currency, for the VAT in złoty (P_14_xW) of an invoice not in PLN. By law
   * (art. 31a of the VAT act) the NBP average rate of the last working day before the tax point — the caller
   * must pass it (a correction: the rate of the invoice it corrects). Absent, DEFAULT_PLN_RATE (4.25) is used,
   * which is only a placeholder. Up to 6 decimals.
   */
  plnRate?: number;
  /**
   * Whose VAT the invoice charged (the order's tax country): 'PL' for Polish VAT, another EU country for its VAT
   * under OSS. Absent, Polish VAT unless a line's rate is not one of Poland's (23, 8, 5, 0%), then OSS. Pass it:
   * an OSS rate that equals a Polish one (Portugal's 23%) cannot be told apart otherwise.
   */
  taxCountry?: string;
  /** Required for a correction: the invoice it corrects and why. */
  correction?: KsefCorrection;
};

/** Whether the buyer can receive the invoice through KSeF: a Polish company with its NIP. */
export function ksefEligible(invoice: { buyer: Pick<InvoiceBuyer, 'country' | 'taxId'> }): boolean {
  return invoice.buyer.country === 'PL' && /^\d{10}$/.test(invoice.buyer.taxId);
}

/** Poland's rates as P_12 codes and the fields their sums go in (P_13_x net, P_14_x VAT, P_14_xW VAT in PLN). */
const POLISH_RATES: ReadonlyMap<number, { code: string; net: string; vat: string | null; vatPln: string | null }> = new Map([
  [2300, { code: '23', net: 'P_13_1', vat: 'P_14_1', vatPln: 'P_14_1W' }],
  [800, { code: '8', net: 'P_13_2', vat: 'P_14_2', vatPln: 'P_14_2W' }],
  [500, { code: '5', net: 'P_13_3', vat: 'P_14_3', vatPln: 'P_14_3W' }],
  [0, { code: '0 KR', net: 'P_13_6_1', vat: null, vatPln: null }],
]);
/** The order the schema wants the summary fields in. */
const SUM_FIELDS = ['P_13_1', 'P_14_1', 'P_14_1W', 'P_13_2', 'P_14_2', 'P_14_2W', 'P_13_3', 'P_14_3', 'P_14_3W', 'P_13_5', 'P_14_5', 'P_13_6_1'] as const;
type SumField = (typeof SUM_FIELDS)[number];

/** The schema's TKodyKrajowUE: VAT-number prefixes (Greece EL, Northern Ireland XI). */
const EU_VAT_PREFIXES = new Set(['AT', 'BE', 'BG', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'EL', 'HR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'XI']);
const NIP_PATTERN = /^[1-9]((\d[1-9])|([1-9]\d))\d{7}$/;
/**
 * A KSeF number as KSeF gives it (`faktury/numer-ksef.md`): 35 characters, the seller's NIP, the day, 12 hexadecimal
 * characters and the CRC-8 of the 32 before it, dashed. A number mistyped or pasted short fails its check.
 */
export const isKsefNumber = (value: string): boolean =>
  value.length === 35 && KSEF_NUMBER_PATTERN.test(value) && crc8(value.slice(0, 32)).toString(16).toUpperCase().padStart(2, '0') === value.slice(33);

/** CRC-8 as KSeF computes its numbers' check: polynomial 0x07, initial value 0, over the characters' bytes. */
export function crc8(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, 'latin1')) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

const KSEF_NUMBER_PATTERN = /^([1-9]((\d[1-9])|([1-9]\d))\d{7}|M\d{9}|[A-Z]{3}\d{7})-(20[2-9][0-9]|2[1-9][0-9]{2}|[3-9][0-9]{3})(0[1-9]|1[0-2])(0[1-9]|[1-2][0-9]|3[0-1])-([0-9A-F]{6})-?([0-9A-F]{6})-([0-9A-F]{2})$/;

/**
 * The invoice as FA(3) XML. Throws on what the schema cannot carry and must not be guessed: a seller NIP that is
 * not one, a currency that is not an ISO code, a correction without `options.correction`, a malformed KSeF
 * number, a rate that is not Poland's on an invoice declared as Polish VAT. Text is cleaned (control characters
 * out, whitespace collapsed) and cut to the schema's lengths (names and addresses 512, the number and the reason
 * 256, the SKU 50 characters).
 */
export function ksefXml(invoice: Invoice, options: KsefOptions = {}): string {
  const currency = invoice.currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error(`KSeF: currency ${JSON.stringify(invoice.currency)} is not an ISO 4217 code`);
  const foreign = currency !== 'PLN';
  const rateMicro = foreign ? plnRateMicro(options.plnRate ?? DEFAULT_PLN_RATE) : null;
  const oss = isOss(invoice.lines, options.taxCountry);
  const createdAt = options.createdAt ?? new Date();
  if (Number.isNaN(createdAt.getTime())) throw new Error('KSeF: createdAt is not a date');

  const issueDay = dayOf(invoice.issuedAt);
  const out: string[] = [];
  const el = (name: string, value: string) => out.push(`<${name}>${escapeXml(value)}</${name}>`);
  const open = (name: string) => out.push(`<${name}>`);
  const close = (name: string) => out.push(`</${name}>`);

  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(`<Faktura xmlns="${KSEF_NAMESPACE}">`);

  open('Naglowek');
  out.push('<KodFormularza kodSystemowy="FA (3)" wersjaSchemy="1-0E">FA</KodFormularza>');
  el('WariantFormularza', '3');
  el('DataWytworzeniaFa', createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  el('SystemInfo', 'Kopi');
  close('Naglowek');

  // The seller.
  const sellerNip = invoice.seller.taxId.replace(/^PL/i, '').replace(/[\s-]/g, '');
  if (!NIP_PATTERN.test(sellerNip)) throw new Error(`KSeF: the seller's tax number ${JSON.stringify(invoice.seller.taxId)} is not a NIP`);
  open('Podmiot1');
  open('DaneIdentyfikacyjne');
  el('NIP', sellerNip);
  el('Nazwa', required(invoice.seller.name, 512, "the seller's name"));
  close('DaneIdentyfikacyjne');
  const [sellerL1, sellerL2] = addressLines(invoice.seller.address);
  open('Adres');
  el('KodKraju', 'PL');
  el('AdresL1', sellerL1);
  if (sellerL2) el('AdresL2', sellerL2);
  close('Adres');
  const email = clean(invoice.seller.email ?? '', 255);
  if (/^[^@\s]+@[^@\s]+$/.test(email)) {
    open('DaneKontaktowe');
    el('Email', email);
    close('DaneKontaktowe');
  }
  close('Podmiot1');

  // The buyer.
  const buyer = invoice.buyer;
  open('Podmiot2');
  open('DaneIdentyfikacyjne');
  const id = buyerId(buyer);
  if (id.kind === 'nip') el('NIP', id.nip);
  else if (id.kind === 'eu') {
    el('KodUE', id.prefix);
    el('NrVatUE', id.number);
  } else if (id.kind === 'other') {
    el('KodKraju', id.country);
    el('NrID', id.number);
  } else el('BrakID', '1');
  const buyerName = clean(buyer.name, 512);
  if (buyerName) el('Nazwa', buyerName);
  close('DaneIdentyfikacyjne');
  const buyerL1 = clean(buyer.address, 512);
  const buyerL2 = clean(`${buyer.zipCode} ${buyer.city}`, 512);
  if (buyerL1 || buyerL2) {
    open('Adres');
    el('KodKraju', countryCode(buyer.country));
    el('AdresL1', buyerL1 || buyerL2);
    if (buyerL1 && buyerL2) el('AdresL2', buyerL2);
    close('Adres');
  }
  el('JST', '2');
  el('GV', '2');
  close('Podmiot2');

  // The invoice.
  open('Fa');
  el('KodWaluty', currency);
  el('P_1', issueDay);
  el('P_2', required(invoice.number, 256, "the invoice's number"));
  // "Date of sale … if it differs from the date of issue" (P_6).
  if (invoice.saleDate && invoice.saleDate !== issueDay) el('P_6', dayOf(invoice.saleDate));

  const sums = new Map<SumField, number>();
  const add = (field: SumField, cents: number) => sums.set(field, (sums.get(field) ?? 0) + cents);
  let grossCents = 0;
  const vatByPolishRate = new Map<number, number>();
  for (const line of invoice.lines) {
    grossCents += line.grossCents;
    if (oss) {
      add('P_13_5', line.netCents);
      add('P_14_5', line.vatCents);
      continue;
    }
    const rate = polishRate(line.rateBp);
    add(rate.net as SumField, line.netCents);
    if (rate.vat) {
      add(rate.vat as SumField, line.vatCents);
      vatByPolishRate.set(line.rateBp, (vatByPolishRate.get(line.rateBp) ?? 0) + line.vatCents);
    }
  }
  // The VAT in złoty: each rate's sum converted once (rounded half away from zero to the grosz).
  if (rateMicro !== null) {
    for (const [rateBp, vatCents] of vatByPolishRate) {
      const field = polishRate(rateBp).vatPln;
      if (field) sums.set(field as SumField, toPln(vatCents, rateMicro));
    }
  }
  for (const field of SUM_FIELDS) {
    const value = sums.get(field);
    if (value !== undefined) el(field, amount(value));
  }
  el('P_15', amount(grossCents));

  // No cash accounting, self-billing, reverse charge, split payment, exemption, new means of transport,
  // simplified triangulation or margin scheme.
  open('Adnotacje');
  el('P_16', '2');
  el('P_17', '2');
  el('P_18', '2');
  el('P_18A', '2');
  out.push('<Zwolnienie><P_19N>1</P_19N></Zwolnienie>');
  out.push('<NoweSrodkiTransportu><P_22N>1</P_22N></NoweSrodkiTransportu>');
  el('P_23', '2');
  out.push('<PMarzy><P_PMarzyN>1</P_PMarzyN></PMarzy>');
  close('Adnotacje');

  if (invoice.kind === 'correction') {
    const corrected = options.correction;
    if (!corrected) throw new Error(`KSeF: correction ${invoice.number} needs options.correction (the invoice it corrects)`);
    el('RodzajFaktury', 'KOR');
    const reason = clean(corrected.reason, 256);
    if (reason) el('PrzyczynaKorekty', reason);
    el('TypKorekty', '2');
    open('DaneFaKorygowanej');
    el('DataWystFaKorygowanej', dayOf(corrected.issuedAt));
    el('NrFaKorygowanej', required(corrected.number || invoice.correctsNumber || '', 256, "the corrected invoice's number"));
    if (corrected.ksefNumber) {
      const ksefNumber = corrected.ksefNumber.trim();
      if (!KSEF_NUMBER_PATTERN.test(ksefNumber)) throw new Error(`KSeF: ${JSON.stringify(corrected.ksefNumber)} is not a KSeF number`);
      el('NrKSeF', '1');
      el('NrKSeFFaKorygowanej', ksefNumber);
    } else el('NrKSeFN', '1');
    close('DaneFaKorygowanej');
  } else el('RodzajFaktury', 'VAT');

  invoice.lines.forEach((line, i) => {
    open('FaWiersz');
    el('NrWierszaFa', String(i + 1));
    el('P_7', required(line.name, 512, `line ${i + 1}'s name`));
    const sku = clean(line.sku ?? '', 50);
    if (sku) el('Indeks', sku);
    el('P_8A', 'szt.');
    el('P_8B', quantity(line.quantity));
    el('P_9B', amount(line.unitGrossCents));
    el('P_11A', amount(line.grossCents));
    el('P_11Vat', amount(line.vatCents));
    if (oss) {
      el('P_12_XII', percent(line.rateBp));
      el('Procedura', 'WSTO_EE');
    } else {
      el('P_12', polishRate(line.rateBp).code);
      if (rateMicro !== null) el('KursWaluty', microText(rateMicro));
    }
    close('FaWiersz');
  });

  // A correction's money went back to the buyer: it states no payment by them.
  if (invoice.payment.paidAt && invoice.kind !== 'correction') {
    open('Platnosc');
    el('Zaplacono', '1');
    el('DataZaplaty', dayOf(invoice.payment.paidAt));
    close('Platnosc');
  }
  close('Fa');
  out.push('</Faktura>');
  return `${out.join('\n')}\n`;
}

function isOss(lines: readonly InvoiceLine[], taxCountry: string | undefined): boolean {
  if (taxCountry !== undefined) {
    const country = taxCountry.toUpperCase();
    if (country === 'PL') {
      for (const line of lines) polishRate(line.rateBp);
      return false;
    }
    return true;
  }
  return lines.some((line) => !POLISH_RATES.has(line.rateBp));
}

function polishRate(rateBp: number) {
  const rate = POLISH_RATES.get(rateBp);
  if (!rate) throw new Error(`KSeF: ${rateBp / 100}% is not a Polish VAT rate (23, 8, 5 or 0%)`);
  return rate;
}

type BuyerId = { kind: 'nip'; nip: string } | { kind: 'eu'; prefix: string; number: string } | { kind: 'other'; country: string; number: string } | { kind: 'none' };

function buyerId(buyer: Pick<InvoiceBuyer, 'taxId' | 'country'>): BuyerId {
  const taxId = buyer.taxId.toUpperCase().replace(/[\s.-]/g, '');
  if (!taxId) return { kind: 'none' };
  const country = buyer.country.toUpperCase();
  const nip = country === 'PL' || taxId.startsWith('PL') ? taxId.replace(/^PL/, '') : null;
  if (nip !== null && NIP_PATTERN.test(nip)) return { kind: 'nip', nip };
  const prefix = taxId.slice(0, 2);
  const body = taxId.slice(2);
  if (EU_VAT_PREFIXES.has(prefix) && prefix !== 'PL' && /^[0-9A-Z+*]{1,12}$/.test(body)) return { kind: 'eu', prefix, number: body };
  return { kind: 'other', country: countryCode(country), number: taxId.slice(0, 50) };
}

/** The schema's country codes are ISO's: Greece is GR (EL is only its VAT prefix), the United Kingdom GB. */
function countryCode(country: string): string {
  const code = country.trim().toUpperCase();
  if (code === 'EL') return 'GR';
  if (code === 'UK') return 'GB';
  if (!/^[A-Z]{2}$/.test(code)) throw new Error(`KSeF: ${JSON.stringify(country)} is not a country code`);
  return code;
}

/**
 * Free-text address as AdresL1/AdresL2: several lines → all but the last, then the last ("ul. Mokotowska 12" /
 * "00-640 Warszawa"); one line → split at its last comma the same way; no comma → one line.
 */
function addressLines(text: string): [string, string | undefined] {
  const lines = text.split(/\r\n|\r|\n/).map((l) => clean(l, 512)).filter(Boolean);
  if (lines.length === 0) throw new Error("KSeF: the seller's address is empty");
  if (lines.length > 1) return [clean(lines.slice(0, -1).join(', '), 512), lines[lines.length - 1]];
  const only = lines[0];
  const comma = only.lastIndexOf(',');
  const before = clean(only.slice(0, Math.max(comma, 0)), 512);
  const after = clean(only.slice(comma + 1), 512);
  return comma > 0 && before && after ? [before, after] : [only, undefined];
}

/** An instant's day in Warsaw; a YYYY-MM-DD day as it is. */
function dayOf(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`KSeF: ${JSON.stringify(value)} is not a date`);
  return shopDayOf(date, TIME_ZONE);
}

/** Cents as the schema's TKwotowy: "1234.50", "-0.05". */
function amount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`KSeF: ${cents} is not an amount in cents`);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A quantity as TIlosci (up to 6 decimals). */
function quantity(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`KSeF: ${value} is not a quantity`);
  return Number.isInteger(value) ? String(value) : value.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

/** Basis points as a percentage (TProcentowy): 700 → "7", 1350 → "13.5", 550 → "5.5". */
function percent(rateBp: number): string {
  if (!Number.isInteger(rateBp) || rateBp < 0 || rateBp > 10_000) throw new Error(`KSeF: ${rateBp} is not a rate in basis points`);
  const fraction = String(rateBp % 100).padStart(2, '0').replace(/0+$/, '');
  return fraction ? `${Math.floor(rateBp / 100)}.${fraction}` : String(rateBp / 100);
}

/** A rate as millionths of a złoty (4.2537 → 4253700n), the precision KSeF's KursWaluty carries. */
export function plnRateMicro(rate: number): bigint {
  if (!Number.isFinite(rate) || rate <= 0 || rate > 1_000_000) throw new Error(`KSeF: ${rate} is not an exchange rate`);
  return BigInt(Math.round(rate * 1_000_000));
}

/** An amount in cents of the invoice's currency in grosze, at a rate in millionths, half away from zero. */
export function toPln(cents: number, rateMicro: bigint): number {
  const product = BigInt(cents) * rateMicro;
  const abs = product < 0n ? -product : product;
  const rounded = (abs + 500_000n) / 1_000_000n;
  return Number(product < 0n ? -rounded : rounded);
}

/** VAT in złoty as the XML states it (P_14_xW) and the PDF prints it: each rate's VAT converted once, summed. */
export const vatInPln = (parts: readonly { vatCents: number }[], plnRate: number): number => {
  const micro = plnRateMicro(plnRate);
  return parts.reduce((sum, part) => sum + toPln(part.vatCents, micro), 0);
};

/** A rate in millionths as text: 4253700n → "4.2537". */
function microText(micro: bigint): string {
  const whole = micro / 1_000_000n;
  const fraction = String(micro % 1_000_000n).padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Text for the schema's token types: no control characters, whitespace collapsed, at most `max` characters. */
function clean(value: string, max: number): string {
  const text = value
    // Characters XML 1.0 cannot carry, and bidirectional controls that would make a name read differently.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('').trimEnd() : text;
}

function required(value: string, max: number, what: string): string {
  const text = clean(value, max);
  if (!text) throw new Error(`KSeF: ${what} is empty`);
  return text;
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}
