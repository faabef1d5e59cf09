import * as z from 'zod/mini';

/**
 * "Notify me when it's back": an email address and the shopper's consent, checked in the browser for quick
 * feedback and again on the server (zod/mini keeps the product page's JavaScript small). Messages are i18n keys.
 */
export const alertSchema = z.object({
  variantId: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'product.notify.errors.variant' })),
  email: z
    .string({ error: 'product.notify.errors.emailRequired' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'product.notify.errors.emailRequired' }),
      z.maxLength(254, { error: 'product.notify.errors.emailInvalid' }),
      z.regex(z.regexes.email, { error: 'product.notify.errors.emailInvalid' }),
    ),
  consent: z.literal('yes', { error: 'product.notify.errors.consent' }),
});
export type AlertInput = z.infer<typeof alertSchema>;
export type AlertField = 'email' | 'consent' | 'variantId';
export type AlertParseResult = { ok: true; data: AlertInput } | { ok: false; fieldErrors: Partial<Record<AlertField, string>> };

export function parseAlertForm(input: FormData | Record<string, unknown>): AlertParseResult {
  const get = (key: string): unknown => (typeof FormData !== 'undefined' && input instanceof FormData ? input.get(key) : (input as Record<string, unknown>)[key]);
  const text = (key: string) => (typeof get(key) === 'string' ? (get(key) as string) : '');
  const result = alertSchema.safeParse({ variantId: text('variantId'), email: text('email'), consent: text('consent') });
  if (result.success) return { ok: true, data: { ...result.data, email: result.data.email.toLowerCase() } };
  const fieldErrors: Partial<Record<AlertField, string>> = {};
  for (const issue of result.error.issues) fieldErrors[issue.path[0] as AlertField] ??= issue.message;
  return { ok: false, fieldErrors };
}

/** An unsubscribe link's token. */
export const alertTokenPattern = /^[A-Za-z0-9_-]{32,64}$/;
