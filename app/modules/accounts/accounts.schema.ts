import * as z from 'zod/mini';
import { plainLine } from '~/lib/plain-text.schema';
import { normalizePhone } from '~/lib/phone';

/**
 * The account forms (log in, sign up, reset request, new password, profile), checked in the browser for
 * quick feedback and again on the server. Browser-safe: zod/mini only. Messages are i18n keys in the `auth`
 * and `profile` catalogues and need no interpolation values.
 */

export const authModes = ['login', 'signup', 'reset'] as const;
export type AuthMode = (typeof authModes)[number];
export const MIN_PASSWORD_LENGTH = 8;
export const authLimits = { name: 100, email: 254, password: 200 } as const;

export const paymentMethods = ['creditCard', 'blik', 'przelewy24'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'creditCard';

export const profileLimits = { fullName: 120, address: 200, city: 100, zipCode: 20 } as const;

// --- auth ---------------------------------------------------------------------------------------

const E = {
  emailRequired: 'auth.errors.emailRequired',
  emailInvalid: 'auth.errors.emailInvalid',
  emailTooLong: 'auth.errors.emailTooLong',
  passwordRequired: 'auth.errors.passwordRequired',
  passwordTooShort: 'auth.errors.passwordTooShort',
  passwordTooLong: 'auth.errors.passwordTooLong',
  nameRequired: 'auth.errors.nameRequired',
  nameTooLong: 'auth.errors.nameTooLong',
  nameInvalid: 'auth.errors.nameInvalid',
  invalidResetLink: 'auth.errors.invalidResetLink',
} as const;

const email = z.string({ error: E.emailRequired }).check(
  z.trim(),
  z.minLength(1, { error: E.emailRequired }),
  z.maxLength(authLimits.email, { error: E.emailTooLong }),
  z.regex(z.regexes.email, { error: E.emailInvalid }),
);
/** An email address as the sign-up form takes it (a guest's at checkout too). */
export const emailSchema = email;

/** Passwords are taken as typed: spaces count. */
const password = z.string({ error: E.passwordRequired }).check(
  z.minLength(1, { error: E.passwordRequired }),
  z.minLength(MIN_PASSWORD_LENGTH, { error: E.passwordTooShort }),
  z.maxLength(authLimits.password, { error: E.passwordTooLong }),
);

const name = z.string({ error: E.nameRequired }).check(
  z.trim(),
  z.minLength(1, { error: E.nameRequired }),
  z.maxLength(authLimits.name, { error: E.nameTooLong }),
  plainLine(E.nameInvalid),
);

/** Reset tokens are 32 random bytes in base64url. */
const token = z.string({ error: E.invalidResetLink }).check(z.regex(/^[A-Za-z0-9_-]{43}$/, { error: E.invalidResetLink }));

export const signUpSchema = z.object({ name, email, password });
export const logInSchema = z.object({ email, password });
export const resetRequestSchema = z.object({ email });
export const newPasswordSchema = z.object({ password, token });

export type SignUp = z.infer<typeof signUpSchema>;
export type LogIn = z.infer<typeof logInSchema>;
export type ResetRequest = z.infer<typeof resetRequestSchema>;
export type NewPassword = z.infer<typeof newPasswordSchema>;

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;
export type ParseResult<Data, Field extends string = Extract<keyof Data, string>> =
  | { ok: true; data: Data }
  | { ok: false; fieldErrors: FieldErrors<Field> };

export const parseSignUpForm = (input: FormData | Record<string, unknown>): ParseResult<SignUp> =>
  parseWith(signUpSchema, input, ['name', 'email', 'password']);
export const parseLogInForm = (input: FormData | Record<string, unknown>): ParseResult<LogIn> =>
  parseWith(logInSchema, input, ['email', 'password']);
export const parseResetRequestForm = (input: FormData | Record<string, unknown>): ParseResult<ResetRequest> =>
  parseWith(resetRequestSchema, input, ['email']);
export const parseNewPasswordForm = (input: FormData | Record<string, unknown>): ParseResult<NewPassword> =>
  parseWith(newPasswordSchema, input, ['password', 'token']);

// --- profile ------------------------------------------------------------------------------------

export type Profile = {
  fullName: string;
  address: string;
  city: string;
  zipCode: string;
  /** The billing address (the spec's "delivery" fields are labelled Billing). */
  deliveryAddress: string;
  deliveryCity: string;
  deliveryZipCode: string;
  paymentMethod: PaymentMethod;
  /** The phone a carrier texts or calls, as checkout saved it or the customer gave it here ('' for none). Left out: kept as it is. */
  phone?: string;
};
export type ProfileField = keyof Profile;

export const emptyProfile: Profile = {
  fullName: '',
  address: '',
  city: '',
  zipCode: '',
  deliveryAddress: '',
  deliveryCity: '',
  deliveryZipCode: '',
  paymentMethod: DEFAULT_PAYMENT_METHOD,
  phone: '',
};

/** "Same as shipping" starts checked when the billing address equals the shipping address (also when both are empty). */
export const isSameAsShipping = (p: Pick<Profile, 'address' | 'city' | 'zipCode' | 'deliveryAddress' | 'deliveryCity' | 'deliveryZipCode'>) =>
  p.address === p.deliveryAddress && p.city === p.deliveryCity && p.zipCode === p.deliveryZipCode;

const TOO_LONG = 'profile.errors.tooLong';
const requiredText = (max: number, required: string) =>
  z.string({ error: required }).check(
    z.trim(),
    z.minLength(1, { error: required }),
    z.maxLength(max, { error: TOO_LONG }),
    plainLine('profile.errors.invalidCharacters'),
  );

export const profileSchema = z.object({
  fullName: requiredText(profileLimits.fullName, 'profile.errors.fullNameRequired'),
  address: requiredText(profileLimits.address, 'profile.errors.addressRequired'),
  city: requiredText(profileLimits.city, 'profile.errors.cityRequired'),
  zipCode: requiredText(profileLimits.zipCode, 'profile.errors.zipCodeRequired'),
  deliveryAddress: requiredText(profileLimits.address, 'profile.errors.billingAddressRequired'),
  deliveryCity: requiredText(profileLimits.city, 'profile.errors.billingCityRequired'),
  deliveryZipCode: requiredText(profileLimits.zipCode, 'profile.errors.billingZipCodeRequired'),
  paymentMethod: z.enum(paymentMethods, { error: 'profile.errors.paymentMethodInvalid' }),
});

const profileFields: ProfileField[] = [
  'fullName',
  'address',
  'city',
  'zipCode',
  'deliveryAddress',
  'deliveryCity',
  'deliveryZipCode',
  'paymentMethod',
  'phone',
];
const billingFields = ['deliveryAddress', 'deliveryCity', 'deliveryZipCode'] as const;

/**
 * The profile form. With `sameAsShipping` ('on' or 'true') the billing fields are ignored and
 * `data.delivery*` repeat the shipping values; a missing or empty payment method is creditCard.
 */
export function parseProfileForm(input: FormData | Record<string, unknown>): ParseResult<Profile, ProfileField> {
  const get = getter(input);
  const values: Record<string, string> = Object.fromEntries(profileFields.map((field) => [field, asText(get(field))]));
  const same = ['on', 'true'].includes(asText(get('sameAsShipping')));
  if (same) {
    values.deliveryAddress = values.address;
    values.deliveryCity = values.city;
    values.deliveryZipCode = values.zipCode;
  }
  if (values.paymentMethod === '') values.paymentMethod = DEFAULT_PAYMENT_METHOD;
  // The phone may be left empty; one given is a number carriers take (as at checkout).
  const phone = values.phone.trim() === '' ? '' : normalizePhone(values.phone);
  const result = profileSchema.safeParse(values);
  if (result.success && phone !== null) return { ok: true, data: { ...result.data, phone } };
  const fieldErrors = result.success ? {} : firstErrors<ProfileField>(result.error.issues);
  if (same) for (const field of billingFields) delete fieldErrors[field];
  if (phone === null) fieldErrors.phone = 'profile.errors.phoneInvalid';
  return { ok: false, fieldErrors };
}

// --- helpers ------------------------------------------------------------------------------------

function parseWith<Data, Field extends string>(
  schema: z.ZodMiniType<Data>,
  input: FormData | Record<string, unknown>,
  fields: Field[],
): ParseResult<Data, Field> {
  const get = getter(input);
  const values = Object.fromEntries(fields.map((field) => [field, asText(get(field))]));
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, fieldErrors: firstErrors<Field>(result.error.issues) };
}

function firstErrors<Field extends string>(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldErrors<Field> {
  const fieldErrors: FieldErrors<Field> = {};
  for (const issue of issues) {
    const field = issue.path[0] as Field;
    fieldErrors[field] ??= issue.message;
  }
  return fieldErrors;
}

const getter = (input: FormData | Record<string, unknown>) => (key: string): unknown =>
  isFormData(input) ? input.get(key) : input[key];

const isFormData = (input: unknown): input is FormData => typeof FormData !== 'undefined' && input instanceof FormData;

/** Form values arrive as strings; anything else (a file, a missing field) counts as empty. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
