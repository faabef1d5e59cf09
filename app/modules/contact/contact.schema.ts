import * as z from 'zod/mini';
import { plainLine, plainText } from '~/lib/plain-text.schema';

/**
 * The contact form, checked in the browser for quick feedback and again on the server. zod/mini keeps the
 * browser bundle small. Messages are i18n keys; `contact.errors.tooLong` takes `{ max: contactLimits[field] }`.
 */
export const contactLimits = { name: 100, email: 254, subject: 150, message: 5000 } as const;

export type ContactField = keyof typeof contactLimits;
export const contactFields = Object.keys(contactLimits) as ContactField[];

const TOO_LONG = 'contact.errors.tooLong';

const INVALID = 'contact.errors.invalidCharacters';

const requiredText = (field: ContactField, required: string) =>
  z.string({ error: required }).check(
    z.trim(),
    z.minLength(1, { error: required }),
    z.maxLength(contactLimits[field], { error: TOO_LONG }),
    field === 'message' ? plainText(INVALID) : plainLine(INVALID),
  );

export const contactSchema = z.object({
  name: requiredText('name', 'contact.errors.nameRequired'),
  email: requiredText('email', 'contact.errors.emailRequired').check(
    z.regex(z.regexes.email, { error: 'contact.errors.emailInvalid' }),
  ),
  subject: requiredText('subject', 'contact.errors.subjectRequired'),
  message: requiredText('message', 'contact.errors.messageRequired'),
});

export type Contact = z.infer<typeof contactSchema>;
export type ContactFieldErrors = Partial<Record<ContactField, string>>;
export type ContactParseResult = { ok: true; data: Contact } | { ok: false; fieldErrors: ContactFieldErrors };

/** Validates a submitted form (FormData or a plain object); on failure, the first message key per field. */
export function parseContactForm(input: FormData | Record<string, unknown>): ContactParseResult {
  const get = (key: string): unknown => (isFormData(input) ? input.get(key) : input[key]);
  const values = Object.fromEntries(contactFields.map((field) => [field, asText(get(field))]));
  const result = contactSchema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: ContactFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ContactField;
    fieldErrors[field] ??= issue.message;
  }
  return { ok: false, fieldErrors };
}

const isFormData = (input: unknown): input is FormData =>
  typeof FormData !== 'undefined' && input instanceof FormData;

/** Form values arrive as strings; anything else (a file, a missing field) counts as empty. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
