import { ProductImage } from '~/components/catalog/product-image';
import { UnitPrice } from '~/components/catalog/unit-price';
import { formatPrice } from '~/lib/format';
import type { OrderView } from '~/modules/orders/orders.types';
import type { ProductImage as Image } from '~/modules/storage/image';
import { useI18n } from '~/modules/i18n/react';
import type { Currency } from '~/modules/pricing/currencies';
import { type VatPart, formatRate } from '~/modules/tax/vat';

export type SummaryLine = {
  /** Unique among the lines: the variant (a cart's) or the position (an order's). */
  key: string;
  productId: string;
  name: string;
  /** The variant ("1 kg, espresso"); '' for a product sold one way. */
  label: string;
  image: Image | null;
  unitPriceCents: number;
  quantity: number;
  /** Before the order is placed (the review step): the price per kilogram is shown beside the price. */
  netWeightGrams?: number | null;
};

/** The delivery as a summary shows it: how, where (a locker's code) and its price. */
export type DeliveryRow = { kind: 'locker' | 'courier' | 'pickup'; priceCents: number; point?: string | null };

/** An order's code as its summary shows it. */
export const orderDiscountShown = (order: Pick<OrderView, 'discount'>) =>
  order.discount ? { code: order.discount.code, goodsCents: order.discount.goodsCents, freeDelivery: order.discount.deliveryCents > 0 } : null;

export const linesOfOrder = (order: OrderView): SummaryLine[] =>
  order.lines.map((l) => ({ key: String(l.position), productId: l.productId, name: l.title, label: l.label, image: l.image, unitPriceCents: l.unitPriceCents, quantity: l.quantity }));

/**
 * The lines of a cart or an order with their total. Before payment the total is what is to be paid
 * ("Do zapłaty"); for a placed order it is simply the total ("Razem").
 */
export function OrderLines({
  lines,
  totalCents,
  placed = false,
  goodsCents,
  delivery,
  deliveryFromCents,
  goodsOnly = false,
  beforeDelivery = false,
  currency,
  discount = null,
  vat,
}: {
  lines: SummaryLine[];
  /** The amounts' currency: the order's, or the cart's. */
  currency: Currency;
  totalCents: number;
  placed?: boolean;
  /** With a delivery: the goods' total, shown above it. */
  goodsCents?: number;
  delivery?: DeliveryRow | null;
  /** Before delivery is chosen: what it starts at ("chosen in the next step"). */
  deliveryFromCents?: number | null;
  /** While delivery is being chosen: the last row is the goods' total, not a total to pay. */
  goodsOnly?: boolean;
  /** No way chosen yet: the last row is the total before delivery (goods after any discount). */
  beforeDelivery?: boolean;
  /** A discount code's: what it took off the goods (shown under them), or that it made the delivery free. */
  discount?: { code: string; goodsCents: number; freeDelivery?: boolean } | null;
  /** An order's VAT per rate, shown under its total ("incl. VAT €3.74 (23%)"). */
  vat?: VatPart[];
}) {
  const { t, locale } = useI18n();
  const price = (cents: number) => formatPrice(cents, currency, locale);
  const showGoods = goodsCents !== undefined && (delivery || deliveryFromCents != null || discount);
  return (
    <div>
      <ul className="divide-y divide-sand">
        {lines.map((line) => (
          <li key={line.key} className="flex items-center gap-4 py-4" data-testid="checkout-line">
            <div className="w-16 shrink-0 overflow-hidden rounded-xl bg-sand/60 ring-1 ring-sand">
              <ProductImage image={line.image} alt="" sizes="64px" className="h-auto w-full" />
            </div>
            <div className="flex-1">
              <p className="font-semibold">
                {line.name || t('product.unnamed')}
                {line.label && <span className="block text-sm font-normal text-roast-600">{line.label}</span>}
              </p>
              <p className="text-sm text-muted">
                {line.quantity} × {price(line.unitPriceCents)}
              </p>
              <UnitPrice priceCents={line.unitPriceCents} netWeightGrams={line.netWeightGrams} currency={currency} withWeight className="block text-xs text-muted" />
            </div>
            <p className="font-semibold tabular-nums">{price(line.unitPriceCents * line.quantity)}</p>
          </li>
        ))}
      </ul>
      {showGoods && (
        <dl className="grid gap-1 border-t border-sand py-3 text-sm" data-testid="summary-delivery">
          <div className="flex justify-between">
            <dt>{t('delivery.goods')}</dt>
            <dd className="tabular-nums" data-testid="summary-goods">{price(goodsCents)}</dd>
          </div>
          {discount && (discount.goodsCents > 0 || discount.freeDelivery) && (
            <div className="flex justify-between text-leaf-dark" data-testid="summary-discount">
              <dt>{discount.freeDelivery && discount.goodsCents === 0 ? t('cart.code.freeDelivery', { code: discount.code }) : t('cart.code.discount', { code: discount.code })}</dt>
              {discount.goodsCents > 0 && <dd className="tabular-nums">−{price(discount.goodsCents)}</dd>}
            </div>
          )}
          {(delivery || deliveryFromCents != null) && (
          <div className="flex justify-between gap-4">
            <dt>
              {delivery ? t('delivery.deliveryVia', { method: t(`delivery.kinds.${delivery.kind}`) }) : t('delivery.delivery')}
              {delivery?.point && <span className="block text-xs text-muted">{t('delivery.locker', { code: delivery.point })}</span>}
              {!delivery && <span className="block text-xs text-muted">{t('delivery.chosenLater')}</span>}
            </dt>
            <dd className="shrink-0 tabular-nums" data-testid="summary-delivery-price">
              {delivery
                ? delivery.priceCents === 0
                  ? t('delivery.free')
                  : price(delivery.priceCents)
                : deliveryFromCents === 0
                  ? t('delivery.freeNow')
                  : t('delivery.teaser', { price: price(deliveryFromCents ?? 0) })}
            </dd>
          </div>
          )}
        </dl>
      )}
      <p className="flex justify-between border-t border-sand pt-4 text-lg font-semibold">
        <span>{goodsOnly ? t('delivery.goods') : beforeDelivery ? t('delivery.totalBeforeDelivery') : placed ? t('cart.placedTotal') : t('cart.total')}</span>
        <span className="tabular-nums" data-testid="checkout-total">{price(totalCents)}</span>
      </p>
      {vat && vat.length > 0 && (
        <p className="mt-1 text-right text-sm text-muted" data-testid="summary-vat">
          {vat.map((part) => t('cart.inclVat', { amount: price(part.vatCents), rate: formatRate(part.rateBp, locale) })).join(' · ')}
        </p>
      )}
    </div>
  );
}
