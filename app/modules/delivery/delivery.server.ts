/**
 * The delivery table: read (kept in memory until the catalogue version moves, which every change of it bumps,
 * on every node) and changed by the owner, each change in the activity log. The quote itself is in `rates.ts`.
 */
import { type Executor, inTransaction } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { bumpStoredCatalogVersion, catalogVersion, markCatalogChanged } from '~/modules/catalog/index.server';
import { currencySettings, proposeDeliveryPrice, proposeThreshold } from '~/modules/pricing/index.server';
import type { DeliveryForm } from './delivery-form';
import { type Band, type DeliveryKind, type DeliveryTable, POLAND_ONLY, deliveryKinds } from './rates';

const cache = new WeakMap<Executor, { version: number; table: Promise<DeliveryTable> }>();

/** The whole table: settings, zones in the owner's order, their methods and bands. */
export function getDeliveryTable(db: Executor): Promise<DeliveryTable> {
  if (db.isTransaction) return readTable(db);
  const version = catalogVersion();
  const hit = cache.get(db);
  if (hit && hit.version === version) return hit.table;
  const table = readTable(db);
  cache.set(db, { version, table });
  table.catch(() => cache.delete(db));
  return table;
}

async function readTable(db: Executor): Promise<DeliveryTable> {
  const [settings, zones, methods, rates] = await Promise.all([
    db.selectFrom('delivery_settings').select(['packaging_grams', 'home_country', 'guest_checkout']).where('id', '=', 1).executeTakeFirst(),
    db.selectFrom('delivery_zones').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('delivery_methods').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('delivery_rates').selectAll().orderBy('max_grams').execute(),
  ]);
  const bands = new Map<string, Band[]>();
  for (const rate of rates) {
    const list = bands.get(rate.method_id) ?? [];
    list.push({ maxGrams: Number(rate.max_grams), priceCents: Number(rate.price_cents), prices: { EUR: Number(rate.price_cents), PLN: Number(rate.price_pln) } });
    bands.set(rate.method_id, list);
  }
  return {
    currency: 'EUR',
    packagingGrams: Number(settings?.packaging_grams ?? 0),
    homeCountry: settings?.home_country ?? 'PL',
    guestCheckout: Number(settings?.guest_checkout ?? 0) === 1,
    zones: zones.map((zone) => ({
      id: zone.id,
      name: zone.name,
      countries: zone.countries ? zone.countries.split(',') : [],
      methods: methods
        .filter((m) => m.zone_id === zone.id && deliveryKinds.includes(m.kind as DeliveryKind))
        .map((m) => ({
          id: m.id,
          zoneId: m.zone_id,
          kind: m.kind as DeliveryKind,
          active: Number(m.active) === 1,
          freeOverCents: m.free_over_cents === null ? null : Number(m.free_over_cents),
          freeOver: { EUR: m.free_over_cents === null ? null : Number(m.free_over_cents), PLN: m.free_over_pln === null ? null : Number(m.free_over_pln) },
          bands: bands.get(m.id) ?? [],
          pickupAddress: m.pickup_address,
          pickupHours: { en: m.pickup_hours_en, pl: m.pickup_hours_pl },
        })),
    })),
  };
}

// --- the owner's changes ------------------------------------------------------------------------------

export type DeliveryChangeRefusal =
  | 'notFound'
  /** Countries already in another zone (listed in `countries`). */
  | 'countriesTaken'
  /** A locker or pickup where Poland is not (or would no longer be) in the zone. */
  | 'polandOnly'
  /** The zone already has a method of this kind. */
  | 'kindTaken'
  /** The last zone: without one the shop delivers nowhere. */
  | 'lastZone'
  /** An active pickup without an address. */
  | 'pickupAddress';

export type DeliveryChangeOutcome = { ok: true } | { ok: false; reason: DeliveryChangeRefusal; countries?: string[] };

/** A band as the activity log keeps it (the shape it had before there were two currencies, plus the złoty price). */
const bandLog = (band: Band) => ({ maxGrams: band.maxGrams, priceCents: band.prices.EUR, pricePln: band.prices.PLN });

class Refused extends Error {
  constructor(readonly outcome: DeliveryChangeOutcome & { ok: false }) {
    super(outcome.reason);
  }
}
const refuse = (reason: DeliveryChangeRefusal, countries?: string[]): never => {
  throw new Refused({ ok: false, reason, countries });
};

/** Applies one of the back office's delivery forms in one transaction, logged; pages everywhere follow. */
export async function changeDelivery(db: Executor, actor: Actor, form: DeliveryForm): Promise<DeliveryChangeOutcome> {
  try {
    await inTransaction(db, async (trx) => {
      const table = await readTable(trx);
      const log = (subjectLabel: string, subjectId: string | null, details: Record<string, unknown>) =>
        recordActivity(trx, actor, { action: 'delivery.changed', subjectType: 'delivery', subjectId, subjectLabel, details });
      const zoneOfMethod = (methodId: string) => {
        const zone = table.zones.find((z) => z.methods.some((m) => m.id === methodId));
        return zone ? { zone, method: zone.methods.find((m) => m.id === methodId)! } : refuse('notFound');
      };

      switch (form.intent) {
        case 'settings': {
          await trx.updateTable('delivery_settings').set({ packaging_grams: form.packagingGrams, home_country: form.homeCountry }).where('id', '=', 1).execute();
          await log('', null, { what: 'settings', packagingGrams: [table.packagingGrams, form.packagingGrams], homeCountry: [table.homeCountry, form.homeCountry] });
          break;
        }
        case 'checkout': {
          await trx.updateTable('delivery_settings').set({ guest_checkout: form.guestCheckout ? 1 : 0 }).where('id', '=', 1).execute();
          await log('', null, { what: 'checkout', guestCheckout: [table.guestCheckout, form.guestCheckout] });
          break;
        }
        case 'zone': {
          const zone = form.zoneId === null ? null : (table.zones.find((z) => z.id === form.zoneId) ?? refuse('notFound'));
          const taken = table.zones.filter((z) => z.id !== zone?.id).flatMap((z) => z.countries.filter((c) => form.countries.includes(c)));
          if (taken.length > 0) refuse('countriesTaken', taken);
          if (zone && !form.countries.includes('PL') && zone.methods.some((m) => POLAND_ONLY.has(m.kind))) refuse('polandOnly');
          const countries = form.countries.join(',');
          if (zone) {
            await trx.updateTable('delivery_zones').set({ name: form.name, countries }).where('id', '=', zone.id).execute();
            await log(form.name, zone.id, { what: 'zone', name: [zone.name, form.name], countries: [zone.countries, form.countries] });
          } else {
            const id = newId();
            await trx.insertInto('delivery_zones').values({ id, name: form.name, countries, position: table.zones.length }).execute();
            await log(form.name, id, { what: 'zone-added', countries: form.countries });
          }
          break;
        }
        case 'delete-zone': {
          const zone = table.zones.find((z) => z.id === form.zoneId) ?? refuse('notFound');
          if (table.zones.length === 1) refuse('lastZone');
          // Methods and their bands go with it (foreign keys cascade on PostgreSQL; SQLite deletes them here too).
          const methodIds = zone.methods.map((m) => m.id);
          if (methodIds.length) await trx.deleteFrom('delivery_rates').where('method_id', 'in', methodIds).execute();
          await trx.deleteFrom('delivery_methods').where('zone_id', '=', zone.id).execute();
          await trx.deleteFrom('delivery_zones').where('id', '=', zone.id).execute();
          await log(zone.name, zone.id, { what: 'zone-deleted', countries: zone.countries });
          break;
        }
        case 'add-method': {
          const zone = table.zones.find((z) => z.id === form.zoneId) ?? refuse('notFound');
          if (zone.methods.some((m) => m.kind === form.kind)) refuse('kindTaken');
          if (POLAND_ONLY.has(form.kind) && !zone.countries.includes('PL')) refuse('polandOnly');
          const id = newId();
          // A new method starts switched off with one band: the owner prices it before shoppers see it.
          await trx
            .insertInto('delivery_methods')
            .values({ id, zone_id: zone.id, kind: form.kind, position: zone.methods.length, active: 0, free_over_cents: null })
            .execute();
          await trx.insertInto('delivery_rates').values({ method_id: id, max_grams: 25_000, price_cents: 0, price_pln: 0 }).execute();
          await log(zone.name, id, { what: 'method-added', kind: form.kind });
          break;
        }
        case 'method': {
          const { zone, method } = zoneOfMethod(form.methodId);
          if (method.kind === 'pickup' && form.active && !form.pickupAddress) refuse('pickupAddress');
          const { rate, rounding } = await currencySettings(trx);
          const pln = (given: number | null, euroCents: number) => given ?? proposeDeliveryPrice(euroCents, rate, rounding);
          const bands = form.bands.map((b) => ({ maxGrams: b.maxGrams, priceCents: b.priceCents, prices: { EUR: b.priceCents, PLN: pln(b.pricePln, b.priceCents) } }));
          const freeOverPln = form.freeOverCents === null ? null : (form.freeOverPln ?? proposeThreshold(form.freeOverCents, rate));
          await trx
            .updateTable('delivery_methods')
            .set({
              active: form.active ? 1 : 0,
              free_over_cents: form.freeOverCents,
              free_over_pln: freeOverPln,
              pickup_address: method.kind === 'pickup' ? form.pickupAddress : '',
              pickup_hours_en: method.kind === 'pickup' ? form.pickupHours.en : '',
              pickup_hours_pl: method.kind === 'pickup' ? form.pickupHours.pl : '',
            })
            .where('id', '=', method.id)
            .execute();
          await trx.deleteFrom('delivery_rates').where('method_id', '=', method.id).execute();
          await trx
            .insertInto('delivery_rates')
            .values(bands.map((b) => ({ method_id: method.id, max_grams: b.maxGrams, price_cents: b.prices.EUR, price_pln: b.prices.PLN })))
            .execute();
          await log(zone.name, method.id, {
            what: 'method',
            kind: method.kind,
            active: [method.active, form.active],
            freeOverCents: [method.freeOverCents, form.freeOverCents],
            freeOverPln: [method.freeOver.PLN, freeOverPln],
            bands: [method.bands.map(bandLog), bands.map(bandLog)],
          });
          break;
        }
        case 'delete-method': {
          const { zone, method } = zoneOfMethod(form.methodId);
          await trx.deleteFrom('delivery_rates').where('method_id', '=', method.id).execute();
          await trx.deleteFrom('delivery_methods').where('id', '=', method.id).execute();
          await log(zone.name, method.id, { what: 'method-deleted', kind: method.kind });
          break;
        }
      }
      await bumpStoredCatalogVersion(trx);
    });
  } catch (error) {
    if (error instanceof Refused) return error.outcome;
    throw error;
  }
  markCatalogChanged();
  return { ok: true };
}

/** Sets bands' and thresholds' złoty prices (the owner applied proposed ones); pages everywhere follow. */
export async function setZlotyRates(
  trx: Executor,
  bands: ReadonlyArray<{ methodId: string; maxGrams: number; pricePln: number }>,
  thresholds: ReadonlyArray<{ methodId: string; freeOverPln: number }>,
): Promise<void> {
  if (bands.length === 0 && thresholds.length === 0) return;
  for (const band of bands) {
    await trx.updateTable('delivery_rates').set({ price_pln: band.pricePln }).where('method_id', '=', band.methodId).where('max_grams', '=', band.maxGrams).execute();
  }
  for (const threshold of thresholds) {
    await trx.updateTable('delivery_methods').set({ free_over_pln: threshold.freeOverPln }).where('id', '=', threshold.methodId).where('free_over_cents', 'is not', null).execute();
  }
  await bumpStoredCatalogVersion(trx);
}
