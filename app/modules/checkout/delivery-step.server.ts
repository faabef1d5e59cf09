/**
 * What the delivery step shows: the cart and the customer's last address, the countries the shop delivers to,
 * the ways there for this parcel with their prices, and lockers found by the shopper's search.
 */
import type { Executor } from '~/db/database.server';
import { type Cart, cartWeightGrams, getCart, goodsToPay } from '~/modules/cart/index.server';
import {
  type DeliveryOption,
  type DeliveryTable,
  type Locker,
  type LockerDirectory,
  amountToFreeDelivery,
  chooseCountry,
  deliveryOptions,
  getDeliveryTable,
  inCurrency,
  servedCountries,
} from '~/modules/delivery/index.server';
import type { Currency } from '~/modules/pricing/index.server';
import type { Locale } from '~/modules/i18n/index.server';
import type { Storage } from '~/modules/storage/index.server';
import { orderTaxRates } from '~/modules/tax/index.server';
import { type Limits, ipScope, recordAttempt } from '~/modules/limits/index.server';
import { type OrderRecord, lastOrderOfCart } from '~/modules/orders/index.server';
import { type CheckoutReview, reviewCheckout } from './checkout.server';

export type DeliveryStep = CheckoutReview & {
  country: string;
  countries: string[];
  options: DeliveryOption[];
  /** How much more the goods must cost for delivery to be free (null: already free, or never). */
  toFree: number | null;
  /** The search the shopper made for a locker, and what it found (`unavailable`: InPost could not be asked). */
  /** `limited`: this shopper searched too many new places in a short time. */
  lockerSearch: { query: string; lockers: Locker[]; near: boolean; unavailable: boolean; limited?: boolean } | null;
  /** The country whose VAT the prices follow (OSS, the owner's choice): the cart is shown at those prices. */
  pricesIn: string | null;
  /** What the shopper chose last time at this step (the cart's latest order), as the form's fields; null the first time. */
  remembered: Remembered | null;
};

/** The delivery form's fields as the shopper filled them for the cart's latest order, and its locker's address. */
export type Remembered = { values: Record<string, string>; lockerAddress: string | null };

export async function deliveryStep(
  db: Executor,
  storage: Storage,
  lockers: LockerDirectory,
  input: {
    userId: string | null;
    cartId: string | null;
    locale: Locale;
    currency: Currency;
    /** The country asked for (the country form); else the one the shopper chose (a cookie), else the last order's. */
    country?: string | null;
    shopperCountry?: string | null;
    lockerQuery?: string | null;
    allowLockerSearch?: () => Promise<boolean>;
  },
): Promise<DeliveryStep> {
  const [review, stored, last] = await Promise.all([reviewCheckout(db, storage, input), getDeliveryTable(db), lastOrderOfCart(db, input)]);
  const table = inCurrency(stored, input.currency);
  const country = chooseCountry(table, input.country ?? input.shopperCountry ?? last?.delivery?.country, review.country);
  // Where prices follow the buyer's VAT, the cart is read at the prices the order will be charged (as the payment
  // step reads it), so that a code's minimum and the free-delivery threshold are judged on what is paid.
  const { reprice } = await orderTaxRates(db, { country });
  if (reprice) review.cart = await getCart(db, storage, input.cartId, input.locale, input.currency, { reprice });
  const options = quote(table, country, review.cart);
  const query = (input.lockerQuery ?? '').trim().slice(0, 60);
  let lockerSearch: DeliveryStep['lockerSearch'] = null;
  if (query && options.some((o) => o.kind === 'locker')) {
    const found = await lockers.search(query, { allow: input.allowLockerSearch });
    lockerSearch = { query, lockers: found.ok ? found.lockers : [], near: found.ok && found.near, unavailable: !found.ok && found.reason === 'unavailable', limited: !found.ok && found.reason === 'limited' };
  }
  const free = review.cart.code?.applies === true && review.cart.code.freeDelivery;
  return {
    ...review,
    country,
    countries: servedCountries(table),
    options,
    toFree: free ? null : amountToFreeDelivery(options, goodsToPay(review.cart)),
    lockerSearch,
    pricesIn: reprice ? country : null,
    remembered: last ? remember(last, input.userId === null) : null,
  };
}

/**
 * The form as it was filled for `order`: the way, the locker, the recipient, the phone, a guest's email and the
 * invoice asked for. Back from the payment step (or after a declined payment) nothing has to be typed again.
 */
function remember(order: OrderRecord, guest: boolean): Remembered {
  // An empty address (a locker's, a pickup's) or phone leaves the profile's in place.
  const { fullName, ...address } = order.shipping;
  const values: Record<string, string> = { fullName, ...(Object.values(address).every(Boolean) ? address : {}), saveToProfile: 'on' };
  if (order.delivery?.phone) values.phone = order.delivery.phone;
  if (order.delivery) values.methodId = order.delivery.methodId;
  if (order.delivery?.kind === 'locker' && order.delivery.point) values.lockerCode = order.delivery.point;
  if (guest) values.email = order.userEmail;
  const buyer = order.invoiceBuyer;
  if (buyer) {
    Object.assign(values, { invoice: 'on', invoiceName: buyer.name, invoiceTaxId: buyer.taxId, invoiceCountry: buyer.country, invoiceAddress: buyer.address, invoiceZipCode: buyer.zipCode, invoiceCity: buyer.city });
  }
  return { values, lockerAddress: order.delivery?.kind === 'locker' ? order.delivery.pointAddress : null };
}

/** The methods for this cart's weight and goods (after its code), each free with a free-delivery code. */
const quote = (table: DeliveryTable, country: string, cart: Cart) => {
  const options = deliveryOptions(table, { country, goodsGrams: cartWeightGrams(cart), goodsCents: goodsToPay(cart) });
  return cart.code?.applies && cart.code.freeDelivery ? options.map((o) => ({ ...o, priceCents: 0 })) : options;
};

/**
 * Whether a locker search InPost would be asked for may go ahead: it counts against the cart's and the client
 * address's limits (app/modules/limits: each is a call on the shop's quota), in the database, as every node counts.
 */
export async function lockerSearchAllowed(db: Executor, rule: Limits['lockerSearch'], { cartId, ip }: { cartId: string | null; ip: string | null }): Promise<boolean> {
  const address = ipScope(ip);
  const scopes = [...(cartId ? [{ key: `cart:${cartId}`, limit: rule.perCart }] : []), ...(address ? [{ key: address, limit: rule.perAddress }] : [])];
  return !(await recordAttempt(db, 'lockerSearch', scopes, rule.windowMs)).limited;
}
