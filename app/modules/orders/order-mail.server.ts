import { getT, isLocale, type Locale } from '~/modules/i18n/index.server';
import type { OutgoingMail } from '~/modules/mail/index.server';
import type { OrderRecord, OrderRecordLine } from './order-records.server';
import { type OrderDelivery, type ShippingAddress, orderLabel, orderPagePath, orderVatSummary } from './orders.types';
import { formatRate } from '~/modules/tax/vat';
import { localePath } from '~/modules/i18n/paths';
import { formatPrice as money } from '~/lib/format';
import { lineName } from '~/modules/catalog/variants';

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => htmlEntities[c]);
/** Header values stay on one line. */
const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();

/** Where the order goes, as lines: the address, a locker with its address, or the roastery for a pickup. */
export function deliveryAddressLines(shipping: ShippingAddress, delivery: OrderDelivery | null, t: (key: string, values?: Record<string, string>) => string): string[] {
  if (delivery?.kind === 'locker') return [shipping.fullName, t('delivery.locker', { code: delivery.point ?? '' }), delivery.pointAddress ?? '', delivery.phone].filter(Boolean);
  if (delivery?.kind === 'pickup') return [shipping.fullName, delivery.pointAddress ?? '', delivery.phone].filter(Boolean);
  return [shipping.fullName, shipping.address, `${shipping.zipCode} ${shipping.city}`, delivery?.phone ?? ''].filter(Boolean);
}

/** "Delivery: InPost locker — €3.49" (or "Free"), in the order's language; null for orders from before delivery was chosen. */
function deliveryLine(order: OrderRecord, locale: Locale, t: (key: string, values?: Record<string, string>) => string): string | null {
  if (!order.delivery) return null;
  const price = order.delivery.priceCents === 0 ? t('delivery.free') : money(order.delivery.priceCents, order.currency, locale);
  return `${t('delivery.deliveryVia', { method: t(`delivery.kinds.${order.delivery.kind}`) })} — ${price}`;
}

/** "incl. VAT €3.74 (23%)", one per rate, in `locale`; '' for an order without VAT recorded. */
function vatText(order: OrderRecord, lines: OrderRecordLine[], locale: Locale, t: (key: string, values?: Record<string, string>) => string): string {
  return orderVatSummary(lines.map((l) => ({ vat: l.vat ?? null })), order.deliveryVat)
    .map((part) => t('cart.inclVat', { amount: money(part.vatCents, order.currency, locale), rate: formatRate(part.rateBp, locale) }))
    .join(' · ');
}

/** The customer's confirmation, in the order's language: lines, total, order label and shipping address. */
export function orderConfirmationMail(
  order: OrderRecord,
  lines: OrderRecordLine[],
  { publicUrl }: { publicUrl?: string } = {},
): OutgoingMail {
  const locale: Locale = isLocale(order.locale) ? order.locale : 'en';
  const t = getT(locale);
  const label = orderLabel(order.id);
  const title = (line: OrderRecordLine) => lineName(line.title || t('orders.mail.unnamed'), line.label);
  const lineText = (line: OrderRecordLine) =>
    t('orders.mail.line', { quantity: String(line.quantity), title: title(line), price: money(line.unitPriceCents * line.quantity, order.currency, locale) });
  const address = deliveryAddressLines(order.shipping, order.delivery, t);
  const addressHeading = t(order.delivery?.kind === 'pickup' ? 'orders.mail.collectAt' : order.delivery?.kind === 'locker' ? 'orders.mail.toLocker' : 'orders.mail.shipTo');
  const delivery = deliveryLine(order, locale, t);
  const goods = order.delivery || order.discount ? `${t('delivery.goods')}: ${money(order.goodsCents, order.currency, locale)}` : null;
  const discount = order.discount
    ? order.discount.goodsCents > 0
      ? `${t('cart.code.discount', { code: order.discount.code })}: −${money(order.discount.goodsCents, order.currency, locale)}`
      : t('cart.code.freeDelivery', { code: order.discount.code })
    : null;
  const ordersUrl = publicUrl ? new URL(localePath(locale, orderPagePath(order)), publicUrl).toString() : null;
  const total = t('orders.mail.total', { total: money(order.totalCents, order.currency, locale) });
  const vat = vatText(order, lines, locale, t);

  const text = [
    t('orders.mail.greeting', { name: order.shipping.fullName }),
    '',
    t('orders.mail.intro'),
    '',
    t('orders.mail.order', { label }),
    '',
    `${t('orders.mail.items')}:`,
    ...lines.map((l) => `  ${lineText(l)}`),
    '',
    ...(goods ? [goods] : []),
    ...(discount ? [discount] : []),
    ...(goods && delivery ? [delivery] : []),
    total,
    ...(vat ? [vat] : []),
    '',
    addressHeading,
    ...address.map((l) => `  ${l}`),
    '',
    ...(ordersUrl ? [t('orders.mail.viewOrders', { url: ordersUrl }), ''] : []),
    t('orders.mail.footer'),
    '',
  ].join('\n');

  const html = [
    `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;color:#2b1d14">`,
    `<p>${escapeHtml(t('orders.mail.greeting', { name: order.shipping.fullName }))}</p>`,
    `<p>${escapeHtml(t('orders.mail.intro'))}</p>`,
    `<h2 style="font-size:1.1em">${escapeHtml(t('orders.mail.order', { label }))}</h2>`,
    `<p><strong>${escapeHtml(t('orders.mail.items'))}</strong></p>`,
    '<ul>',
    ...lines.map((l) => `<li>${escapeHtml(lineText(l))}</li>`),
    '</ul>',
    ...(goods ? [`<p>${[goods, discount, delivery].filter((x): x is string => Boolean(x)).map(escapeHtml).join('<br>')}</p>`] : []),
    `<p><strong>${escapeHtml(total)}</strong>${vat ? `<br>${escapeHtml(vat)}` : ''}</p>`,
    `<p>${escapeHtml(addressHeading)}<br>${address.map(escapeHtml).join('<br>')}</p>`,
    ...(ordersUrl ? [`<p><a href="${escapeHtml(ordersUrl)}">${escapeHtml(t('orders.mail.viewOrders', { url: ordersUrl }))}</a></p>`] : []),
    `<p>${escapeHtml(t('orders.mail.footer'))}</p>`,
    '</body></html>',
  ].join('\n');

  return { to: order.userEmail, subject: oneLine(t('orders.mail.subject', { label })), text, html };
}

const enDelivery = { locker: 'InPost locker', courier: 'Courier', pickup: 'Pickup at the roastery' } as const;

/** The shop's notification of a paid order (in English, the shop's working language). */
export function shopOrderNotificationMail(order: OrderRecord, lines: OrderRecordLine[], contactTo: string): OutgoingMail {
  const label = orderLabel(order.id);
  const lineText = (l: OrderRecordLine) =>
    `${l.quantity} × ${lineName(l.title || 'Unnamed Product', l.label)} (${l.sku ?? l.productId}) — ${money(l.unitPriceCents * l.quantity, order.currency, 'en')}`;
  const rows: Array<[string, string]> = [
    ['Order', `${label} (${order.id})`],
    ['Customer', order.userEmail],
    ['Language', order.locale],
    ['Total', money(order.totalCents, order.currency, 'en')],
    ...(vatText(order, lines, 'en', getT('en')) ? ([['VAT', `${vatText(order, lines, 'en', getT('en'))}${order.taxCountry ? ` — ${order.taxCountry}` : ''}`]] as Array<[string, string]>) : []),
    ...(order.delivery
      ? ([
          ['Goods', money(order.goodsCents, order.currency, 'en')],
          ...(order.discount ? [['Discount', `${order.discount.code} −${money(order.discount.goodsCents, order.currency, 'en')}${order.discount.deliveryCents > 0 ? ' (free delivery)' : ''}`] as [string, string]] : []),
          ['Delivery', `${enDelivery[order.delivery.kind]} — ${money(order.delivery.priceCents, order.currency, 'en')}`],
        ] as Array<[string, string]>)
      : []),
    ['Payment', `${order.paymentProvider} ${order.paymentId ?? ''}`.trim()],
    ['Ship to', deliveryAddressLines(order.shipping, order.delivery, getT('en')).join(', ')],
  ];
  const text = [
    'A new order has been paid.',
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    'Items:',
    ...lines.map((l) => `  ${lineText(l)}`),
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    '<p>A new order has been paid.</p>',
    '<table>',
    ...rows.map(([k, v]) => `<tr><th align="left" style="padding-right:1em">${k}</th><td>${escapeHtml(v)}</td></tr>`),
    '</table>',
    '<ul>',
    ...lines.map((l) => `<li>${escapeHtml(lineText(l))}</li>`),
    '</ul>',
    '</body></html>',
  ].join('\n');
  return { to: contactTo, subject: `[Kopi order] ${label} — ${money(order.totalCents, order.currency, 'en')}`, text, html, replyTo: order.userEmail };
}
