/**
 * The checkout in the journeys: a fresh signed-in customer with a cart, the two steps (Review Order with the
 * shipping address, Payment with the test provider's card form), the success screen and My Orders. Locators
 * go by role and by the shop's own texts (tests/fixtures/i18n); cards are the test provider's numbers
 * (app/modules/payments/test-provider.server.ts).
 */
import { type Locator, type Page, type TestInfo, expect } from '@playwright/test';
import type { DemoProduct } from '../fixtures/catalogue';
import { type Locale, escapeRegExp, plainSpaces, price, t } from '../fixtures/i18n';
import { type Account, newAccount, signUp } from './accounts';
import { addToCartByRequest } from './helpers';

/** The test provider's cards (TEST_CARDS in app/modules/payments/test-provider.server.ts, which is server code). */
export const TEST_CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  /** Fails the Luhn check. */
  invalidNumber: '4242 4242 4242 4241',
} as const;

export type ShippingAddress = { fullName: string; address: string; city: string; zipCode: string };
export type Card = { number: string; expiry: string; cvc: string };

/** A card that expires two years from now, as MM/YY. */
export const futureExpiry = (): string => {
  const now = new Date();
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
};
/** Last month, as MM/YY. */
export const pastExpiry = (): string => {
  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${String(lastMonth.getUTCMonth() + 1).padStart(2, '0')}/${String(lastMonth.getUTCFullYear() % 100).padStart(2, '0')}`;
};

export const card = (number: string, overrides: Partial<Card> = {}): Card => ({ number, expiry: futureExpiry(), cvc: '123', ...overrides });

export const polishAddress: ShippingAddress = { fullName: 'Ola Kowalska', address: 'ul. Długa 5/3', city: 'Gdańsk', zipCode: '80-827' };

/**
 * A customer nobody has seen before, signed in in the page's context (through the sign-up form endpoint),
 * with `items` in the cart (product path → quantity).
 */
export async function customerWithCart(
  page: Page,
  testInfo: TestInfo,
  items: Array<[path: string, quantity: number]>,
  { label = 'ola.checkout', name = 'Ola Kowalska' }: { label?: string; name?: string } = {},
): Promise<Account> {
  const account = newAccount(testInfo, label, name);
  // A shop page left open may still be fetching (route manifests, events) with the session being replaced: its
  // answer, for a session the sign-up has just ended, clears the new session's cookie (seen once on a loaded CI
  // machine: the second customer of a journey arrived at checkout signed out). Nothing is in flight on a blank page.
  if (page.url() !== 'about:blank') await page.goto('about:blank');
  await signUp(page, account);
  for (const [path, quantity] of items) await addToCartByRequest(page, path, quantity);
  return account;
}

const main = (page: Page) => page.getByRole('main');

/** The checkout's steps list and the step it marks as current. */
export async function expectStep(page: Page, step: 'review' | 'delivery' | 'payment', locale: Locale = 'en'): Promise<void> {
  const tr = t(locale);
  const steps = main(page).getByRole('list', { name: tr('checkout.steps.label') });
  await expect(steps.locator('[aria-current="step"]')).toContainText(tr(`checkout.steps.${step}`));
}

export const addressField = (page: Page, key: keyof ShippingAddress, locale: Locale = 'en'): Locator =>
  main(page).getByLabel(t(locale)(`checkout.address.${key}`), { exact: true });

export async function fillAddress(page: Page, address: ShippingAddress, locale: Locale = 'en'): Promise<void> {
  for (const key of ['fullName', 'address', 'city', 'zipCode'] as const) await addressField(page, key, locale).fill(address[key]);
}

export const proceedButton = (page: Page, locale: Locale = 'en'): Locator =>
  main(page).getByRole('button', { name: t(locale)('checkout.proceed'), exact: true });

export type DeliveryKind = 'locker' | 'courier' | 'pickup';

/** The delivery step's choice of a way (its radio is named by the method, e.g. "Courier"). */
export const deliveryMethod = (page: Page, kind: DeliveryKind, locale: Locale = 'en'): Locator =>
  main(page).getByRole('radio', { name: new RegExp(`^${escapeRegExp(t(locale)(`delivery.kinds.${kind}`))}`) });

/** From Review Order to the Delivery step. */
export async function continueToDelivery(page: Page, locale: Locale = 'en'): Promise<void> {
  await main(page).getByRole('link', { name: t(locale)('checkout.continue') }).click();
  await expectStep(page, 'delivery', locale);
}

/**
 * On Review Order (or already on Delivery): goes to the Delivery step, chooses the way (pickup at the roastery
 * unless told otherwise: it is free, so the amount to pay is the goods'), fills the address and goes on to the
 * Payment step.
 */
export async function proceedToPayment(page: Page, address: ShippingAddress, locale: Locale = 'en', { method = 'pickup' as Exclude<DeliveryKind, 'locker'> } = {}): Promise<void> {
  if (!new URL(page.url()).searchParams.has('step')) await continueToDelivery(page, locale);
  await deliveryMethod(page, method, locale).check();
  await fillAddress(page, address, locale);
  await proceedButton(page, locale).click();
  await expectStep(page, 'payment', locale);
}

export const cardField = (page: Page, key: 'number' | 'expiry' | 'cvc', locale: Locale = 'en'): Locator =>
  main(page).getByLabel(t(locale)(`checkout.card.${key}`), { exact: true });

/** The Pay button, named with the amount ("Pay €12.50", "Zapłać 52,99 zł"). */
export const payButton = (page: Page, totalCents: number, locale: Locale = 'en', currency: 'EUR' | 'PLN' = 'EUR'): Locator =>
  main(page).getByRole('button', { name: plainSpacesPattern(t(locale)('checkout.pay', { amount: price(totalCents, locale, currency) })) });

export async function fillCard(page: Page, { number, expiry, cvc }: Card, locale: Locale = 'en'): Promise<void> {
  await cardField(page, 'number', locale).fill(number);
  await cardField(page, 'expiry', locale).fill(expiry);
  await cardField(page, 'cvc', locale).fill(cvc);
}

/** The payment form's message (its alert region). */
export const paymentAlert = (page: Page): Locator => main(page).getByRole('alert');

/** Pays on the Payment step and waits for the success screen; returns the order id from its address. */
export async function payAndFinish(page: Page, totalCents: number, payWith: Card, locale: Locale = 'en', currency: 'EUR' | 'PLN' = 'EUR'): Promise<string> {
  await fillCard(page, payWith, locale);
  await payButton(page, totalCents, locale, currency).click();
  return expectDone(page, locale);
}

/** The success screen (/checkout?step=done&order=…); returns the order id. */
export async function expectDone(page: Page, locale: Locale = 'en'): Promise<string> {
  await expect(page).toHaveURL(/\/checkout\?step=done&order=[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(locale)('checkout.done.title'));
  return new URL(page.url()).searchParams.get('order')!;
}

/** "X7K2QA": the last 6 characters of the order id in upper case. */
export const orderLabel = (orderId: string): string => orderId.slice(-6).toUpperCase();

/** The lines of an order or cart summary (`OrderLines`): name, quantity × unit price, line total, and the total. */
export async function expectOrderLines(
  scope: Locator,
  lines: Array<{ product: DemoProduct; quantity: number }>,
  locale: Locale = 'en',
  deliveryCents = 0,
): Promise<void> {
  const rows = scope.getByTestId('checkout-line');
  await expect(rows).toHaveCount(lines.length);
  for (const { product, quantity } of lines) {
    const name = product[locale].name || product.en.name;
    const row = rows.filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(plainSpacesPattern(`${quantity} × ${price(product.priceCents, locale)}`));
    await expect(row).toContainText(plainSpacesPattern(price(product.priceCents * quantity, locale)));
  }
  await expect(scope.getByTestId('checkout-total')).toHaveText(plainSpacesPattern(price(totalOf(lines) + deliveryCents, locale)));
}

/**
 * The Polish courier's price for a parcel of up to 1 kg (every journey's few bags: 250 g each, plus 150 g of
 * packaging), free from 50 € of goods (the default rates of migration 0019).
 */
export const courierCents = (goodsCents: number): number => (goodsCents >= 5000 ? 0 : 499);

export const totalOf = (lines: Array<{ product: DemoProduct; quantity: number }>): number =>
  lines.reduce((sum, { product, quantity }) => sum + product.priceCents * quantity, 0);

/** The date the shop shows for `iso`: long date style in the page's locale, in the browser's time zone. */
export const shownDate = (iso: string, locale: Locale, timeZone = 'Europe/Warsaw'): string =>
  plainSpaces(new Intl.DateTimeFormat(locale === 'en' ? 'en-IE' : 'pl-PL', { dateStyle: 'long', timeZone }).format(new Date(iso)));

/** My Orders' card of one order, found by its label. */
export const orderCard = (page: Page, orderId: string, locale: Locale = 'en'): Locator =>
  main(page)
    .getByTestId('order')
    .filter({ has: page.getByRole('heading', { name: t(locale)('orders.label', { label: orderLabel(orderId) }), exact: true }) });

/** Matches `text` with plain or no-break spaces wherever it has spaces (Polish prices use no-break spaces). */
export function plainSpacesPattern(text: string): RegExp {
  return new RegExp(escapeRegExp(plainSpaces(text)).replace(/ /g, '[\\s\\u00a0\\u202f]'));
}

/**
 * Places and pays for the context's cart through the checkout's own form posts (those a browser without JavaScript
 * sends: the delivery step's "Proceed to Payment", then "Pay" with the test provider's card), for journeys about
 * what comes after an order (the owner's order page, invoices, reviews, a customer's data) rather than the checkout,
 * which its own journeys test in the browser. Pickup at the roastery unless told; returns the order id.
 */
export async function checkOutByRequest(
  page: Page,
  {
    locale = 'en',
    method = 'pickup',
    address = polishAddress,
    lockerCode,
    phone,
    payWith = card(TEST_CARDS.success),
    invoice,
  }: { locale?: Locale; method?: DeliveryKind; address?: ShippingAddress; lockerCode?: string; phone?: string; payWith?: Card; invoice?: { name: string; taxId: string } } = {},
): Promise<string> {
  const checkout = locale === 'pl' ? '/pl/checkout' : '/checkout';
  const delivery: Record<string, string> = { intent: 'proceed', ...address, country: 'PL', methodId: `method-pl-${method}`, saveToProfile: 'on' };
  // An invoice asked for at checkout, the delivery address as the billing one.
  if (invoice) Object.assign(delivery, { invoice: 'on', invoiceName: invoice.name, invoiceTaxId: invoice.taxId, invoiceCountry: 'PL' });
  if (lockerCode) delivery.lockerCode = lockerCode;
  if (phone) delivery.phone = phone;
  const proceed = await page.request.post(checkout, { form: delivery, maxRedirects: 0 });
  const body = await proceed.text();
  const orderId = /name="orderId" value="([^"]+)"/.exec(body)?.[1];
  expect(proceed.status(), `Proceed to Payment answered ${proceed.status()}`).toBe(200);
  expect(orderId, 'the payment step names its order').toBeTruthy();
  const pay = await page.request.post(checkout, {
    form: { intent: 'pay', orderId: orderId!, cardNumber: payWith.number, cardExpiry: payWith.expiry, cardCvc: payWith.cvc },
    maxRedirects: 0,
  });
  expect(pay.status(), `Pay answered ${pay.status()}`).toBe(302);
  expect(pay.headers().location).toBe(`${checkout}?step=done&order=${orderId}`);
  return orderId!;
}
