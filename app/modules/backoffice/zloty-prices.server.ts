/**
 * Złoty prices proposed from euro prices at the owner's shop rate and rounding (docs/decisions/0023): every
 * variant, delivery band and free-delivery threshold whose proposed złoty price differs from its current one.
 * The owner sees them first and applies the ones ticked; nothing follows a live exchange rate.
 *
 * Each proposal carries a key that names what was shown (the thing, its euro price, its złoty price then and the
 * proposed one), so applying a list that no longer holds (a price edited meanwhile, the rate changed) changes only
 * the rows still exactly as shown and says how many were skipped.
 */
import { type Executor, inTransaction } from '~/db/database.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { listVariantPrices, markCatalogChanged, setZlotyPrices } from '~/modules/catalog/index.server';
import { getDeliveryTable, setZlotyRates } from '~/modules/delivery/index.server';
import type { Locale } from '~/modules/i18n/index.server';
import { type CurrencySettings, currencySettings, proposeDeliveryPrice, proposePrice, proposeThreshold } from '~/modules/pricing/index.server';

export type ZlotyProposal = {
  /** What it is and what the page says about it. */
  key: string;
  kind: 'variant' | 'band' | 'threshold';
  /** The product's name, or the zone's name. */
  name: string;
  /** The variant's label and SKU; a band's delivery kind and weight; a threshold's delivery kind. */
  detail: { label?: string; sku?: string; deliveryKind?: string; maxGrams?: number };
  euroCents: number;
  currentPln: number | null;
  proposedPln: number;
};

export type ZlotyProposals = { settings: CurrencySettings; proposals: ZlotyProposal[] };

/** Every złoty price the shop rate would change, variants first (by product), then delivery. */
export async function proposeZlotyPrices(db: Executor, locale: Locale): Promise<ZlotyProposals> {
  const [settings, variants, table] = await Promise.all([currencySettings(db), listVariantPrices(db, locale), getDeliveryTable(db)]);
  const proposals: ZlotyProposal[] = [];
  const add = (proposal: Omit<ZlotyProposal, 'key' | 'proposedPln'>, id: string) => {
    const variant = proposal.kind === 'variant';
    const proposedPln = variant
      ? proposePrice(proposal.euroCents, settings.rate, settings.rounding)
      : proposal.kind === 'threshold'
        ? proposeThreshold(proposal.euroCents, settings.rate)
        : proposeDeliveryPrice(proposal.euroCents, settings.rate, settings.rounding);
    if (proposal.currentPln === proposedPln) return;
    proposals.push({ ...proposal, proposedPln, key: [proposal.kind, id, proposal.euroCents, proposal.currentPln ?? '-', proposedPln].join(':') });
  };
  for (const v of variants) {
    add({ kind: 'variant', name: v.name, detail: { label: v.label, sku: v.sku }, euroCents: v.prices.EUR, currentPln: v.prices.PLN }, v.id);
  }
  for (const zone of table.zones) {
    for (const method of zone.methods) {
      for (const band of method.bands) {
        add(
          { kind: 'band', name: zone.name, detail: { deliveryKind: method.kind, maxGrams: band.maxGrams }, euroCents: band.prices.EUR, currentPln: band.prices.PLN },
          `${method.id}:${band.maxGrams}`,
        );
      }
      const free = method.freeOver.EUR;
      if (free !== null) {
        add({ kind: 'threshold', name: zone.name, detail: { deliveryKind: method.kind }, euroCents: free, currentPln: method.freeOver.PLN }, method.id);
      }
    }
  }
  return { settings, proposals };
}

export type ApplyOutcome = { applied: number; skipped: number };

/**
 * Applies the proposals the owner ticked (their keys), in one transaction, logged: those no longer proposed
 * exactly as shown are skipped. Pages everywhere show the new prices.
 */
export async function applyZlotyPrices(db: Executor, actor: Actor, keys: readonly string[], locale: Locale): Promise<ApplyOutcome> {
  const wanted = new Set(keys);
  const outcome = await inTransaction(db, async (trx) => {
    const { settings, proposals } = await proposeZlotyPrices(trx, locale);
    const chosen = proposals.filter((p) => wanted.has(p.key));
    // The key is kind:id…:euro:current:proposed (a band's id is its method and weight).
    const idOf = (p: ZlotyProposal) => p.key.split(':').slice(1, -3);
    await setZlotyPrices(trx, chosen.filter((p) => p.kind === 'variant').map((p) => ({ variantId: idOf(p)[0], pricePln: p.proposedPln })));
    await setZlotyRates(
      trx,
      chosen.filter((p) => p.kind === 'band').map((p) => ({ methodId: idOf(p)[0], maxGrams: Number(idOf(p)[1]), pricePln: p.proposedPln })),
      chosen.filter((p) => p.kind === 'threshold').map((p) => ({ methodId: idOf(p)[0], freeOverPln: p.proposedPln })),
    );
    if (chosen.length > 0) {
      await recordActivity(trx, actor, {
        action: 'prices.proposed',
        subjectType: 'currency',
        subjectId: null,
        subjectLabel: 'PLN',
        details: { rate: settings.rate, rounding: settings.rounding, variants: chosen.filter((p) => p.kind === 'variant').length, delivery: chosen.filter((p) => p.kind !== 'variant').length },
      });
    }
    return { applied: chosen.length, skipped: wanted.size - chosen.length };
  });
  if (outcome.applied > 0) markCatalogChanged();
  return outcome;
}
