import { formatRate, isTaxClass } from '~/modules/tax/vat';
import { Link } from 'react-router';
import { Pagination } from '~/components/admin/pagination';
import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { formatDate, formatDateTime, formatNumber, formatPrice } from '~/lib/format';
import { rateText } from '~/modules/backoffice/currency-form';
import { isCurrency, isRounding } from '~/modules/pricing/currencies';
import { type ActivityEntry, countActivity, listActivity } from '~/modules/activity/index.server';
import { sellingWayOf } from '~/modules/backoffice/product-form';
import { isOptionKind } from '~/modules/catalog/variants';
import { carrierNames, isCarrier, isParcelSize, parcelSizeLetters } from '~/modules/fulfilment/carriers';
import { getT } from '~/modules/i18n/index.server';
import { isStockMode } from '~/modules/stock/stock.types';
import { countryName } from '~/modules/delivery/countries';
import { useI18n } from '~/modules/i18n/react';
import type { T } from '~/modules/i18n/translate';
import type { Locale } from '~/modules/i18n/translate';
import type { Route } from './+types/activity';

const PER_PAGE = 50;

/** "product.updated" → "productUpdated", its key under admin.activity.actions. */
const actionKey = (action: string) => action.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const requested = Number(url.searchParams.get('page'));
  const page = Number.isInteger(requested) && requested >= 1 && requested <= 10_000 ? requested : 1;
  const [entries, total] = await Promise.all([listActivity(app.db, { limit: PER_PAGE, offset: (page - 1) * PER_PAGE }), countActivity(app.db)]);
  return { title: getT(shopper.locale)('admin.meta.activityTitle'), entries, total, page, pages: Math.max(1, Math.ceil(total / PER_PAGE)) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

/** How a product is sold, in words for the middle of a sentence ("by size and grind"). */
function sellingWayLabel(options: unknown, t: T, locale: Locale): string {
  const way = sellingWayOf(Array.isArray(options) ? options.filter(isOptionKind) : []);
  const label = t(`admin.productForm.soldAs.${way === 'size,grind' ? 'sizeGrind' : way}`);
  return label.charAt(0).toLocaleLowerCase(locale) + label.slice(1);
}

/** What changed, in words: old → new price, name, category; descriptions and pictures named. */
function describe(entry: ActivityEntry, t: T, locale: Locale): string[] {
  const d = entry.details as Record<string, unknown>;
  const pair = (key: string) => (Array.isArray(d[key]) && d[key].length === 2 ? (d[key] as unknown[]) : null);
  const out: string[] = [];
  const skus = (key: string) => (Array.isArray(d[key]) ? (d[key] as unknown[]).map(String).join(', ') : '');
  if (entry.action === 'product.created' && typeof d.priceCents === 'number') {
    const price = formatPrice(d.priceCents, 'EUR', locale);
    out.push(typeof d.variants === 'number' && d.variants > 1 ? t('admin.activity.createdVariants', { count: d.variants, price }) : t('admin.activity.createdPrice', { price }));
  }
  const price = pair('priceCents');
  if (price) out.push(t('admin.activity.price', { from: formatPrice(Number(price[0]), 'EUR', locale), to: formatPrice(Number(price[1]), 'EUR', locale) }));
  const options = pair('options');
  if (options) out.push(t('admin.activity.options', { from: sellingWayLabel(options[0], t, locale), to: sellingWayLabel(options[1], t, locale) }));
  if (skus('variantsAdded')) out.push(t('admin.activity.variantsAdded', { skus: skus('variantsAdded') }));
  if (skus('variantsRemoved')) out.push(t('admin.activity.variantsRemoved', { skus: skus('variantsRemoved') }));
  const zloty = pair('pricePln');
  if (zloty) out.push(t('admin.activity.price', { from: formatPrice(Number(zloty[0]), 'PLN', locale), to: formatPrice(Number(zloty[1]), 'PLN', locale) }));
  for (const [key, currency] of [['variantPrices', 'EUR'], ['variantPricesPln', 'PLN']] as const) {
    if (!Array.isArray(d[key])) continue;
    for (const change of d[key] as unknown[]) {
      if (Array.isArray(change) && change.length === 3) {
        out.push(t('admin.activity.variantPrice', { sku: String(change[0]), from: formatPrice(Number(change[1]), currency, locale), to: formatPrice(Number(change[2]), currency, locale) }));
      }
    }
  }
  if (skus('variantsOff')) out.push(t('admin.activity.variantsOff', { skus: skus('variantsOff') }));
  if (skus('variantsOn')) out.push(t('admin.activity.variantsOn', { skus: skus('variantsOn') }));
  for (const key of ['name', 'namePl'] as const) {
    const change = pair(key);
    if (change) out.push(t(`admin.activity.${key}`, { from: String(change[0]), to: String(change[1]) }));
  }
  const category = pair('category');
  if (category) out.push(t('admin.activity.category', { from: t(`categories.${category[0] ?? 'uncategorized'}`), to: t(`categories.${category[1] ?? 'uncategorized'}`) }));
  const taxClass = pair('taxClass');
  if (taxClass && isTaxClass(taxClass[0]) && isTaxClass(taxClass[1])) out.push(t('admin.activity.taxClass', { from: t(`admin.tax.classes.${taxClass[0]}`), to: t(`admin.tax.classes.${taxClass[1]}`) }));
  if (d.description) out.push(t('admin.activity.description'));
  if (d.descriptionPl) out.push(t('admin.activity.descriptionPl'));
  const images = pair('images');
  if (images) out.push(t('admin.activity.images', { from: (images[0] as unknown[]).length, to: (images[1] as unknown[]).length }));
  if ((entry.action === 'order.cancelled' || entry.action === 'order.refunded') && typeof d.refundCents === 'number' && d.refundCents > 0) {
    out.push(t('admin.activity.refund', { amount: formatPrice(d.refundCents, isCurrency(d.currency) ? d.currency : 'EUR', locale) }));
  }
  if (entry.action === 'order.shipment' && typeof d.shipmentId === 'string') {
    out.push(t('admin.activity.shipment', { id: d.shipmentId, size: isParcelSize(d.size) ? parcelSizeLetters[d.size] : '' }));
  }
  if (entry.action === 'order.shipped' && typeof d.trackingNumber === 'string') {
    out.push(t('admin.activity.parcel', { carrier: isCarrier(d.carrier) ? carrierNames[d.carrier] : '', number: d.trackingNumber }).trim());
  }
  if (entry.action.startsWith('stock.') || entry.action === 'order.stock_short' || d.backToStock === true) out.push(...describeStock(entry, t, locale));
  if (entry.action === 'delivery.changed') out.push(...describeDelivery(d, t, locale));
  if (entry.action === 'currency.changed' || entry.action === 'prices.proposed') out.push(...describeCurrency(entry.action, d, t));
  if (entry.action === 'tax.changed') out.push(...describeTax(d, t, locale));
  if ((entry.action === 'invoice.issued' || entry.action === 'invoice.corrected') && typeof d.number === 'string') out.push(t('admin.activity.invoice', { number: d.number, buyer: String(d.buyer ?? '') }));
  if (entry.action === 'invoice.resent' && typeof d.number === 'string' && Array.isArray(d.buyer)) out.push(t('admin.activity.invoice', { number: d.number, buyer: String(d.buyer[1] ?? '') }));
  if (entry.action === 'invoice.ksef' && typeof d.number === 'string' && Array.isArray(d.ksefNumber)) out.push(t('admin.activity.ksef', { number: d.number, ksef: String(d.ksefNumber[1] ?? '') }));
  if (entry.action === 'sale.created' && typeof d.startsAt === 'string' && typeof d.endsAt === 'string') {
    out.push(t('admin.activity.saleTerms', { variants: t('admin.promotions.variants', { count: Number(d.variants ?? 0) }), from: formatDateTime(d.startsAt, locale), to: formatDateTime(d.endsAt, locale) }));
  }
  if ((entry.action === 'review.hidden' || entry.action === 'review.shown') && typeof d.reason === 'string') {
    out.push(t('admin.activity.reason', { reason: t(`reviews.reasons.${d.reason}`) }));
  }
  return out;
}

/** VAT's entries: OSS switched on or off, or a rate changed (from → to). */
function describeTax(d: Record<string, unknown>, t: T, locale: Locale): string[] {
  if (d.what === 'oss' && Array.isArray(d.ossRegistered)) return [t(d.ossRegistered[1] ? 'admin.activity.tax.ossOn' : 'admin.activity.tax.ossOff')];
  if (d.what === 'prices' && Array.isArray(d.pricesFollowRate)) return [t(d.pricesFollowRate[1] ? 'admin.activity.tax.pricesFollow' : 'admin.activity.tax.pricesSame')];
  if (d.what === 'rate' && Array.isArray(d.rateBp) && typeof d.country === 'string' && isTaxClass(d.taxClass)) {
    const [from, to] = d.rateBp as unknown[];
    return [t('admin.activity.tax.rate', { country: countryName(d.country, locale), class: t(`admin.tax.classes.${d.taxClass}`), from: formatRate(Number(from), locale), to: formatRate(Number(to), locale) })];
  }
  return [];
}

/** The currency settings' entries: the new defaults and rate; how many proposed prices were applied. */
function describeCurrency(action: string, d: Record<string, unknown>, t: T): string[] {
  const after = (key: string) => (Array.isArray(d[key]) ? (d[key] as unknown[])[1] : d[key]);
  const rate = (value: unknown) => (typeof value === 'number' ? rateText(value) : '');
  const rounding = (value: unknown) => (isRounding(value) ? t(`admin.currencies.roundings.${value}`) : '');
  if (action === 'prices.proposed') return [t('admin.activity.currency.applied', { variants: Number(d.variants ?? 0), delivery: Number(d.delivery ?? 0), rate: rate(d.rate) })];
  return [
    t('admin.activity.currency.defaults', { en: String(after('defaultEn') ?? '—'), pl: String(after('defaultPl') ?? '—') }),
    t('admin.activity.currency.rate', { rate: rate(after('rate')) || '—', rounding: rounding(after('rounding')) || '—' }),
  ];
}

/** Delivery's entries: what changed in the rates (the new state; the old one is in the details kept). */
function describeDelivery(d: Record<string, unknown>, t: T, locale: Locale): string[] {
  const after = (key: string) => (Array.isArray(d[key]) ? (d[key] as unknown[])[1] : d[key]);
  const countries = (value: unknown) => (Array.isArray(value) ? value.map((c) => countryName(String(c), locale)).join(', ') : '');
  const kind = typeof d.kind === 'string' ? t(`delivery.kinds.${d.kind}`) : '';
  switch (d.what) {
    case 'settings':
      return [t('admin.activity.delivery.settings', { grams: String(after('packagingGrams')), country: countryName(String(after('homeCountry')), locale) })];
    case 'checkout':
      return [t(after('guestCheckout') ? 'admin.activity.delivery.guestsOn' : 'admin.activity.delivery.guestsOff')];
    case 'zone':
      return [t('admin.activity.delivery.zone', { countries: countries(after('countries')) })];
    case 'zone-added':
    case 'zone-deleted':
      return [t(`admin.activity.delivery.${d.what}`, { countries: countries(d.countries) })];
    case 'method-added':
    case 'method-deleted':
      return [t(`admin.activity.delivery.${d.what}`, { kind })];
    case 'method': {
      const bands = Array.isArray(after('bands')) ? (after('bands') as Array<{ maxGrams: number; priceCents: number; pricePln?: number }>) : [];
      const free = after('freeOverCents');
      const freePln = after('freeOverPln');
      const both = (eur: number, pln: unknown) => (typeof pln === 'number' ? `${formatPrice(eur, 'EUR', locale)} / ${formatPrice(pln, 'PLN', locale)}` : formatPrice(eur, 'EUR', locale));
      return [
        t('admin.activity.delivery.method', {
          kind,
          bands: bands.map((b) => `≤ ${formatNumber(b.maxGrams / 1000, locale)} kg ${both(b.priceCents, b.pricePln)}`).join(', '),
          free: typeof free === 'number' ? both(free, freePln) : t('admin.activity.delivery.never'),
          state: t(after('active') ? 'admin.activity.delivery.on' : 'admin.activity.delivery.off'),
        }),
      ];
    }
    default:
      return [];
  }
}

/** Stock's entries: the way stock is kept, a batch, a correction; an order's goods back in stock; what sold out under a late payment. */
function describeStock(entry: ActivityEntry, t: T, locale: Locale): string[] {
  const d = entry.details as Record<string, unknown>;
  const kg = (grams: number) => `${formatNumber(grams / 1000, locale)} kg`;
  const signed = (text: string, n: number) => (n > 0 ? `+${text}` : text);
  const out: string[] = [];
  if (entry.action === 'stock.mode' && Array.isArray(d.mode)) {
    const [from, to] = d.mode as unknown[];
    if (from !== to) out.push(t('admin.activity.stockMode', { from: t(`admin.stock.modes.${isStockMode(from) ? from : 'untracked'}`), to: t(`admin.stock.modes.${isStockMode(to) ? to : 'untracked'}`) }));
    const within = Array.isArray(d.sellWithinDays) ? (d.sellWithinDays as unknown[])[1] : null;
    if (typeof within === 'number') out.push(t('admin.activity.sellWithin', { days: within }));
  }
  if (entry.action === 'stock.batch' && typeof d.grams === 'number' && typeof d.roastedOn === 'string') {
    out.push(t('admin.activity.batch', { date: formatDate(d.roastedOn, locale), weight: kg(d.grams) }));
  }
  if (entry.action === 'stock.corrected' && typeof d.reason === 'string') {
    const change = typeof d.grams === 'number' ? signed(kg(d.grams), d.grams) : typeof d.units === 'number' ? signed(formatNumber(d.units, locale), d.units) : '';
    out.push(t('admin.activity.correctedGrams', { change, reason: t(`admin.stock.reasons.${d.reason}`) }));
  }
  if (entry.action === 'order.stock_short' && Array.isArray(d.lines)) out.push(t('admin.activity.soldOutLines', { lines: (d.lines as unknown[]).map(String).join(', ') }));
  if (d.backToStock === true) out.push(t('admin.activity.backToStock'));
  return out;
}

export default function AdminActivityPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const { entries, total, page, pages } = loaderData;
  const subjectLink = (entry: ActivityEntry) => {
    if (entry.subjectType === 'order' && entry.subjectId) return `/admin/orders/${entry.subjectId}`;
    if (entry.subjectType === 'message' && entry.action !== 'message.deleted') return '/admin/messages?show=all';
    if (entry.subjectType === 'product' && entry.subjectId && entry.action.startsWith('stock.')) return `/admin/products/${entry.subjectId}/stock`;
    if (entry.subjectType === 'product' && entry.subjectId && entry.action !== 'product.deleted') return `/edit-product/${entry.subjectId}`;
    if (entry.subjectType === 'delivery' && entry.action === 'delivery.changed') return '/admin/delivery';
    if (entry.subjectType === 'currency') return '/admin/currencies';
    if (entry.subjectType === 'tax') return '/admin/tax';
    if (entry.subjectType === 'customer' && entry.subjectLabel) return `/admin/customers?q=${encodeURIComponent(entry.subjectLabel)}`;
    if (entry.subjectType === 'review') return entry.action === 'review.hidden' ? '/admin/reviews?show=hidden' : '/admin/reviews';
    return null;
  };
  return (
    <div>
      <h1 className="text-3xl font-semibold md:text-4xl">{t('admin.activity.heading')}</h1>
      <p className="mt-2 text-muted">{t('admin.activity.intro')}</p>
      <p className="mt-6 text-sm text-muted">{t('admin.activity.count', { count: total })}</p>
      {entries.length === 0 ? (
        <p className="mt-4 rounded-3xl bg-paper p-10 text-center text-muted ring-1 ring-sand">{t('admin.activity.empty')}</p>
      ) : (
        <div className="relative mt-4 overflow-x-auto rounded-3xl bg-paper ring-1 ring-sand">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="border-b border-sand text-xs tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">{t('admin.activity.when')}</th>
                <th scope="col" className="px-4 py-3 font-semibold">{t('admin.activity.who')}</th>
                <th scope="col" className="px-4 py-3 font-semibold">{t('admin.activity.what')}</th>
                <th scope="col" className="px-4 py-3 font-semibold">{t('admin.activity.details')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-sand">
              {entries.map((entry) => {
                const link = subjectLink(entry);
                // The shop-wide delivery settings have no name of their own: the part of the page they are on.
                const label = entry.subjectLabel || (entry.subjectType === 'delivery' ? t(entry.details.what === 'checkout' ? 'admin.delivery.checkout' : 'admin.delivery.parcels') : entry.subjectType === 'customer' ? t('admin.activity.deletedCustomer') : '');
                const subject = link ? <Link to={link} className="font-semibold text-leaf hover:underline">{label}</Link> : <strong>{label}</strong>;
                const [before, after] = t(`admin.activity.actions.${actionKey(entry.action)}`, { subject: '\u0000' }).split('\u0000');
                return (
                  <tr key={entry.id} data-testid="activity-row" className="align-top">
                    <td className="px-4 py-3 whitespace-nowrap text-roast-600"><time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt, locale)}</time></td>
                    <td className="px-4 py-3 break-all">{entry.actorEmail === 'customer' ? t('admin.activity.customerActor') : entry.actorEmail}</td>
                    <td className="px-4 py-3">{before}{subject}{after}</td>
                    <td className="px-4 py-3 text-roast-600">
                      <ul className="grid gap-0.5">{describe(entry, t, locale).map((line) => <li key={line}>{line}</li>)}</ul>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pages={pages} />
    </div>
  );
}
