import * as z from 'zod/mini';
import { plainLine } from '~/lib/plain-text.schema';
import type { ShippingAddress } from '~/modules/orders/orders.types';
import { normalizePhone } from '~/lib/phone';

/**
 * The checkout forms: the shipping address (step 1) and the test provider's card form (step 2), checked in
 * the browser for quick feedback and again on the server. Browser-safe: zod/mini only. Messages are keys in
 * the `checkout` catalogue.
 */
export type { ShippingAddress } from '~/modules/orders/orders.types';
export type ShippingField = keyof ShippingAddress;
export const shippingLimits = { fullName: 120, address: 200, city: 100, zipCode: 20 } as const;

const TOO_LONG = 'checkout.errors.tooLong';
const requiredText = (max: number, required: string) =>
  z.string({ error: required }).check(
    z.trim(),
    z.minLength(1, { error: required }),
    z.maxLength(max, { error: TOO_LONG }),
    plainLine('checkout.errors.invalidCharacters'),
  );

export const shippingAddressSchema = z.object({
  fullName: requiredText(shippingLimits.fullName, 'checkout.errors.fullNameRequired'),
  address: requiredText(shippingLimits.address, 'checkout.errors.addressRequired'),
  city: requiredText(shippingLimits.city, 'checkout.errors.cityRequired'),
  zipCode: requiredText(shippingLimits.zipCode, 'checkout.errors.zipCodeRequired'),
});

/** A locker and a pickup at the roastery need only the recipient's name. */
export const nameOnlySchema = z.object({ fullName: shippingAddressSchema.shape.fullName });

export type ParseResult<Data, Field extends string> =
  | { ok: true; data: Data }
  | { ok: false; fieldErrors: Partial<Record<Field, string>> };

const shippingFields: ShippingField[] = ['fullName', 'address', 'city', 'zipCode'];

export function parseShippingForm(input: FormData | Record<string, unknown>): ParseResult<ShippingAddress, ShippingField> {
  const get = getter(input);
  const values = Object.fromEntries(shippingFields.map((field) => [field, asText(get(field))]));
  const result = shippingAddressSchema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, fieldErrors: firstErrors<ShippingField>(result.error.issues) };
}

export const isAddressComplete = (address: ShippingAddress) => shippingAddressSchema.safeParse(address).success;

// --- delivery ---------------------------------------------------------------------------------

/** The delivery step's form: where (country, address), who the carrier texts (phone), how (a method) and, for a locker, which. */
export type DeliveryChoice = {
  address: ShippingAddress;
  country: string;
  phone: string;
  methodId: string;
  /** The locker's code when the method is a locker. */
  lockerCode: string | null;
  /** Whether the address and phone become the profile's. */
  saveToProfile: boolean;
};
export type DeliveryField = ShippingField | 'country' | 'phone' | 'methodId' | 'lockerCode' | 'email';
export type MethodKind = 'locker' | 'courier' | 'pickup';

const lockerCodePattern = /^[A-Z]{3}\d{1,4}[A-Z]{0,3}$/;
const methodIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

export { normalizePhone } from '~/lib/phone';

/** InPost texts the locker's code to a Polish mobile number: nine digits, with or without +48. */
export function polishMobile(phone: string): string | null {
  const digits = phone.replace(/^\+48|^0048/, '');
  return /^[1-9]\d{8}$/.test(digits) ? digits : null;
}

/**
 * Reads the delivery step. `kindOf` names each offered method's kind (the page's list in the browser, the
 * shop's table on the server): a courier needs the full address, a locker and a pickup only the name; a locker
 * needs a locker and a Polish mobile number.
 */
export function parseDeliveryForm(input: FormData | Record<string, unknown>, kindOf: (methodId: string) => MethodKind | undefined): ParseResult<DeliveryChoice, DeliveryField> {
  const get = getter(input);
  const fieldErrors: Partial<Record<DeliveryField, string>> = {};
  const methodId = asText(get('methodId'));
  const kind = methodIdPattern.test(methodId) ? kindOf(methodId) : undefined;
  if (!kind) fieldErrors.methodId = 'checkout.errors.methodRequired';

  const fullName = requiredText(shippingLimits.fullName, 'checkout.errors.fullNameRequired').safeParse(asText(get('fullName')));
  if (!fullName.success) fieldErrors.fullName = fullName.error.issues[0].message;
  const address: ShippingAddress = { fullName: fullName.success ? fullName.data : '', address: '', city: '', zipCode: '' };
  // A courier needs the street, city and postcode; a locker (InPost asks for a name, phone and email) and a pickup
  // need none: what was typed there is kept only when whole and valid, and never stops the order.
  const needsAddress = kind === 'courier' || kind === undefined;
  const typed = (['address', 'city', 'zipCode'] as const).map((field) => [field, requiredText(shippingLimits[field], `checkout.errors.${field}Required`).safeParse(asText(get(field)))] as const);
  for (const [field, parsed] of typed) {
    if (parsed.success && (needsAddress || typed.every(([, p]) => p.success))) address[field] = parsed.data;
    else if (!parsed.success && needsAddress) fieldErrors[field] = parsed.error.issues[0].message;
  }

  const country = asText(get('country'));
  if (!/^[A-Z]{2}$/.test(country)) fieldErrors.country = 'checkout.errors.countryRequired';

  const phoneText = asText(get('phone'));
  let phone = '';
  if (phoneText.trim() !== '') {
    const normalized = normalizePhone(phoneText);
    if (!normalized) fieldErrors.phone = 'checkout.errors.phoneInvalid';
    else if (kind === 'locker' && !polishMobile(normalized)) fieldErrors.phone = 'checkout.errors.phonePolishMobile';
    else phone = normalized;
  } else if (kind === 'locker') fieldErrors.phone = 'checkout.errors.phoneRequired';

  const lockerText = asText(get('lockerCode')).trim().toUpperCase();
  const lockerCode = kind === 'locker' ? lockerText : null;
  if (kind === 'locker' && !lockerCodePattern.test(lockerText)) fieldErrors.lockerCode = 'checkout.errors.lockerRequired';

  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, data: { address, country, phone, methodId, lockerCode, saveToProfile: asText(get('saveToProfile')) === 'on' } };
}

// --- test card ----------------------------------------------------------------------------------

export type TestCardField = 'cardNumber' | 'cardExpiry' | 'cardCvc';
export type TestCardInput = { number: string; expMonth: number; expYear: number; cvc: string };

/**
 * The test card form (`cardNumber`, `cardExpiry` as MM/YY or MM/YYYY, or the same digits without the
 * slash as a numeric keypad types them: 1230, 122030; `cardCvc`): format checks only; the server's
 * simulated card network decides (Luhn, expiry in the future, declines).
 */
export function parseTestCardForm(input: FormData | Record<string, unknown>): ParseResult<TestCardInput, TestCardField> {
  const get = getter(input);
  const number = asText(get('cardNumber')).replace(/[\s-]/g, '');
  const expiry = /^\s*(?:(\d{1,2})\s*\/\s*(\d{2}|\d{4})|(\d{2})(\d{2}|\d{4}))\s*$/.exec(asText(get('cardExpiry')));
  const cvc = asText(get('cardCvc')).trim();
  const fieldErrors: Partial<Record<TestCardField, string>> = {};
  if (!/^\d{12,19}$/.test(number)) fieldErrors.cardNumber = 'checkout.errors.invalid_number';
  const [month, year] = expiry ? [expiry[1] ?? expiry[3], expiry[2] ?? expiry[4]] : ['', ''];
  const expMonth = expiry ? Number(month) : Number.NaN;
  const expYear = expiry ? (year.length === 2 ? 2000 + Number(year) : Number(year)) : Number.NaN;
  if (!expiry || expMonth < 1 || expMonth > 12) fieldErrors.cardExpiry = 'checkout.errors.invalid_expiry';
  if (!/^\d{3,4}$/.test(cvc)) fieldErrors.cardCvc = 'checkout.errors.invalid_cvc';
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, data: { number, expMonth, expYear, cvc } };
}

// --- helpers ------------------------------------------------------------------------------------

function getter(input: FormData | Record<string, unknown>) {
  return (name: string): unknown => (input instanceof FormData ? input.get(name) : input[name]);
}
const asText = (value: unknown) => (typeof value === 'string' ? value : '');

function firstErrors<Field extends string>(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) {
  const fieldErrors: Partial<Record<Field, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0] as Field;
    if (field !== undefined && !fieldErrors[field]) fieldErrors[field] = issue.message;
  }
  return fieldErrors;
}
