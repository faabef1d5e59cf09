/**
 * "Notify me when it's back": an email address and the shopper's consent, checked in the browser for quick
 * feedback and again on the server. Plain code rather than a schema library: the product page loads it, and its
 * JavaScript budget has no room for one (zod/mini alone was 5.4 kB gzip). Messages are i18n keys.
 */

/** The email addresses the shop's other forms accept (zod's `regexes.email`, the same pattern). */
const EMAIL = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
const VARIANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export type AlertInput = { variantId: string; email: string; consent: 'yes' };
export type AlertField = 'email' | 'consent' | 'variantId';
export type AlertParseResult = { ok: true; data: AlertInput } | { ok: false; fieldErrors: Partial<Record<AlertField, string>> };

export function parseAlertForm(input: FormData | Record<string, unknown>): AlertParseResult {
  const get = (key: string): unknown => (typeof FormData !== 'undefined' && input instanceof FormData ? input.get(key) : (input as Record<string, unknown>)[key]);
  const text = (key: string) => (typeof get(key) === 'string' ? (get(key) as string) : '');
  const variantId = text('variantId');
  const email = text('email').trim();
  const fieldErrors: Partial<Record<AlertField, string>> = {};
  if (!VARIANT_ID.test(variantId)) fieldErrors.variantId = 'product.notify.errors.variant';
  if (email.length === 0) fieldErrors.email = 'product.notify.errors.emailRequired';
  else if (email.length > 254 || !EMAIL.test(email)) fieldErrors.email = 'product.notify.errors.emailInvalid';
  if (text('consent') !== 'yes') fieldErrors.consent = 'product.notify.errors.consent';
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, data: { variantId, email: email.toLowerCase(), consent: 'yes' } };
}

/** An unsubscribe link's token. */
export const alertTokenPattern = /^[A-Za-z0-9_-]{32,64}$/;
