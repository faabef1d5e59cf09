import { describe, expect, it } from 'vitest';
import { getT } from '~/modules/i18n/index.server';
import { contactLimits, contactSchema, parseContactForm } from './contact.schema';

const valid = { name: 'Ana Kowalska', email: 'ana@example.com', subject: 'Wholesale', message: 'Do you ship to Kraków?' };

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

describe('contact form schema', () => {
  it('accepts a complete message and trims every field', () => {
    const result = parseContactForm(form({ name: '  Ana  ', email: ' ana@example.com ', subject: ' Hi ', message: '\n Hello \n' }));
    expect(result).toEqual({ ok: true, data: { name: 'Ana', email: 'ana@example.com', subject: 'Hi', message: 'Hello' } });
  });

  it('accepts a plain object as well as FormData', () => {
    expect(parseContactForm(valid)).toEqual({ ok: true, data: valid });
  });

  it.each([
    ['name', 'contact.errors.nameRequired'],
    ['email', 'contact.errors.emailRequired'],
    ['subject', 'contact.errors.subjectRequired'],
    ['message', 'contact.errors.messageRequired'],
  ] as const)('requires %s (missing, empty or only spaces)', (field, key) => {
    const { [field]: _, ...rest } = valid;
    expect(parseContactForm(rest)).toEqual({ ok: false, fieldErrors: { [field]: key } });
    expect(parseContactForm({ ...valid, [field]: '' })).toEqual({ ok: false, fieldErrors: { [field]: key } });
    expect(parseContactForm(form({ ...valid, [field]: '   ' }))).toEqual({ ok: false, fieldErrors: { [field]: key } });
  });

  it('reports one message per field, the first that applies', () => {
    expect(parseContactForm({})).toEqual({
      ok: false,
      fieldErrors: {
        name: 'contact.errors.nameRequired',
        email: 'contact.errors.emailRequired',
        subject: 'contact.errors.subjectRequired',
        message: 'contact.errors.messageRequired',
      },
    });
  });

  it.each(['plainaddress', 'ana@', '@example.com', 'ana@example', 'ana example@example.com', 'ana@exa mple.com'])(
    'rejects the address %j',
    (email) => {
      expect(parseContactForm({ ...valid, email })).toEqual({ ok: false, fieldErrors: { email: 'contact.errors.emailInvalid' } });
    },
  );

  it.each(Object.entries(contactLimits))('limits %s to %i characters', (field, max) => {
    const fill = (n: number) => (field === 'email' ? `${'a'.repeat(n - '@example.com'.length)}@example.com` : 'x'.repeat(n));
    // The longest valid address is still limited by the email pattern's 64-character local part; test the limit on names etc.
    if (field !== 'email') expect(parseContactForm({ ...valid, [field]: fill(max) }).ok).toBe(true);
    expect(parseContactForm({ ...valid, [field]: fill(max + 1) })).toEqual({
      ok: false,
      fieldErrors: { [field]: 'contact.errors.tooLong' },
    });
    // Surrounding spaces do not count.
    if (field !== 'email') expect(parseContactForm({ ...valid, [field]: `  ${fill(max)}  ` }).ok).toBe(true);
  });

  it('treats a file or other non-text value as empty', () => {
    const data = form(valid);
    data.set('message', new Blob(['hello']), 'message.txt');
    expect(parseContactForm(data)).toEqual({ ok: false, fieldErrors: { message: 'contact.errors.messageRequired' } });
    expect(parseContactForm({ ...valid, name: 42 })).toEqual({ ok: false, fieldErrors: { name: 'contact.errors.nameRequired' } });
  });

  it('uses only message keys that exist in both catalogues', () => {
    const keys = new Set<string>();
    for (const input of [{}, { ...valid, email: 'nope' }, { ...valid, name: 'x'.repeat(101) }]) {
      const result = contactSchema.safeParse(input);
      for (const issue of result.success ? [] : result.error.issues) keys.add(issue.message);
    }
    expect(keys.size).toBe(6);
    for (const locale of ['en', 'pl'] as const) {
      const t = getT(locale);
      for (const key of keys) expect(t(key, { max: 100 }), `${locale}: ${key}`).not.toBe(key);
    }
    expect(getT('pl')('contact.errors.tooLong', { max: contactLimits.message })).toContain('5000');
  });
});
