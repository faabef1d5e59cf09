/**
 * The National Bank of Poland's average rate (table A) for an invoice in a foreign currency: Polish VAT law
 * (art. 31a of the VAT act) converts the tax at the rate of the last working day before the tax point — for a
 * prepaid sale, the day the payment arrived. Asked of NBP's Web API (`NBP_API_URL`, api.nbp.pl) for the fortnight
 * before that day, the latest table in it taken; kept in memory once known (a past day's table never changes).
 */
import type { Logger } from 'pino';
import { addDays, shopDayOf } from '~/lib/shop-days';

export type NbpRate = {
  /** PLN per unit, e.g. 4.2345. */
  mid: number;
  /** NBP's table number, e.g. "231/A/NBP/2026". */
  table: string;
  /** The day the table was published (YYYY-MM-DD). */
  date: string;
};

export type ExchangeRates = {
  /** NBP's rate for an invoice whose tax point is `taxPoint`; null when NBP could not be asked or had none. */
  rateBefore(currency: string, taxPoint: Date): Promise<NbpRate | null>;
};

const TIME_ZONE = 'Europe/Warsaw';
const TIMEOUT_MS = 5_000;
/** Long enough to reach back over Easter or Christmas, well inside NBP's limit of 93 days per query. */
const LOOKBACK_DAYS = 14;
const MAX_CACHED = 500;

type RatesJson = { code?: unknown; rates?: { no?: unknown; effectiveDate?: unknown; mid?: unknown }[] };

/** The latest usable rate in NBP's answer, published no later than `lastDay`. */
export function latestRate(json: RatesJson, currency: string, lastDay: string): NbpRate | null {
  if (typeof json.code !== 'string' || json.code.toUpperCase() !== currency || !Array.isArray(json.rates)) return null;
  const rates = json.rates.flatMap((r) =>
    typeof r.mid === 'number' && Number.isFinite(r.mid) && r.mid > 0 && typeof r.no === 'string' && typeof r.effectiveDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(r.effectiveDate) && r.effectiveDate <= lastDay
      ? [{ mid: r.mid, table: r.no.slice(0, 40), date: r.effectiveDate }]
      : [],
  );
  return rates.sort((a, b) => a.date.localeCompare(b.date)).at(-1) ?? null;
}

export function createNbpRates({ baseUrl, log }: { baseUrl: string; log?: Logger }): ExchangeRates {
  const known = new Map<string, NbpRate>();
  return {
    async rateBefore(currency, taxPoint) {
      const code = currency.toUpperCase();
      if (!/^[A-Z]{3}$/.test(code)) return null;
      const lastDay = addDays(shopDayOf(taxPoint, TIME_ZONE), -1);
      const key = `${code}:${lastDay}`;
      const cached = known.get(key);
      if (cached) return cached;
      const url = `${baseUrl}/api/exchangerates/rates/a/${code.toLowerCase()}/${addDays(lastDay, 1 - LOOKBACK_DAYS)}/${lastDay}/?format=json`;
      try {
        const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
        if (!response.ok) throw new Error(`NBP answered ${response.status}`);
        const rate = latestRate((await response.json()) as RatesJson, code, lastDay);
        if (!rate) throw new Error('NBP named no rate');
        if (known.size >= MAX_CACHED) known.delete(known.keys().next().value!);
        known.set(key, rate);
        return rate;
      } catch (error) {
        log?.warn({ err: error, currency: code, day: lastDay }, "NBP's exchange rate could not be fetched");
        return null;
      }
    },
  };
}
