import { htmlMail } from '~/modules/mail/plain-mail';
import { getT, isLocale, type Locale, type T } from '~/modules/i18n/index.server';
import type { OutgoingMail } from '~/modules/mail/index.server';
import { type OrderRecord, orderLabel, orderPagePath } from '~/modules/orders/index.server';
import { formatPrice } from '~/lib/format';
import { carrierNames, isCarrier, trackingUrl } from './carriers';
import { localePath } from '~/modules/i18n/paths';
import { textByPaidWith } from '~/modules/orders/orders.types';

/** The customer's mail when their order is shipped or delivered, in the language they ordered in. */
export function shippingMail(
  order: OrderRecord,
  status: 'shipped' | 'delivered',
  parcel: { carrier: string | null; trackingNumber: string | null },
  { publicUrl, lines: ordered = [] }: { publicUrl?: string; lines?: { productId: string; title: string }[] } = {},
): OutgoingMail {
  const locale: Locale = isLocale(order.locale) ? order.locale : 'en';
  const t = getT(locale);
  const label = orderLabel(order.id);
  const carrier = parcel.carrier && isCarrier(parcel.carrier) ? carrierNames[parcel.carrier] : '';
  const url = trackingUrl(parcel.carrier, parcel.trackingNumber);
  const ordersUrl = publicUrl ? new URL(localePath(locale, orderPagePath(order)), publicUrl).toString() : null;
  // Once delivered, each coffee can be reviewed (only now: reviews come from buyers who received it), by a
  // customer: a guest's order joins an account first.
  const reviewLinks =
    status === 'delivered' && publicUrl && order.userId !== null
      ? [...new Map(ordered.map((line) => [line.productId, line.title])).entries()].map(([productId, title]) =>
          t('reviews.mail.invite', { title, url: new URL(localePath(locale, `/review?product=${encodeURIComponent(productId)}`), publicUrl).toString() }),
        )
      : [];
  const lines = [
    t('orders.mail.greeting', { name: order.shipping.fullName }),
    '',
    t(status === 'shipped' ? 'orders.shippingMail.shippedIntro' : 'orders.shippingMail.deliveredIntro'),
    ...(reviewLinks.length > 0 ? ['', ...reviewLinks] : []),
    '',
    t('orders.mail.order', { label }),
    ...(status === 'shipped' && parcel.trackingNumber ? ['', t('orders.shippingMail.trackWith', { carrier: carrier || '—', number: parcel.trackingNumber })] : []),
    ...(status === 'shipped' && url ? [t('orders.shippingMail.trackAt', { url })] : []),
    '',
    ...(ordersUrl ? [t('orders.mail.viewOrders', { url: ordersUrl }), ''] : []),
    t('orders.mail.footer'),
    '',
  ];
  const html = htmlMail(locale, lines);
  return {
    to: order.userEmail,
    subject: t(status === 'shipped' ? 'orders.shippingMail.shippedSubject' : 'orders.shippingMail.deliveredSubject', { label }),
    text: lines.join('\n'),
    html,
  };
}

/**
 * A mail about an order ended with a refund, in the language it was ordered in: the greeting, what happened
 * (`before`), the order, the refund in the words of how it was paid, anything `after`, the link to the order.
 */
function refundedOrderMail(order: OrderRecord, refundedCents: number, { subject, before, after = () => [], publicUrl }: { subject: string; before: (t: T, label: string) => string[]; after?: (t: T) => string[]; publicUrl?: string }): OutgoingMail {
  const locale: Locale = isLocale(order.locale) ? order.locale : 'en';
  const t = getT(locale);
  const label = orderLabel(order.id);
  const ordersUrl = publicUrl ? new URL(localePath(locale, orderPagePath(order)), publicUrl).toString() : null;
  const lines = [
    t('orders.mail.greeting', { name: order.shipping.fullName }),
    '',
    ...before(t, label),
    ...(refundedCents > 0 ? ['', t(textByPaidWith('orders.cancelMail.refund', order.paidWith), { amount: formatPrice(refundedCents, order.currency, locale) })] : []),
    '',
    ...after(t).flatMap((line) => [line, '']),
    ...(ordersUrl ? [t('orders.mail.viewOrders', { url: ordersUrl }), ''] : []),
    t('orders.mail.footer'),
    '',
  ];
  return { to: order.userEmail, subject: t(subject, { label }), text: lines.join('\n'), html: htmlMail(locale, lines) };
}

/** The customer's mail when their order is cancelled, with the amount refunded, in the language they ordered in. */
export function cancellationMail(order: OrderRecord, refundedCents: number, { publicUrl }: { publicUrl?: string } = {}): OutgoingMail {
  return refundedOrderMail(order, refundedCents, { subject: 'orders.cancelMail.subject', before: (t, label) => [t('orders.cancelMail.intro'), '', t('orders.mail.order', { label })], publicUrl });
}

/**
 * The customer's apology when their payment arrived after the coffee was gone: the order is cancelled and
 * refunded in full, with what sold out, in the language they ordered in.
 */
export function stockShortMail(order: OrderRecord, refundedCents: number, soldOut: string[], { publicUrl }: { publicUrl?: string } = {}): OutgoingMail {
  return refundedOrderMail(order, refundedCents, {
    subject: 'orders.stockShortMail.subject',
    before: (t, label) => [
      t('orders.stockShortMail.intro'),
      ...(soldOut.length > 0 ? ['', t('orders.stockShortMail.lines'), ...soldOut.map((name) => `- ${name}`)] : []),
      '',
      t('orders.mail.order', { label }),
    ],
    after: (t) => [t('orders.stockShortMail.again')],
    publicUrl,
  });
}

/**
 * The customer's mail when a payment arrived for an order a newer one of their cart had replaced (a bank page left
 * open in another tab): that payment is given back in full; the newer order is the one that counts.
 */
export function replacedPaidMail(order: OrderRecord, refundedCents: number, { publicUrl }: { publicUrl?: string } = {}): OutgoingMail {
  return refundedOrderMail(order, refundedCents, { subject: 'orders.replacedMail.subject', before: (t, label) => [t('orders.replacedMail.intro', { label })], after: (t) => [t('orders.replacedMail.newer')], publicUrl });
}
