/**
 * The shop's VAT: the rate per country and tax class (Kopi's, or the owner's in their place), whether the shop
 * is registered for OSS, and so whose VAT an order pays. Read at every checkout, so kept in memory until the
 * catalogue version moves, which a change bumps on every node.
 */
import { type Executor, inTransaction, now } from '~/db/database.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { bumpStoredCatalogVersion, catalogVersion, markCatalogChanged } from '~/modules/catalog/catalog-version.server';
import { type Country, EU_COUNTRIES, isCountry } from '~/modules/delivery/countries';
import { HOME_COUNTRY, SHIPPED_RATES } from './rates';
import { type Reprice, TAX_CLASSES, type TaxClass, isTaxClass } from './vat';

export type TaxRate = { country: Country; taxClass: TaxClass; rateBp: number; shippedBp: number; overridden: boolean };
export type TaxSettings = {
  ossRegistered: boolean;
  /** Under OSS, gross prices follow the buyer's country's VAT (the same net price); otherwise they are the same everywhere. */
  pricesFollowRate: boolean;
  rates: Record<Country, Record<TaxClass, number>>;
  overrides: TaxRate[];
};

const cache = new WeakMap<Executor, { version: number; settings: Promise<TaxSettings> }>();

export function taxSettings(db: Executor): Promise<TaxSettings> {
  if (db.isTransaction) return readSettings(db);
  const version = catalogVersion();
  const hit = cache.get(db);
  if (hit && hit.version === version) return hit.settings;
  const settings = readSettings(db);
  cache.set(db, { version, settings });
  settings.catch(() => cache.delete(db));
  return settings;
}

async function readSettings(db: Executor): Promise<TaxSettings> {
  const [row, overrides] = await Promise.all([
    db.selectFrom('tax_settings').select(['oss_registered', 'prices_follow_rate']).where('id', '=', 1).executeTakeFirst(),
    db.selectFrom('tax_rates').select(['country', 'tax_class', 'rate_bp']).execute(),
  ]);
  const rates = Object.fromEntries(EU_COUNTRIES.map((c) => [c, { ...SHIPPED_RATES[c] }])) as Record<Country, Record<TaxClass, number>>;
  const kept: TaxRate[] = [];
  for (const o of overrides) {
    if (!isCountry(o.country) || !isTaxClass(o.tax_class)) continue;
    rates[o.country][o.tax_class] = Number(o.rate_bp);
    kept.push({ country: o.country, taxClass: o.tax_class, rateBp: Number(o.rate_bp), shippedBp: SHIPPED_RATES[o.country][o.tax_class], overridden: true });
  }
  return { ossRegistered: Number(row?.oss_registered ?? 0) === 1, pricesFollowRate: Number(row?.prices_follow_rate ?? 0) === 1, rates, overrides: kept };
}

/**
 * Whose VAT an order delivered to `country` pays: the home country's until the shop is registered for OSS;
 * then a consumer elsewhere in the EU pays their country's. A pickup is a sale at the shop: home VAT.
 */
export function taxCountryFor(settings: Pick<TaxSettings, 'ossRegistered'>, delivery: { country: string; kind?: string }): Country {
  if (!settings.ossRegistered || delivery.kind === 'pickup' || !isCountry(delivery.country)) return HOME_COUNTRY;
  return delivery.country;
}

/**
 * The rates an order delivered there is charged at, and the country they are; `reprice` when its gross prices
 * follow that country's VAT (under OSS, with the owner's choice, outside Poland): from home rates to these.
 */
export async function orderTaxRates(db: Executor, delivery: { country: string; kind?: string }): Promise<{ country: Country; rates: Record<TaxClass, number>; reprice: Reprice | null }> {
  const settings = await taxSettings(db);
  const country = taxCountryFor(settings, delivery);
  const rates = settings.rates[country];
  const reprice = settings.pricesFollowRate && country !== HOME_COUNTRY ? { from: settings.rates[HOME_COUNTRY], to: rates } : null;
  return { country, rates, reprice };
}

/** Every country's rates for the owner's page, with what Kopi ships and whether the owner changed it. */
export async function listTaxRates(db: Executor): Promise<{ ossRegistered: boolean; pricesFollowRate: boolean; rates: TaxRate[] }> {
  const settings = await readSettings(db);
  const rates = EU_COUNTRIES.flatMap((country) =>
    TAX_CLASSES.map((taxClass) => {
      const shippedBp = SHIPPED_RATES[country][taxClass];
      const rateBp = settings.rates[country][taxClass];
      return { country, taxClass, rateBp, shippedBp, overridden: settings.overrides.some((o) => o.country === country && o.taxClass === taxClass) };
    }),
  );
  return { ossRegistered: settings.ossRegistered, pricesFollowRate: settings.pricesFollowRate, rates };
}

/**
 * Registers the shop for OSS, or not, and whether prices then follow the buyer's VAT (each change logged);
 * orders placed from now on are taxed and priced accordingly.
 */
export async function saveOssSetting(db: Executor, actor: Actor, registered: boolean, pricesFollowRate?: boolean): Promise<void> {
  let changed = false;
  await inTransaction(db, async (trx) => {
    const before = await trx.selectFrom('tax_settings').select(['oss_registered', 'prices_follow_rate']).where('id', '=', 1).executeTakeFirstOrThrow();
    const wasRegistered = Number(before.oss_registered) === 1;
    const wasFollowing = Number(before.prices_follow_rate) === 1;
    const following = pricesFollowRate ?? wasFollowing;
    if (wasRegistered === registered && wasFollowing === following) return;
    await trx
      .updateTable('tax_settings')
      .set({ oss_registered: registered ? 1 : 0, prices_follow_rate: following ? 1 : 0, updated_at: now() })
      .where('id', '=', 1)
      .execute();
    if (wasRegistered !== registered) {
      await recordActivity(trx, actor, { action: 'tax.changed', subjectType: 'tax', subjectId: null, subjectLabel: 'OSS', details: { what: 'oss', ossRegistered: [wasRegistered, registered] } });
    }
    if (wasFollowing !== following) {
      await recordActivity(trx, actor, { action: 'tax.changed', subjectType: 'tax', subjectId: null, subjectLabel: 'OSS', details: { what: 'prices', pricesFollowRate: [wasFollowing, following] } });
    }
    await bumpStoredCatalogVersion(trx);
    changed = true;
  });
  if (changed) markCatalogChanged();
}

/**
 * The owner's rates in place of Kopi's (`null`: back to Kopi's), each logged with what it was. Rates are checked
 * by the route (0–50%); countries and classes outside the lists are refused.
 */
export async function saveTaxRates(db: Executor, actor: Actor, changes: ReadonlyArray<{ country: string; taxClass: string; rateBp: number | null }>): Promise<{ ok: true; changed: number } | { ok: false }> {
  if (changes.some((c) => !isCountry(c.country) || !isTaxClass(c.taxClass) || (c.rateBp !== null && (!Number.isInteger(c.rateBp) || c.rateBp < 0 || c.rateBp > 5000)))) return { ok: false };
  let changed = 0;
  await inTransaction(db, async (trx) => {
    const before = await readSettings(trx);
    for (const change of changes) {
      const country = change.country as Country;
      const taxClass = change.taxClass as TaxClass;
      const was = before.rates[country][taxClass];
      const shipped = SHIPPED_RATES[country][taxClass];
      const next = change.rateBp ?? shipped;
      const wasOverridden = before.overrides.some((o) => o.country === country && o.taxClass === taxClass);
      if (next === was && (change.rateBp === null) === !wasOverridden) continue;
      if (change.rateBp === null || next === shipped) {
        await trx.deleteFrom('tax_rates').where('country', '=', country).where('tax_class', '=', taxClass).execute();
      } else {
        await trx
          .insertInto('tax_rates')
          .values({ country, tax_class: taxClass, rate_bp: next, updated_at: now() })
          .onConflict((oc) => oc.columns(['country', 'tax_class']).doUpdateSet({ rate_bp: next, updated_at: now() }))
          .execute();
      }
      if (next !== was) {
        changed += 1;
        await recordActivity(trx, actor, { action: 'tax.changed', subjectType: 'tax', subjectId: null, subjectLabel: `${country} · ${taxClass}`, details: { what: 'rate', country, taxClass, rateBp: [was, next] } });
      }
    }
    if (changed > 0) await bumpStoredCatalogVersion(trx);
  });
  if (changed > 0) markCatalogChanged();
  return { ok: true, changed };
}
