/**
 * The owner's currency settings: the currency each language's pages show by default, and the shop rate and
 * rounding that propose złoty prices. Read on every page (the default currency), so kept in memory until the
 * catalogue version moves, which a change bumps on every node (the page caches hold prices, so they go too).
 */
import { type Executor, inTransaction } from '~/db/database.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
// The version itself (not the catalogue's door, which needs this module for proposed prices).
import { bumpStoredCatalogVersion, catalogVersion, markCatalogChanged } from '~/modules/catalog/catalog-version.server';
import type { Locale } from '~/modules/i18n/translate';
import { type Currency, type Rounding, START_RATE, START_ROUNDING, isCurrency, isRounding } from './currencies';

export type CurrencySettings = {
  /** What each language's pages show a shopper who has not chosen a currency. */
  defaults: Record<Locale, Currency>;
  /** Złoty per euro in ten-thousandths (RATE_SCALE). */
  rate: number;
  rounding: Rounding;
};

export const DEFAULT_SETTINGS: CurrencySettings = { defaults: { en: 'EUR', pl: 'EUR' }, rate: START_RATE, rounding: START_ROUNDING };

const cache = new WeakMap<Executor, { version: number; settings: Promise<CurrencySettings> }>();

export function currencySettings(db: Executor): Promise<CurrencySettings> {
  if (db.isTransaction) return readSettings(db);
  const version = catalogVersion();
  const hit = cache.get(db);
  if (hit && hit.version === version) return hit.settings;
  const settings = readSettings(db);
  cache.set(db, { version, settings });
  settings.catch(() => cache.delete(db));
  return settings;
}

async function readSettings(db: Executor): Promise<CurrencySettings> {
  const row = await db.selectFrom('currency_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) return DEFAULT_SETTINGS;
  return {
    defaults: { en: isCurrency(row.default_en) ? row.default_en : 'EUR', pl: isCurrency(row.default_pl) ? row.default_pl : 'EUR' },
    rate: Number(row.rate),
    rounding: isRounding(row.rounding) ? row.rounding : '99',
  };
}

/** The currency a request is priced in: the shopper's choice when the shop offers it, else its language's default. */
export async function requestCurrency(db: Executor, locale: Locale, chosen: string | null | undefined): Promise<Currency> {
  if (isCurrency(chosen)) return chosen;
  return (await currencySettings(db)).defaults[locale];
}

/** Saves the owner's settings (logged with what changed); every page is rendered again in the new defaults. */
export async function saveCurrencySettings(db: Executor, actor: Actor, next: CurrencySettings): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = await readSettings(trx);
    await trx
      .updateTable('currency_settings')
      .set({ default_en: next.defaults.en, default_pl: next.defaults.pl, rate: next.rate, rounding: next.rounding })
      .where('id', '=', 1)
      .execute();
    // Every setting as it was and as it is now, when any of them changed.
    const details = {
      defaultEn: [before.defaults.en, next.defaults.en],
      defaultPl: [before.defaults.pl, next.defaults.pl],
      rate: [before.rate, next.rate],
      rounding: [before.rounding, next.rounding],
    };
    if (Object.values(details).every(([was, is]) => was === is)) return;
    await recordActivity(trx, actor, { action: 'currency.changed', subjectType: 'currency', subjectId: null, subjectLabel: 'EUR / PLN', details });
    await bumpStoredCatalogVersion(trx);
  });
  markCatalogChanged();
}
