import { htmlMail } from '~/modules/mail/plain-mail';
import { getT, isLocale, type Locale } from '~/modules/i18n/index.server';
import type { OutgoingMail } from '~/modules/mail/index.server';
import { type OrderRecord, orderLabel, orderPagePath } from '~/modules/orders/index.server';
import { formatPrice } from '~/lib/format';
import { carrierNames, isCarrier, trackingUrl } from './carriers';
import { localePath } from '~/modules/i18n/paths';

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

/** The customer's mail when their order is cancelled, with the amount refunded, in the language they ordered in. */
export function cancellationMail(order: OrderRecord, refundedCents: number, { publicUrl }: { publicUrl?: string } = {}): OutgoingMail {
  const locale: Locale = isLocale(order.locale) ? order.locale : 'en';
  const t = getT(locale);
  const label = orderLabel(order.id);
  const ordersUrl = publicUrl ? new URL(localePath(locale, orderPagePath(order)), publicUrl).toString() : null;
  const lines = [
    t('orders.mail.greeting', { name: order.shipping.fullName }),
    '',
    t('orders.cancelMail.intro'),
    '',
    t('orders.mail.order', { label }),
    ...(refundedCents > 0 ? ['', t(refundText(order), { amount: formatPrice(refundedCents, order.currency, locale) })] : []),
    '',
    ...(ordersUrl ? [t('orders.mail.viewOrders', { url: ordersUrl }), ''] : []),
    t('orders.mail.footer'),
    '',
  ];
  return {
    to: order.userEmail,
    subject: t('orders.cancelMail.subject', { label }),
    text: lines.join('\n'),
    html: htmlMail(locale, lines),
  };
}

/**
 * The customer's apology when their payment arrived after the coffee was gone: the order is cancelled and
 * refunded in full, with what sold out, in the language they ordered in.
 */
export function stockShortMail(order: OrderRecord, refundedCents: number, soldOut: string[], { publicUrl }: { publicUrl?: string } = {}): OutgoingMail {
  const locale: Locale = isLocale(order.locale) ? order.locale : 'en';
  const t = getT(locale);
  const label = orderLabel(order.id);
  const ordersUrl = publicUrl ? new URL(localePath(locale, orderPagePath(order)), publicUrl).toString() : null;
  const lines = [
    t('orders.mail.greeting', { name: order.shipping.fullName }),
    '',
    t('orders.stockShortMail.intro'),
    ...(soldOut.length > 0 ? ['', t('orders.stockShortMail.lines'), ...soldOut.map((name) => `- ${name}`)] : []),
    '',
    t('orders.mail.order', { label }),
    ...(refundedCents > 0 ? ['', t(refundText(order), { amount: formatPrice(refundedCents, order.currency, locale) })] : []),
    '',
    t('orders.stockShortMail.again'),
    '',
    ...(ordersUrl ? [t('orders.mail.viewOrders', { url: ordersUrl }), ''] : []),
    t('orders.mail.footer'),
    '',
  ];
  return { to: order.userEmail, subject: t('orders.stockShortMail.subject', { label }), text: lines.join('\n'), html: htmlMail(locale, lines) };
}

/**
 * The customer's mail when a payment arrived for an order a newer one of their cart had replaced (a bank page left
 * open in another tab): that payment is given back in full; the newer order is the one that counts.
 */
export function replacedPaidMail(order: OrderRecord, refundedCents: number, { publicUrl }: { publicUrl?: string } = {}): OutgoingMail {
  const locale: Locale = isLocale(order.locale) ? order.locale : 'en';
  const t = getT(locale);
  const label = orderLabel(order.id);
  const ordersUrl = publicUrl ? new URL(localePath(locale, orderPagePath(order)), publicUrl).toString() : null;
  const lines = [
    t('orders.mail.greeting', { name: order.shipping.fullName }),
    '',
    t('orders.replacedMail.intro', { label }),
    ...(refundedCents > 0 ? ['', t(refundText(order), { amount: formatPrice(refundedCents, order.currency, locale) })] : []),
    '',
    t('orders.replacedMail.newer'),
    '',
    ...(ordersUrl ? [t('orders.mail.viewOrders', { url: ordersUrl }), ''] : []),
    t('orders.mail.footer'),
    '',
  ];
  return { to: order.userEmail, subject: t('orders.replacedMail.subject', { label }), text: lines.join('\n'), html: htmlMail(locale, lines) };
}

/** Where a refund goes back, as the customer paid: the card, the bank account of a BLIK or Przelewy24 payment, or "the way you paid". */
export const refundText = (order: { paidWith: string | null }): string =>
  order.paidWith === 'card' ? 'orders.cancelMail.refund' : order.paidWith === 'blik' ? 'orders.cancelMail.refundBlik' : order.paidWith === 'przelewy24' ? 'orders.cancelMail.refundPrzelewy24' : 'orders.cancelMail.refundUnknown';
