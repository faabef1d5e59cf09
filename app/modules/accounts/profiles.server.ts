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
    updated_at: now(),
  };
  await db
    .insertInto('profiles')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/** What checkout pre-fills besides the address: the phone a carrier texts and the country delivered to ('' when never given). */
export async function getContactDetails(db: Executor, userId: string): Promise<{ phone: string; country: string }> {
  const row = await db.selectFrom('profiles').select(['phone', 'country']).where('user_id', '=', userId).executeTakeFirst();
  return { phone: row?.phone ?? '', country: row?.country ?? '' };
}

/** Keeps the phone and country for the next checkout (creating the profile when there is none). */
export async function saveContactDetails(db: Executor, userId: string, details: { phone: string; country: string }): Promise<void> {
  await db
    .insertInto('profiles')
    .values({ user_id: userId, full_name: '', address: '', city: '', zip_code: '', delivery_address: '', delivery_city: '', delivery_zip_code: '', updated_at: now(), ...details })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...details, updated_at: now() }))
    .execute();
}
