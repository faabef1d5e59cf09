import { getT, isLocale, type Locale } from '~/modules/i18n/index.server';
import type { OutgoingMail } from '~/modules/mail/index.server';
import type { OrderRecord, OrderRecordLine } from './order-records.server';
import { orderLabel } from './orders.types';
import { localePath } from '~/modules/i18n/paths';
import { formatPrice as money } from '~/lib/format';
import { lineName } from '~/modules/catalog/variants';

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => htmlEntities[c]);
/** Header values stay on one line. */
const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();

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
    t('orders.mail.line', { quantity: String(line.quantity), title: title(line), price: money(line.unitPriceCents * line.quantity, locale) });
  const address = [order.shipping.fullName, order.shipping.address, `${order.shipping.zipCode} ${order.shipping.city}`];
  const ordersUrl = publicUrl ? new URL(localePath(locale, '/profile?tab=orders'), publicUrl).toString() : null;
  const total = t('orders.mail.total', { total: money(order.totalCents, locale) });

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
    total,
    '',
    t('orders.mail.shipTo'),
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
    `<p><strong>${escapeHtml(total)}</strong></p>`,
    `<p>${escapeHtml(t('orders.mail.shipTo'))}<br>${address.map(escapeHtml).join('<br>')}</p>`,
    ...(ordersUrl ? [`<p><a href="${escapeHtml(ordersUrl)}">${escapeHtml(t('orders.mail.viewOrders', { url: ordersUrl }))}</a></p>`] : []),
    `<p>${escapeHtml(t('orders.mail.footer'))}</p>`,
    '</body></html>',
  ].join('\n');

  return { to: order.userEmail, subject: oneLine(t('orders.mail.subject', { label })), text, html };
}

/** The shop's notification of a paid order (in English, the shop's working language). */
export function shopOrderNotificationMail(order: OrderRecord, lines: OrderRecordLine[], contactTo: string): OutgoingMail {
  const label = orderLabel(order.id);
  const lineText = (l: OrderRecordLine) =>
    `${l.quantity} × ${lineName(l.title || 'Unnamed Product', l.label)} (${l.sku ?? l.productId}) — ${money(l.unitPriceCents * l.quantity, 'en')}`;
  const rows: Array<[string, string]> = [
    ['Order', `${label} (${order.id})`],
    ['Customer', order.userEmail],
    ['Language', order.locale],
    ['Total', money(order.totalCents, 'en')],
    ['Payment', `${order.paymentProvider} ${order.paymentId ?? ''}`.trim()],
    ['Ship to', `${order.shipping.fullName}, ${order.shipping.address}, ${order.shipping.zipCode} ${order.shipping.city}`],
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
  return { to: contactTo, subject: `[Kopi order] ${label} — ${money(order.totalCents, 'en')}`, text, html, replyTo: order.userEmail };
}
