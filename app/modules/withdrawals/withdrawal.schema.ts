/**
 * The withdrawal form (art. 11a of Directive 2011/83/EU): only what the rule allows to ask — a name, the
 * order's identification (its number and email), the lines withdrawn from (all by default) and a reason that
 * is never required. Browser-safe: the page checks the same way before sending. Messages are i18n keys.
 */
import { isPlainLine, isPlainText } from '~/lib/plain-text';

export { WITHDRAWAL_DAYS } from '~/modules/orders/orders.types';
export const withdrawalLimits = { name: 120, email: 254, orderNumber: 40, reason: 2000 } as const;

export type WithdrawalField = 'name' | 'orderNumber' | 'email' | 'lines' | 'reason';
export type WithdrawalErrors = Partial<Record<WithdrawalField, string>>;
/** `positions`: the lines chosen, by their place in the order. */
export type WithdrawalInput = { name: string; orderNumber: string; email: string; positions: number[]; reason: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const text = (value: FormDataEntryValue | null | undefined) => (typeof value === 'string' ? value.trim() : '');

/** "#x7k2qa", " X7K2QA " → "X7K2QA"; a full order id stays as typed. */
export const normalizeOrderNumber = (value: string) => {
  const bare = value.trim().replace(/^#/, '');
  return bare.length <= 8 ? bare.toUpperCase() : bare;
};

/** Reads the form. `requireLines`: on the second step, at least one line must be chosen. */
export function parseWithdrawalForm(
  form: FormData,
  { requireLines }: { requireLines: boolean },
): { ok: true; data: WithdrawalInput } | { ok: false; errors: WithdrawalErrors; data: WithdrawalInput } {
  const data: WithdrawalInput = {
    name: text(form.get('name')),
    orderNumber: normalizeOrderNumber(text(form.get('orderNumber'))),
    email: text(form.get('email')).toLowerCase(),
    positions: [...new Set(form.getAll('line').map((v) => text(v)).filter((v) => /^\d{1,3}$/.test(v)).map(Number))].slice(0, 200),
    reason: text(form.get('reason')),
  };
  const errors: WithdrawalErrors = {};
  if (!data.name) errors.name = 'withdrawal.errors.nameRequired';
  else if (data.name.length > withdrawalLimits.name || !isPlainLine(data.name)) errors.name = 'withdrawal.errors.nameInvalid';
  if (!data.orderNumber) errors.orderNumber = 'withdrawal.errors.orderRequired';
  else if (data.orderNumber.length > withdrawalLimits.orderNumber || !/^[\w-]+$/.test(data.orderNumber)) errors.orderNumber = 'withdrawal.errors.orderUnknown';
  if (!data.email) errors.email = 'withdrawal.errors.emailRequired';
  else if (data.email.length > withdrawalLimits.email || !EMAIL.test(data.email)) errors.email = 'withdrawal.errors.emailInvalid';
  if (data.reason.length > withdrawalLimits.reason || !isPlainText(data.reason)) errors.reason = 'withdrawal.errors.reasonInvalid';
  if (requireLines && data.positions.length === 0) errors.lines = 'withdrawal.errors.linesRequired';
  return Object.keys(errors).length > 0 ? { ok: false, errors, data } : { ok: true, data };
}
