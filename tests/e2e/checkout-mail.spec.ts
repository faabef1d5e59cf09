/**
 * Purchases whose mail is read: the whole journey (two products, one twice) through the success screen and
 * My Orders to the confirmation and the shop's notification received over SMTP; a double click on Pay; a
 * purchase in Polish, confirmed in Polish; one paid in złoty with BLIK, confirmed in złoty.
 *
 * The SMTP catcher listens on the e2e shop's SMTP port (tests/setup/ports.js) for this whole file, so the file's
 * tests run one after another, and the file is in playwright.config.ts's `mail` project, which runs the
 * journeys that bind that port one file at a time. Mail from other journeys may arrive here too: every check
 * picks its messages by recipient and order label.
 */
import type { Page } from '@playwright/test';
import { catalogue, productName, lineNameOf, zloty } from '../fixtures/catalogue';
import { type Locale, plainSpaces, price, t } from '../fixtures/i18n';
import { type MailCatcher, type ReceivedMail, startMailCatcher } from '../fixtures/smtp';
import {
  TEST_CARDS,
  card,
  customerWithCart,
  expectDone,
  expectOrderLines,
  expectStep,
  fillCard,
  orderCard,
  orderLabel,
  payButton,
  plainSpacesPattern,
  polishAddress,
  proceedToPayment,
  shownDate,
  totalOf,
} from './checkout-helpers';
import { newAccount, signUp } from './accounts';
import { expect, test } from './fixtures';
import { addToCart, cartLink, expectCartCount, productGrid, switchCurrency, waitForHydration } from './helpers';

const CONTACT_TO = 'shop@kopi.test';
const main = (page: Page) => page.getByRole('main');

test.describe.configure({ mode: 'serial' });

let mail: MailCatcher;
test.beforeAll(async () => {
  mail = await startMailCatcher();
});
test.afterAll(async () => {
  await mail?.close();
});

const mailTo = (address: string) => mail.messages.filter((m) => m.envelope.to.includes(address));
const shopMailFor = (orderId: string) => mailTo(CONTACT_TO).filter((m) => m.subject.includes(orderLabel(orderId)));

/** Waits for the customer's confirmation and the shop's notification of the order (queued together). */
async function orderMails(customer: string, orderId: string): Promise<{ confirmation: ReceivedMail; notification: ReceivedMail }> {
  await expect.poll(() => mailTo(customer).length, { message: `the confirmation to ${customer}`, timeout: 15_000 }).toBeGreaterThan(0);
  await expect.poll(() => shopMailFor(orderId).length, { message: `the shop's notification of ${orderId}`, timeout: 15_000 }).toBeGreaterThan(0);
  return { confirmation: mailTo(customer)[0], notification: shopMailFor(orderId)[0] };
}

function expectConfirmation(received: ReceivedMail, orderId: string, totalCents: number, locale: Locale) {
  const tr = t(locale);
  const label = orderLabel(orderId);
  expect(received.envelope.from).toBe('hello@kopi.test');
  expect(received.subject).toBe(tr('orders.mail.subject', { label }));
  const text = plainSpaces(received.text);
  expect(text).toContain(tr('orders.mail.order', { label }));
  expect(text).toContain(plainSpaces(tr('orders.mail.total', { total: price(totalCents, locale) })));
  expect(text).toContain(tr('orders.mail.greeting', { name: polishAddress.fullName }));
  expect(text).toContain(polishAddress.address);
  expect(text).toContain(`${polishAddress.zipCode} ${polishAddress.city}`);
  expect(received.html).toContain(`lang="${locale}"`);
}

test('two products, one twice: review, pay, the success screen, My Orders, and both mails over SMTP', async ({ page }, testInfo) => {
  const [twice, once] = [catalogue[0], catalogue[1]];
  const lines = [
    { product: twice, quantity: 2 },
    { product: once, quantity: 1 },
  ];
  const total = totalOf(lines);
  const account = newAccount(testInfo, 'ola.purchase', 'Ola Kowalska');
  await signUp(page, account);

  await page.goto('/');
  await waitForHydration(page);
  await addToCart(productGrid(page), productName(twice, 'en'));
  await addToCart(productGrid(page), productName(once, 'en'));
  await expectCartCount(page, 2);
  await cartLink(page).click();
  await expect(page).toHaveURL(/\/cart$/);
  await waitForHydration(page);
  const twiceLine = page.getByTestId('cart-line').filter({ has: page.getByRole('heading', { name: productName(twice, 'en'), exact: true }) });
  await twiceLine.getByRole('button', { name: t('en')('cart.increase', { name: lineNameOf(twice, 'en') }) }).click();
  await expectCartCount(page, 3);
  await main(page).getByRole('link', { name: t('en')('cart.checkout') }).click();

  await expect(page).toHaveURL(/\/checkout$/);
  await expectStep(page, 'review');
  await expectOrderLines(main(page), lines);
  await waitForHydration(page);
  // By courier, free: the goods pass the free-delivery threshold (50 €).
  expect(total).toBeGreaterThanOrEqual(5000);
  await proceedToPayment(page, polishAddress, 'en', { method: 'courier' });
  await expectOrderLines(main(page).getByRole('complementary'), lines);
  await fillCard(page, card(TEST_CARDS.success));
  await payButton(page, total).click();

  // The success screen.
  const orderId = await expectDone(page);
  const label = orderLabel(orderId);
  await expect(main(page).getByRole('heading', { name: t('en')('checkout.done.heading'), level: 2 })).toBeVisible();
  await expect(page.getByTestId('order-id')).toHaveText(t('en')('checkout.done.orderId', { label }));
  await expect(main(page), 'the label, never the database id').not.toContainText(orderId);
  await expect(main(page).getByTestId('checkout-total')).toHaveText(price(total, 'en'));
  await expect(main(page).getByRole('link', { name: t('en')('checkout.continueShopping'), exact: true })).toHaveAttribute('href', '/');
  await expectCartCount(page, 0);

  // My Orders.
  await main(page).getByRole('link', { name: t('en')('checkout.viewInProfile'), exact: true }).click();
  await expect(page).toHaveURL(/\/profile\?tab=orders$/);
  const order = orderCard(page, orderId);
  await expect(order).toBeVisible();
  await expect(main(page).getByTestId('order')).toHaveCount(1);
  await expect(order.getByTestId('order-status')).toHaveText(t('en')('orders.status.processing'));
  await expect(order.getByText(t('en')('orders.paymentSuccessful'), { exact: true })).toBeVisible();
  await expectOrderLines(order, lines);
  await expect(order).toContainText(
    `${t('en')('orders.shipTo')} ${polishAddress.fullName}, ${polishAddress.address}, ${polishAddress.zipCode} ${polishAddress.city}`,
  );

  // The mail: the customer's confirmation and the shop's notification.
  const { confirmation, notification } = await orderMails(account.email, orderId);
  expect(confirmation.envelope.to).toEqual([account.email]);
  expectConfirmation(confirmation, orderId, total, 'en');
  for (const { product, quantity } of lines) {
    expect(plainSpaces(confirmation.text)).toContain(
      plainSpaces(t('en')('orders.mail.line', { quantity: String(quantity), title: lineNameOf(product, 'en'), price: price(product.priceCents * quantity, 'en') })),
    );
  }
  expect(confirmation.text).toContain(`${new URL(page.url()).origin}/profile?tab=orders`);
  expect(confirmation.text).toContain(`${t('en')('delivery.deliveryVia', { method: t('en')('delivery.kinds.courier') })} — ${t('en')('delivery.free')}`);

  expect(notification.envelope.to).toEqual([CONTACT_TO]);
  expect(notification.subject).toBe(`[Kopi order] ${label} — ${price(total, 'en')}`);
  expect(notification.replyTo).toContain(account.email);
  expect(notification.text).toContain(`Order: ${label} (${orderId})`);
  expect(notification.text).toContain(`Customer: ${account.email}`);
  expect(notification.text).toContain('Language: en');
  expect(notification.text).toContain(`2 × ${productName(twice, 'en')}`);

  // The order's date, in the shop's time zone.
  await expect(order).toContainText(t('en')('orders.placed', { date: shownDate(new Date().toISOString(), 'en') }));
});

test('a double click on Pay sends one payment: one paid order, one confirmation', async ({ page, productPath }, testInfo) => {
  const product = catalogue[2];
  const account = await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: 'ola.double' });
  await page.goto('/checkout');
  await waitForHydration(page);
  await proceedToPayment(page, polishAddress);
  await fillCard(page, card(TEST_CARDS.success));

  const payments: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/checkout') && request.postData()?.includes('intent=pay')) {
      payments.push(request.url());
    }
  });
  await payButton(page, product.priceCents).dblclick();
  const orderId = await expectDone(page);
  expect(payments, 'payment requests sent').toHaveLength(1);

  await main(page).getByRole('link', { name: t('en')('checkout.viewInProfile'), exact: true }).click();
  await expect(main(page).getByTestId('order')).toHaveCount(1);
  await expect(orderCard(page, orderId).getByText(t('en')('orders.paymentSuccessful'), { exact: true })).toBeVisible();

  await orderMails(account.email, orderId);
  expect(mailTo(account.email), 'one confirmation').toHaveLength(1);
  expect(shopMailFor(orderId), 'one notification').toHaveLength(1);
});

test.describe('in Polish', () => {
  test.use({ language: 'pl' });

  test('a purchase in Polish: Polish success screen and My Orders, and the confirmation in Polish', async ({ page, productPath }, testInfo) => {
    const pl = t('pl');
    const product = catalogue[3];
    const lines = [{ product, quantity: 2 }];
    const goods = totalOf(lines);
    // By courier (4.99 € up to 1 kg): the goods are under the free-delivery threshold.
    expect(goods).toBeLessThan(5000);
    const total = goods + 499;
    const account = await customerWithCart(page, testInfo, [[productPath(product), 2]], { label: 'ola.polska' });
    await page.goto('/checkout');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('checkout.title'));
    await waitForHydration(page);
    await expectStep(page, 'review', 'pl');
    await expectOrderLines(main(page), lines, 'pl');
    await proceedToPayment(page, polishAddress, 'pl', { method: 'courier' });
    await fillCard(page, card(TEST_CARDS.success), 'pl');
    await payButton(page, total, 'pl').click();

    const orderId = await expectDone(page, 'pl');
    await expect(page.getByTestId('order-id')).toHaveText(pl('checkout.done.orderId', { label: orderLabel(orderId) }));
    await expect(page.getByTestId('checkout-total')).toHaveText(plainSpacesPattern(price(total, 'pl')));
    await expect(main(page).getByRole('link', { name: pl('checkout.continueShopping'), exact: true })).toBeVisible();
    await main(page).getByRole('link', { name: pl('checkout.viewInProfile'), exact: true }).click();

    const order = orderCard(page, orderId, 'pl');
    await expect(order.getByTestId('order-status')).toHaveText(pl('orders.status.processing'));
    await expect(order.getByText(pl('orders.paymentSuccessful'), { exact: true })).toBeVisible();
    await expectOrderLines(order, lines, 'pl', 499);

    const { confirmation, notification } = await orderMails(account.email, orderId);
    expectConfirmation(confirmation, orderId, total, 'pl');
    expect(plainSpaces(confirmation.text)).toContain(
      plainSpaces(pl('orders.mail.line', { quantity: '2', title: lineNameOf(product, 'pl'), price: price(goods, 'pl') })),
    );
    expect(plainSpaces(confirmation.text)).toContain(plainSpaces(`${pl('delivery.deliveryVia', { method: pl('delivery.kinds.courier') })} — ${price(499, 'pl')}`));
    expect(notification.text, 'the shop reads English, and learns the customer’s language').toContain('Language: pl');
    expect(notification.subject).toBe(`[Kopi order] ${orderLabel(orderId)} — ${price(total, 'en')}`);
  });

  test('a purchase in złoty paid with BLIK: waiting for the bank, the success screen, My Orders and both mails in złoty', async ({ page, productPath }, testInfo) => {
    const pl = t('pl');
    const product = catalogue[4];
    const goods = zloty(product.priceCents);
    // By courier: 4.99 € is 20.99 zł (proposed at the starting rate), and the goods are under the 200 zł threshold
    // (50 € at the starting rate, rounded as a Polish shop writes it).
    const delivery = zloty(499);
    expect(goods).toBeLessThan(20_000);
    const total = goods + delivery;
    const account = await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: 'ola.zlote' });
    await page.goto('/cart');
    await waitForHydration(page);
    await switchCurrency(page, 'PLN');
    await page.goto('/checkout');
    await expectStep(page, 'review', 'pl');
    await expect(main(page).getByTestId('checkout-total')).toHaveText(plainSpacesPattern(price(goods, 'pl', 'PLN')));
    await proceedToPayment(page, polishAddress, 'pl', { method: 'courier' });
    await main(page).getByRole('radio', { name: pl('checkout.methods.blik'), exact: true }).check();
    await main(page).getByLabel(pl('checkout.blik.code')).fill('777123');
    await main(page).getByRole('button', { name: plainSpacesPattern(pl('checkout.blik.pay', { amount: price(total, 'pl', 'PLN') })) }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('checkout.waiting.heading'));

    const orderId = await expectDone(page, 'pl');
    await expect(page.getByTestId('checkout-total')).toHaveText(plainSpacesPattern(price(total, 'pl', 'PLN')));
    await main(page).getByRole('link', { name: pl('checkout.viewInProfile'), exact: true }).click();
    await expect(orderCard(page, orderId, 'pl').getByTestId('checkout-total')).toHaveText(plainSpacesPattern(price(total, 'pl', 'PLN')));

    const { confirmation, notification } = await orderMails(account.email, orderId);
    const text = plainSpaces(confirmation.text);
    expect(text).toContain(plainSpaces(pl('orders.mail.total', { total: price(total, 'pl', 'PLN') })));
    expect(text).toContain(plainSpaces(pl('orders.mail.line', { quantity: '1', title: lineNameOf(product, 'pl'), price: price(goods, 'pl', 'PLN') })));
    expect(text).toContain(plainSpaces(`${pl('delivery.deliveryVia', { method: pl('delivery.kinds.courier') })} — ${price(delivery, 'pl', 'PLN')}`));
    expect(text).not.toContain('€');
    expect(plainSpaces(notification.subject)).toBe(`[Kopi order] ${orderLabel(orderId)} — ${price(total, 'en', 'PLN')}`);
  });
});
