import { type Executor, now } from '~/db/database.server';
import { DEFAULT_PAYMENT_METHOD, type PaymentMethod, type Profile, emptyProfile, paymentMethods } from './accounts.schema';

export type { Profile } from './accounts.schema';

/** The user's profile; empty fields and creditCard when none was saved yet. */
export async function getProfile(db: Executor, userId: string): Promise<Profile> {
  const row = await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return { ...emptyProfile };
  return {
    fullName: row.full_name,
    address: row.address,
    city: row.city,
    zipCode: row.zip_code,
    deliveryAddress: row.delivery_address,
    deliveryCity: row.delivery_city,
    deliveryZipCode: row.delivery_zip_code,
    paymentMethod: (paymentMethods as readonly string[]).includes(row.payment_method)
      ? (row.payment_method as PaymentMethod)
      : DEFAULT_PAYMENT_METHOD,
    phone: row.phone ?? '',
  };
}

/** Saves the (validated) profile, creating it on first save. */
export async function updateProfile(db: Executor, userId: string, profile: Profile): Promise<void> {
  const values = {
    full_name: profile.fullName,
    address: profile.address,
    city: profile.city,
    zip_code: profile.zipCode,
    delivery_address: profile.deliveryAddress,
    delivery_city: profile.deliveryCity,
    delivery_zip_code: profile.deliveryZipCode,
    payment_method: profile.paymentMethod,
    ...(profile.phone !== undefined ? { phone: profile.phone } : {}),
    updated_at: now(),
  };
  await db
    .insertInto('profiles')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/** What checkout pre-fills, in one read: the shipping address, the phone a carrier texts and the country delivered to ('' when never given). */
export async function getCheckoutDetails(
  db: Executor,
  userId: string,
): Promise<{ address: { fullName: string; address: string; city: string; zipCode: string }; phone: string; country: string }> {
  const row = await db.selectFrom('profiles').select(['full_name', 'address', 'city', 'zip_code', 'phone', 'country']).where('user_id', '=', userId).executeTakeFirst();
  return {
    address: { fullName: row?.full_name ?? '', address: row?.address ?? '', city: row?.city ?? '', zipCode: row?.zip_code ?? '' },
    phone: row?.phone ?? '',
    country: row?.country ?? '',
  };
}

/**
 * What a checkout keeps for next time, in one read and at most one write: the shipping address (a billing
 * address that was the same, or empty, follows it), the phone and the country. `address` null keeps the
 * address as it is (a pickup gives none).
 */
export async function saveCheckoutDetails(
  db: Executor,
  userId: string,
  { address, phone, country }: { address: { fullName: string; address: string; city: string; zipCode: string } | null; phone: string; country: string },
): Promise<void> {
  const row = await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const current = {
    full_name: row?.full_name ?? '',
    address: row?.address ?? '',
    city: row?.city ?? '',
    zip_code: row?.zip_code ?? '',
    delivery_address: row?.delivery_address ?? '',
    delivery_city: row?.delivery_city ?? '',
    delivery_zip_code: row?.delivery_zip_code ?? '',
    phone: row?.phone ?? '',
    country: row?.country ?? '',
  };
  const next = { ...current, phone: phone || current.phone, country };
  if (address) {
    const billingFollows =
      (current.address === current.delivery_address && current.city === current.delivery_city && current.zip_code === current.delivery_zip_code) ||
      (!current.delivery_address && !current.delivery_city && !current.delivery_zip_code);
    Object.assign(next, { full_name: address.fullName, address: address.address, city: address.city, zip_code: address.zipCode });
    if (billingFollows) Object.assign(next, { delivery_address: address.address, delivery_city: address.city, delivery_zip_code: address.zipCode });
  }
  if ((Object.keys(next) as Array<keyof typeof next>).every((key) => next[key] === current[key])) return;
  const values = { ...next, updated_at: now() };
  await db
    .insertInto('profiles')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}
