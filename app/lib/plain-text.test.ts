import { describe, expect, it } from 'vitest';
import { parseProfileForm, parseSignUpForm } from '~/modules/accounts/accounts.schema';
import { parseShippingForm } from '~/modules/checkout/checkout.schema';
import { parseContactForm } from '~/modules/contact/contact.schema';

// NUL, escape, a C1 control, DEL, line separator, the bidi overrides and isolates (Trojan Source), a mark.
const hostile = ['\u0000', '\u001b', '\u0085', '\u007f', '\u2028', '\u202e', '\u202a', '\u2066', '\u2069', '\u200f', '\u061c'];

describe('names, addresses and messages refuse control and bidi characters', () => {
  it.each(hostile.map((c) => [`U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`, c]))('%s', (_code, c) => {
    expect(parseSignUpForm({ name: `Ola${c}Nowak`, email: 'ola@example.com', password: 'long enough' })).toEqual({
      ok: false,
      fieldErrors: { name: 'auth.errors.nameInvalid' },
    });
    const address = { fullName: 'Ola', address: `Kwiatowa${c} 5`, city: 'Kraków', zipCode: '30-001' };
    expect(parseShippingForm(address)).toEqual({ ok: false, fieldErrors: { address: 'checkout.errors.invalidCharacters' } });
    expect(parseProfileForm({ ...address, sameAsShipping: 'on' })).toEqual({ ok: false, fieldErrors: { address: 'profile.errors.invalidCharacters' } });
    const contact = { name: 'Ola', email: 'ola@example.com', subject: 'Beans', message: `Hello${c}there` };
    expect(parseContactForm(contact)).toEqual({ ok: false, fieldErrors: { message: 'contact.errors.invalidCharacters' } });
    expect(parseContactForm({ ...contact, message: 'ok', subject: `Be${c}ans` })).toEqual({ ok: false, fieldErrors: { subject: 'contact.errors.invalidCharacters' } });
  });

  it('keeps what people really write: Polish letters, emoji, right-to-left script, and line breaks in messages', () => {
    expect(parseSignUpForm({ name: 'Zażółć Gęślą 👋', email: 'ola@example.com', password: 'long enough' }).ok).toBe(true);
    expect(parseSignUpForm({ name: 'سارة', email: 'sara@example.com', password: 'long enough' }).ok).toBe(true);
    expect(parseContactForm({ name: 'Ola', email: 'ola@example.com', subject: 'Beans', message: 'Line one\r\nLine two\n\tindented' }).ok).toBe(true);
  });
});
