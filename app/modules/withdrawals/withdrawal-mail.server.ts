import { htmlMail } from '~/modules/mail/plain-mail';
import { formatDate, formatDateTime, formatPrice } from '~/lib/format';
import { getT, isLocale, type Locale } from '~/modules/i18n/index.server';
import { localePath } from '~/modules/i18n/paths';
import type { OutgoingMail } from '~/modules/mail/index.server';
import { type OrderRecord, orderPagePath } from '~/modules/orders/index.server';
import { textByPaidWith } from '~/modules/orders/orders.types';
import type { Withdrawal, WithdrawableOrder } from './withdrawals.server';

/**
 * The acknowledgement on a durable medium the rule asks for, at once and in the language the consumer used:
 * what they withdrew from, the date and time it arrived, and by when the refund is due.
 */
export function withdrawalAcknowledgementMail(withdrawal: Withdrawal, order: WithdrawableOrder, { publicUrl }: { publicUrl?: string } = {}): OutgoingMail {
  const locale: Locale = isLocale(withdrawal.locale) ? withdrawal.locale : 'en';
  const t = getT(locale);
  const ordersUrl = publicUrl ? new URL(localePath(locale, orderPagePath(order)), publicUrl).toString() : null;
  const lines = [
    t('withdrawal.mail.greeting', { name: withdrawal.name }),
    '',
    t('withdrawal.mail.received', { when: formatDateTime(withdrawal.createdAt, locale) }),
    '',
    t('withdrawal.mail.order', { label: order.label, date: formatDate(order.createdAt, locale) }),
    t('withdrawal.mail.lines'),
    ...withdrawal.lines.map((line) => `  • ${line.quantity} × ${line.title}`),
    ...(withdrawal.reason ? ['', t('withdrawal.mail.reason', { reason: withdrawal.reason })] : []),
    '',
    t(textByPaidWith('withdrawal.mail.refund', order.paidWith), { date: formatDate(withdrawal.refundDueAt, locale) }),
    t('withdrawal.mail.return'),
    '',
    ...(ordersUrl ? [t('withdrawal.mail.viewOrders', { url: ordersUrl }), ''] : []),
    t('withdrawal.mail.footer'),
    '',
  ];
  return {
    to: withdrawal.email,
    subject: t('withdrawal.mail.subject', { label: order.label }),
    text: lines.join('\n'),
    html: htmlMail(locale, lines),
  };
}

/** The shop's notice (in English, like its order notices): who withdrew from what, and the refund's due date. */
export function shopWithdrawalMail(withdrawal: Withdrawal, order: WithdrawableOrder, contactTo: string): OutgoingMail {
  const text = [
    'A customer has withdrawn from a contract through the shop.',
    '',
    `Order: ${order.label} (${order.id})`,
    `Name: ${withdrawal.name}`,
    `Email: ${withdrawal.email}`,
    `Received: ${withdrawal.createdAt}`,
    `Refund due by: ${withdrawal.refundDueAt.slice(0, 10)}`,
    '',
    'Lines:',
    ...withdrawal.lines.map((line) => `  ${line.quantity} × ${line.title} (${line.position === undefined ? '' : `line ${line.position + 1}, `}product ${line.productId})`),
    ...(withdrawal.reason ? ['', `Reason: ${withdrawal.reason}`] : []),
    '',
    'Refund it from the order page in the back office.',
    '',
  ].join('\n');
  return { to: contactTo, subject: `Withdrawal from order ${order.label}`, text, replyTo: withdrawal.email };
}

/** The consumer's mail when the owner has refunded a withdrawal, in the language they withdrew in. */
export function withdrawalRefundMail(withdrawal: Withdrawal, order: OrderRecord, refundedCents: number, { publicUrl }: { publicUrl?: string } = {}): OutgoingMail {
  const locale: Locale = isLocale(withdrawal.locale) ? withdrawal.locale : 'en';
  const t = getT(locale);
  const label = order.id.slice(-6).toUpperCase();
  const ordersUrl = publicUrl ? new URL(localePath(locale, orderPagePath(order)), publicUrl).toString() : null;
  const lines = [
    t('withdrawal.mail.greeting', { name: withdrawal.name }),
    '',
    t('withdrawal.refundMail.intro', { amount: formatPrice(refundedCents, order.currency, locale), label }),
    ...withdrawal.lines.map((line) => `  • ${line.quantity} × ${line.title}`),
    '',
    t(textByPaidWith('withdrawal.refundMail.when', order.paidWith)),
    '',
    ...(ordersUrl ? [t('withdrawal.mail.viewOrders', { url: ordersUrl }), ''] : []),
    t('withdrawal.mail.footer'),
    '',
  ];
  return {
    to: withdrawal.email,
    subject: t('withdrawal.refundMail.subject', { label }),
    text: lines.join('\n'),
    html: htmlMail(locale, lines),
  };
}

