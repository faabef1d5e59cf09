/**
 * OSS (docs/decisions/0027): the year's cross-border EU sales to consumers against the EU's €10,000 threshold,
 * and the quarterly report an accountant files through the One-Stop Shop.
 *
 * A cross-border sale is a paid order sent to another EU country than Poland (a pickup is a sale at the shop);
 * what counts is its net amount (the threshold is of supplies without VAT), less the net of what was refunded
 * of it. Złoty orders count at the shop's rate: an estimate for the dashboard (the law converts at the
 * National Bank's rate), shown as such.
 *
 * The report lists, per country and rate, the net and the VAT of the OSS-taxed orders paid in the quarter, and
 * apart from them the refunds made in it (corrections go into the return of the period they happen in), each in
 * its currency: OSS returns are in euros, so a złoty amount is converted by the accountant at the ECB rate of
 * the period's last day.
 */
import type { Executor } from '~/db/database.server';
import { getT, type Locale } from '~/modules/i18n/index.server';
import { vatPartsOf } from '~/modules/orders/index.server';
import { RATE_SCALE, currencySettings } from '~/modules/pricing/index.server';
import { HOME_COUNTRY, OSS_THRESHOLD_EUR_CENTS, OSS_WARN_SHARE, type VatPart, sumByRate } from '~/modules/tax/index.server';
import { shopDayOf, startOfShopDay } from '~/lib/shop-days';
import { csvFormat } from './csv-format';

export type CrossBorderSales = {
  year: number;
  /** Net of the year's cross-border consumer orders, per currency, and all of it in euro cents at the shop rate. */
  netCents: { EUR: number; PLN: number };
  totalEurCents: number;
  thresholdCents: number;
  /** How much of the threshold is used, 0–1+. */
  share: number;
  warn: boolean;
  passed: boolean;
  /** Past the threshold in the year before: destination VAT is due for the whole of this year too. */
  passedLastYear: boolean;
};

const yearRange = (year: number, timeZone: string) => ({
  start: startOfShopDay(`${year}-01-01`, timeZone).toISOString(),
  end: startOfShopDay(`${year + 1}-01-01`, timeZone).toISOString(),
});

export async function crossBorderSales(db: Executor, { year, timeZone }: { year: number; timeZone: string }): Promise<CrossBorderSales> {
  const [now, before] = await Promise.all([yearSales(db, year, timeZone), yearSales(db, year - 1, timeZone)]);
  const share = now.totalEurCents / OSS_THRESHOLD_EUR_CENTS;
  return { year, ...now, thresholdCents: OSS_THRESHOLD_EUR_CENTS, share, warn: share >= OSS_WARN_SHARE || before.totalEurCents > OSS_THRESHOLD_EUR_CENTS, passed: share > 1, passedLastYear: before.totalEurCents > OSS_THRESHOLD_EUR_CENTS };
}

async function yearSales(db: Executor, year: number, timeZone: string): Promise<{ netCents: { EUR: number; PLN: number }; totalEurCents: number }> {
  const { start, end } = yearRange(year, timeZone);
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'currency', 'total_cents', 'vat_cents'])
    .where('payment_status', '=', 'succeeded')
    .where('paid_at', '>=', start)
    .where('paid_at', '<', end)
    .where('delivery_country', 'is not', null)
    .where('delivery_country', '<>', HOME_COUNTRY)
    .where('delivery_kind', '<>', 'pickup')
    .execute();
  const netCents = { EUR: 0, PLN: 0 };
  const refunded = await refundsOf(
    db,
    orders.map((o) => o.id),
  );
  for (const o of orders) {
    const currency = o.currency === 'PLN' ? 'PLN' : 'EUR';
    const back = refunded.get(o.id) ?? { grossCents: 0, vatCents: 0 };
    netCents[currency] += Number(o.total_cents) - Number(o.vat_cents) - (back.grossCents - back.vatCents);
  }
  const { rate } = await currencySettings(db);
  return { netCents, totalEurCents: netCents.EUR + Math.round((netCents.PLN * RATE_SCALE) / rate) };
}

/** What was refunded of each order (succeeded refunds): gross and VAT. */
async function refundsOf(db: Executor, orderIds: string[]): Promise<Map<string, { grossCents: number; vatCents: number }>> {
  const out = new Map<string, { grossCents: number; vatCents: number }>();
  for (let i = 0; i < orderIds.length; i += 500) {
    const rows = await db
      .selectFrom('refunds')
      .select(['order_id', 'amount_cents', 'vat_cents'])
      .where('order_id', 'in', orderIds.slice(i, i + 500))
      .where('status', '=', 'succeeded')
      .execute();
    for (const r of rows) {
      const sum = out.get(r.order_id) ?? { grossCents: 0, vatCents: 0 };
      out.set(r.order_id, { grossCents: sum.grossCents + Number(r.amount_cents), vatCents: sum.vatCents + Number(r.vat_cents) });
    }
  }
  return out;
}

export type OssRow = { kind: 'sales' | 'refunds'; country: string; rateBp: number; currency: string; netCents: number; vatCents: number; orders: number };

export const quarterOf = (month: number) => Math.floor((month - 1) / 3) + 1;

/** The quarter's OSS rows: sales per country × rate × currency, then refunds made in it (negative amounts). */
export async function ossQuarter(db: Executor, { year, quarter, timeZone }: { year: number; quarter: number; timeZone: string }): Promise<OssRow[]> {
  const first = `${year}-${String((quarter - 1) * 3 + 1).padStart(2, '0')}-01`;
  const next = quarter === 4 ? `${year + 1}-01-01` : `${year}-${String(quarter * 3 + 1).padStart(2, '0')}-01`;
  const start = startOfShopDay(first, timeZone).toISOString();
  const end = startOfShopDay(next, timeZone).toISOString();
  const orders = await ordersTaxedAbroad(db).where('paid_at', '>=', start).where('paid_at', '<', end).execute();
  const rows = new Map<string, OssRow>();
  const add = (kind: OssRow['kind'], country: string, currency: string, parts: VatPart[], sign: 1 | -1, orderId: string, seen: Set<string>) => {
    for (const p of sumByRate(parts)) {
      const key = `${kind} ${country} ${p.rateBp} ${currency}`;
      const row = rows.get(key) ?? { kind, country, rateBp: p.rateBp, currency, netCents: 0, vatCents: 0, orders: 0 };
      row.netCents += sign * p.netCents;
      row.vatCents += sign * p.vatCents;
      if (!seen.has(`${key} ${orderId}`)) {
        seen.add(`${key} ${orderId}`);
        row.orders += 1;
      }
      rows.set(key, row);
    }
  };
  const seen = new Set<string>();
  const lines = await linesOf(
    db,
    orders.map((o) => o.id),
  );
  for (const o of orders) add('sales', o.tax_country!, o.currency, [...(lines.get(o.id) ?? []), ...vatPartsOf(o.delivery_tax)], 1, o.id, seen);
  const refunds = await db
    .selectFrom('refunds')
    .innerJoin('orders', 'orders.id', 'refunds.order_id')
    .select(['refunds.order_id', 'refunds.tax', 'orders.tax_country', 'orders.currency'])
    .where('refunds.status', '=', 'succeeded')
    // A refund belongs to the quarter the money went back in: when the provider confirmed it.
    .where((eb) => eb(eb.fn.coalesce('refunds.confirmed_at', 'refunds.created_at'), '>=', start))
    .where((eb) => eb(eb.fn.coalesce('refunds.confirmed_at', 'refunds.created_at'), '<', end))
    .where('orders.tax_country', 'is not', null)
    .where('orders.tax_country', '<>', HOME_COUNTRY)
    .execute();
  for (const r of refunds) add('refunds', r.tax_country!, r.currency, vatPartsOf(r.tax), -1, r.order_id, seen);
  return [...rows.values()].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'sales' ? -1 : 1) || a.country.localeCompare(b.country) || b.rateBp - a.rateBp || a.currency.localeCompare(b.currency));
}

const ordersTaxedAbroad = (db: Executor) =>
  db
    .selectFrom('orders')
    .select(['id', 'tax_country', 'currency', 'delivery_tax'])
    .where('payment_status', '=', 'succeeded')
    .where('tax_country', 'is not', null)
    .where('tax_country', '<>', HOME_COUNTRY);

async function linesOf(db: Executor, orderIds: string[]): Promise<Map<string, VatPart[]>> {
  const out = new Map<string, VatPart[]>();
  for (let i = 0; i < orderIds.length; i += 500) {
    const rows = await db
      .selectFrom('order_lines')
      .select(['order_id', 'tax_rate_bp', 'net_cents', 'vat_cents'])
      .where('order_id', 'in', orderIds.slice(i, i + 500))
      .where('tax_rate_bp', 'is not', null)
      .execute();
    for (const r of rows) {
      const parts = out.get(r.order_id) ?? [];
      parts.push({ rateBp: Number(r.tax_rate_bp), grossCents: Number(r.net_cents) + Number(r.vat_cents), netCents: Number(r.net_cents), vatCents: Number(r.vat_cents) });
      out.set(r.order_id, parts);
    }
  }
  return out;
}


/** The quarter's report as CSV for the accountant, in the owner's language (like the orders export). */
export async function exportOssCsv(db: Executor, input: { year: number; quarter: number; timeZone: string; locale: Locale }): Promise<string> {
  const t = getT(input.locale);
  const { separator, money, rate } = csvFormat(input.locale);
  const rows = await ossQuarter(db, input);
  const header = ['period', 'kind', 'country', 'vatRate', 'currency', 'net', 'vat', 'orders'].map((key) => t(`admin.tax.csv.${key}`));
  const period = `${input.year}-Q${input.quarter}`;
  const lines = [header.join(separator), ...rows.map((r) => [period, t(`admin.tax.csv.kinds.${r.kind}`), r.country, rate(r.rateBp), r.currency, money(r.netCents), money(r.vatCents), String(r.orders)].join(separator))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The quarter before the one `now` is in (the one an accountant files), as [year, quarter]. */
export function lastQuarter(now: Date, timeZone: string): [number, number] {
  const [y, m] = shopDayOf(now, timeZone).split('-').map(Number) as [number, number];
  const q = quarterOf(m);
  return q === 1 ? [y - 1, 4] : [y, q - 1];
}
