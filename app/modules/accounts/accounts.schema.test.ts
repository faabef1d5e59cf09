import { describe, expect, it } from 'vitest';
import { getT } from '~/modules/i18n/index.server';
import {
  MIN_PASSWORD_LENGTH,
  authLimits,
  isSameAsShipping,
  parseLogInForm,
  parseNewPasswordForm,
  parseProfileForm,
  parseResetRequestForm,
  parseSignUpForm,
  paymentMethods,
} from './accounts.schema';

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

const token = 'A'.repeat(43);

describe('auth form schemas', () => {
  it('accepts a sign-up, trimming name and email but keeping the password as typed', () => {
    expect(parseSignUpForm(form({ name: '  Ola  ', email: ' Ola@Example.com ', password: ' secret pass ' }))).toEqual({
      ok: true,
      data: { name: 'Ola', email: 'Ola@Example.com', password: ' secret pass ' },
    });
  });

  it('reports the spec messages, one per field', () => {
    expect(parseSignUpForm({})).toEqual({
      ok: false,
      fieldErrors: {
        name: 'auth.errors.nameRequired',
        email: 'auth.errors.emailRequired',
        password: 'auth.errors.passwordRequired',
      },
    });
    expect(parseLogInForm({ email: 'nope', password: 'short' })).toEqual({
      ok: false,
      fieldErrors: { email: 'auth.errors.emailInvalid', password: 'auth.errors.passwordTooShort' },
    });
    expect(parseResetRequestForm({ email: '   ' })).toEqual({ ok: false, fieldErrors: { email: 'auth.errors.emailRequired' } });
    expect(parseResetRequestForm({ email: 'ola@example' })).toEqual({ ok: false, fieldErrors: { email: 'auth.errors.emailInvalid' } });
    expect(parseResetRequestForm({ email: 'ola@example.com' })).toEqual({ ok: true, data: { email: 'ola@example.com' } });
  });

  it(`needs at least ${MIN_PASSWORD_LENGTH} and at most ${authLimits.password} password characters`, () => {
    const ok = { name: 'Ola', email: 'ola@example.com' };
    expect(parseSignUpForm({ ...ok, password: 'x'.repeat(7) })).toEqual({ ok: false, fieldErrors: { password: 'auth.errors.passwordTooShort' } });
    expect(parseSignUpForm({ ...ok, password: 'x'.repeat(8) }).ok).toBe(true);
    expect(parseSignUpForm({ ...ok, password: 'x'.repeat(200) }).ok).toBe(true);
    expect(parseSignUpForm({ ...ok, password: 'x'.repeat(201) })).toEqual({ ok: false, fieldErrors: { password: 'auth.errors.passwordTooLong' } });
    expect(parseSignUpForm({ ...ok, password: 'x'.repeat(8), name: 'n'.repeat(101) })).toEqual({
      ok: false,
      fieldErrors: { name: 'auth.errors.nameTooLong' },
    });
    expect(parseLogInForm({ email: `${'a'.repeat(250)}@x.pl`, password: 'x'.repeat(8) })).toEqual({
      ok: false,
      fieldErrors: { email: 'auth.errors.emailTooLong' },
    });
  });

  it('treats files and other non-text values as empty', () => {
    const data = form({ email: 'ola@example.com' });
    data.set('password', new Blob(['secret123']), 'p.txt');
    expect(parseLogInForm(data)).toEqual({ ok: false, fieldErrors: { password: 'auth.errors.passwordRequired' } });
    expect(parseLogInForm({ email: 42, password: 'secret123' })).toEqual({ ok: false, fieldErrors: { email: 'auth.errors.emailRequired' } });
  });

  it('checks a new password and the shape of the reset token', () => {
    expect(parseNewPasswordForm({ password: 'new secret', token })).toEqual({ ok: true, data: { password: 'new secret', token } });
    expect(parseNewPasswordForm({ password: 'short', token: 'abc' })).toEqual({
      ok: false,
      fieldErrors: { password: 'auth.errors.passwordTooShort', token: 'auth.errors.invalidResetLink' },
    });
  });
});

const shipping = { fullName: 'Ola Nowak', address: 'ul. Kwiatowa 1', city: 'Kraków', zipCode: '30-001' };
const billing = { deliveryAddress: 'ul. Długa 5', deliveryCity: 'Gdańsk', deliveryZipCode: '80-001' };

describe('profile form schema', () => {
  it('copies the shipping address to billing when "Same as shipping" is checked, ignoring the billing fields', () => {
    for (const on of ['on', 'true']) {
      expect(parseProfileForm(form({ ...shipping, deliveryAddress: 'ignored', sameAsShipping: on, paymentMethod: 'blik' }))).toEqual({
        ok: true,
        data: { ...shipping, deliveryAddress: shipping.address, deliveryCity: shipping.city, deliveryZipCode: shipping.zipCode, paymentMethod: 'blik', phone: '' },
      });
    }
  });

  it('requires billing fields unless "Same as shipping" is checked', () => {
    expect(parseProfileForm({ ...shipping })).toEqual({
      ok: false,
      fieldErrors: {
        deliveryAddress: 'profile.errors.billingAddressRequired',
        deliveryCity: 'profile.errors.billingCityRequired',
        deliveryZipCode: 'profile.errors.billingZipCodeRequired',
      },
    });
    expect(parseProfileForm({ ...shipping, ...billing })).toEqual({ ok: true, data: { ...shipping, ...billing, paymentMethod: 'creditCard', phone: '' } });
    // A phone is optional; one given is a number carriers take, normalised as at checkout.
    expect(parseProfileForm({ ...shipping, ...billing, phone: '0048 601 234 567' })).toMatchObject({ ok: true, data: { phone: '+48601234567' } });
    expect(parseProfileForm({ ...shipping, ...billing, phone: 'call me' })).toEqual({ ok: false, fieldErrors: { phone: 'profile.errors.phoneInvalid' } });
  });

  it('requires the shipping fields, and reports no billing errors when the same address is used', () => {
    expect(parseProfileForm({ sameAsShipping: 'on' })).toEqual({
      ok: false,
      fieldErrors: {
        fullName: 'profile.errors.fullNameRequired',
        address: 'profile.errors.addressRequired',
        city: 'profile.errors.cityRequired',
        zipCode: 'profile.errors.zipCodeRequired',
      },
    });
  });

  it('accepts the three payment methods, defaults to creditCard and refuses anything else', () => {
    for (const paymentMethod of paymentMethods) {
      expect(parseProfileForm({ ...shipping, ...billing, paymentMethod })).toMatchObject({ ok: true, data: { paymentMethod } });
    }
    expect(parseProfileForm({ ...shipping, ...billing, paymentMethod: '' })).toMatchObject({ ok: true, data: { paymentMethod: 'creditCard' } });
    expect(parseProfileForm({ ...shipping, ...billing, paymentMethod: 'bitcoin' })).toEqual({
      ok: false,
      fieldErrors: { paymentMethod: 'profile.errors.paymentMethodInvalid' },
    });
  });

  it('limits lengths and trims', () => {
    expect(parseProfileForm({ ...shipping, ...billing, city: 'x'.repeat(101) })).toEqual({ ok: false, fieldErrors: { city: 'profile.errors.tooLong' } });
    expect(parseProfileForm({ ...shipping, ...billing, city: '  Kraków ' })).toMatchObject({ ok: true, data: { city: 'Kraków' } });
  });

  it('starts "Same as shipping" checked when both addresses are equal', () => {
    expect(isSameAsShipping({ address: '', city: '', zipCode: '', deliveryAddress: '', deliveryCity: '', deliveryZipCode: '' })).toBe(true);
    expect(isSameAsShipping({ ...shipping, ...billing })).toBe(false);
    expect(isSameAsShipping({ ...shipping, deliveryAddress: shipping.address, deliveryCity: shipping.city, deliveryZipCode: shipping.zipCode })).toBe(true);
  });
});

describe('account messages', () => {
  const keys = new Set<string>();
  const collect = (result: { ok: boolean; fieldErrors?: Record<string, string | undefined> }) => {
    for (const key of Object.values(result.fieldErrors ?? {})) if (key) keys.add(key);
  };
  collect(parseSignUpForm({}));
  collect(parseSignUpForm({ name: 'n'.repeat(101), email: 'bad', password: 'short' }));
  collect(parseSignUpForm({ name: 'x', email: `${'a'.repeat(260)}@x.pl`, password: 'x'.repeat(201) }));
  collect(parseNewPasswordForm({ password: 'x'.repeat(8), token: '' }));
  collect(parseProfileForm({}));
  collect(parseProfileForm({ fullName: 'x'.repeat(500), paymentMethod: 'cash' }));

  const serviceMessages = [
    'auth.errors.emailInUse',
    'auth.errors.invalidCredentials',
    'auth.errors.tooManyAttempts',
    'auth.errors.disabled',
    'auth.errors.tooManyRequests',
    'auth.errors.resetFailed',
    'auth.errors.googleCancelled',
    'auth.errors.googleBlocked',
    'auth.errors.googleFailed',
    'auth.errors.logoutFailed',
    'auth.resetSent',
    'auth.resetDone',
    'profile.saved',
    'profile.failed',
  ];

  it('has every validation and service message in English and Polish', () => {
    expect(keys.size).toBe(18);
    const en = getT('en');
    const pl = getT('pl');
    for (const key of [...keys, ...serviceMessages]) {
      expect(en(key), key).not.toBe(key);
      expect(pl(key), key).not.toBe(key);
      expect(pl(key), `${key} is translated`).not.toBe(en(key));
    }
  });

  it('uses the texts of the specification', () => {
    const en = getT('en');
    expect(en('auth.errors.emailRequired')).toBe('Email is required');
    expect(en('auth.errors.passwordRequired')).toBe('Password is required');
    expect(en('auth.errors.nameRequired')).toBe('Name is required for registration');
    expect(en('auth.errors.emailInvalid')).toBe('Please enter a valid email address');
    expect(en('auth.errors.passwordTooShort')).toBe('Password must be at least 8 characters long');
    expect(en('auth.errors.emailInUse')).toBe('An account with this email already exists.');
    expect(en('auth.errors.invalidCredentials')).toBe('Invalid email or password. Please check your credentials and try again.');
    expect(en('auth.errors.tooManyAttempts')).toBe('Too many failed login attempts. Please try again later or reset your password.');
    expect(en('auth.errors.disabled')).toBe('This account has been disabled. Please contact support.');
    expect(en('auth.resetSent')).toBe('Password reset email sent. Check your inbox.');
    expect(en('auth.errors.tooManyRequests')).toBe('Too many requests. Please try again later.');
    expect(en('auth.errors.googleCancelled')).toBe('Sign-in cancelled. Please try again.');
    expect(en('auth.errors.googleBlocked')).toBe('Sign-in popup was blocked. Please allow popups for this website.');
    expect(en('auth.errors.googleFailed')).toBe('Google sign-in failed. Please try again later.');
    expect(en('profile.saved')).toBe('Profile updated successfully!');
    expect(en('profile.failed')).toBe('Error updating profile. Please try again.');
  });

  it('forms the password hint with Polish plurals', () => {
    expect(getT('en')('auth.passwordHint', { count: 8 })).toBe('At least 8 characters');
    expect(getT('pl')('auth.passwordHint', { count: 8 })).toBe('Co najmniej 8 znaków');
    expect(getT('pl')('auth.passwordHint', { count: 3 })).toBe('Co najmniej 3 znaki');
    expect(getT('pl')('auth.greeting', { name: 'Ola' })).toBe('Cześć, Ola');
  });
});
