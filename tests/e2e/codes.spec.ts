/**
 * Discount codes as shoppers use them (docs/decisions/0026): the demo's KAWA10 in the cart in both languages —
 * a code that does not exist refused with its message, the right one in any case with spaces taking 10% off, the
 * cart passing axe with it, and taken out again; refused on coffee already on sale; and an order with it through
 * to payment, the discount on the confirmation and in My Orders, and a withdrawal of one of its two lines that
 * the owner refunds at what that line really cost.
 */
import type { Page } from '@playwright/test';
import { byKey, catalogue, defaultVariant, productName } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { DEMO_CODE, DEMO_CODE_PERCENT, DEMO_SALE } from '../../app/demo/sale';
import { spread } from '../../app/modules/promotions/codes';
import { localePath } from '../../app/modules/i18n/paths';
import { kopi, newAccount, signUp } from './accounts';
import { TEST_CARDS, card, customerWithCart, orderLabel, payAndFinish, plainSpacesPattern, polishAddress, proceedToPayment } from './checkout-helpers';
import { expect, failedLoad, test } from './fixtures';
import { addToCartByRequest, findProductPath, waitForHydration } from './helpers';

const codeField = (page: Page, locale: Locale) => page.getByLabel(t(locale)('cart.code.label'), { exact: true });

async function enter(page: Page, typed: string, locale: Locale) {
  await codeField(page, locale).fill(typed);
  await page.getByTestId('apply-code').click();
}

for (const locale of ['en', 'pl'] as const) {
  test(`a code in the cart: an unknown one refused with its message, KAWA10 takes 10% off, and comes out again (${locale})`, async ({ page, expectNoSeriousA11yViolations, consoleErrors }) => {
    // A refused code is answered 404 (unknown) or 409 (not for this cart): the browser logs it.
    consoleErrors.allow(failedLoad(404));
    const [first, second] = [catalogue[4], catalogue[5]];
    for (const [product, quantity] of [[first, 1], [second, 2]] as const) await addToCartByRequest(page, await findProductPath(page, product.en.name), quantity);
    const goods = defaultVariant(first).priceCents + 2 * defaultVariant(second).priceCents;
    const off = Math.round((goods * DEMO_CODE_PERCENT) / 100);
    await page.goto(localePath(locale, '/cart'));
    await waitForHydration(page);
    await expect(page.getByTestId('cart-total')).toHaveText(plainSpacesPattern(price(goods, locale)));

    await enter(page, 'SUMMER-99', locale);
    await expect(page.getByTestId('code-error')).toHaveText(t(locale)('cart.code.errors.unknown'));
    await expect(codeField(page, locale)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('cart-total')).toHaveText(plainSpacesPattern(price(goods, locale)));

    await enter(page, ` ${DEMO_CODE.toLowerCase()} `, locale);
    await expect(page.getByTestId('cart-discount')).toContainText(t(locale)('cart.code.discount', { code: DEMO_CODE }));
    await expect(page.getByTestId('cart-discount-amount')).toHaveText(plainSpacesPattern(`−${price(off, locale)}`));
    await expect(page.getByTestId('cart-total')).toHaveText(plainSpacesPattern(price(goods - off, locale)));
    await expectNoSeriousA11yViolations(page, { label: `cart with a code (${locale})` });
    // It stays with the cart.
    await page.reload();
    await expect(page.getByTestId('cart-total')).toHaveText(plainSpacesPattern(price(goods - off, locale)));

    await page.getByRole('button', { name: t(locale)('cart.code.removeLabel', { code: DEMO_CODE }) }).click();
    await expect(page.getByTestId('cart-discount')).toHaveCount(0);
    await expect(page.getByTestId('cart-total')).toHaveText(plainSpacesPattern(price(goods, locale)));
  });
}

test('KAWA10 is not for coffee already on sale: the cart says so', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedLoad(409));
  const onSale = byKey(DEMO_SALE);
  await addToCartByRequest(page, await findProductPath(page, onSale.en.name));
  await page.goto('/pl/cart');
  await waitForHydration(page);
  await enter(page, DEMO_CODE, 'pl');
  await expect(page.getByTestId('code-error')).toHaveText(t('pl')('cart.code.errors.onSale'));
  await expect(page.getByTestId('cart-discount')).toHaveCount(0);
});

for (const locale of ['en', 'pl'] as const) {
  test(`KAWA10 with coffee on sale beside other coffee: it takes 10% off the other and says which it leaves out (${locale})`, async ({ page }) => {
    const tr = t(locale);
    const onSale = byKey(DEMO_SALE);
    const other = catalogue.find((p) => p.key !== DEMO_SALE && p.category === 'wholeBean')!;
    await addToCartByRequest(page, await findProductPath(page, onSale.en.name));
    await addToCartByRequest(page, await findProductPath(page, other.en.name));
    await page.goto(locale === 'en' ? '/cart' : '/pl/cart');
    await waitForHydration(page);
    await enter(page, DEMO_CODE, locale);
    await expect(page.getByTestId('cart-discount')).toBeVisible();
    const note = page.getByTestId('code-left-on-sale');
    await expect(note).toContainText(tr('cart.code.leftOnSale', { code: DEMO_CODE, names: 'X' }).split('X')[0]!);
    await expect(note).toContainText(productName(onSale, locale));
    await expect(note).not.toContainText(productName(other, locale));
  });
}

test('an order with KAWA10: the discount on the confirmation and in My Orders; a withdrawn line is refunded at what it cost', async ({ page, browser }, testInfo) => {
  // Two journeys in one (the customer's, then the owner's, who signs up and is made an admin by the kopi command).
  test.setTimeout(120_000); // the customer's journey and the owner's: twice the default
  const [first, second] = [catalogue[6], catalogue[7]];
  const paths = [await findProductPath(page, first.en.name), await findProductPath(page, second.en.name)];
  await customerWithCart(page, testInfo, [[paths[0], 1], [paths[1], 1]], { label: 'ola.codes' });
  const lines = [defaultVariant(first).priceCents, defaultVariant(second).priceCents];
  const goods = lines[0] + lines[1];
  const off = Math.round((goods * DEMO_CODE_PERCENT) / 100);
  const shares = spread(off, lines);
  await page.goto('/cart');
  await waitForHydration(page);
  await enter(page, DEMO_CODE, 'en');
  await expect(page.getByTestId('cart-total')).toHaveText(price(goods - off, 'en'));

  await page.goto('/checkout');
  await waitForHydration(page);
  await expect(page.getByTestId('summary-discount')).toContainText(`−${price(off, 'en')}`);
  await proceedToPayment(page, polishAddress);
  const orderId = await payAndFinish(page, goods - off, card(TEST_CARDS.success));
  await expect(page.getByTestId('summary-discount')).toContainText(t('en')('cart.code.discount', { code: DEMO_CODE }));
  await expect(page.getByTestId('checkout-total')).toHaveText(price(goods - off, 'en'));
  await page.goto('/profile?tab=orders');
  const mine = page.getByRole('main').getByTestId('order').filter({ hasText: orderLabel(orderId) });
  await expect(mine.getByTestId('summary-discount')).toContainText(`−${price(off, 'en')}`);

  // Withdraw from the first line only: it cost its price less its share of the discount.
  await mine.getByRole('link', { name: t('en')('legal.withdraw') }).click();
  await page.getByRole('button', { name: t('en')('withdrawal.continue') }).click();
  await page.getByTestId('withdrawal-lines').getByRole('checkbox').nth(1).uncheck();
  await page.getByRole('button', { name: t('en')('withdrawal.review.confirm') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('en')('withdrawal.done.title'));

  const context = await browser.newContext();
  const owner = await context.newPage();
  const admin = newAccount(testInfo, 'owner.codes', 'Owner');
  await signUp(owner, admin);
  expect(await kopi('grant-admin', '--email', admin.email)).toContain('is now an admin');
  await owner.goto(`/admin/orders/${orderId}`);
  await expect(owner.getByTestId('order-discount-row')).toContainText(`−${price(off, 'en')}`);
  const refund = lines[0] - shares[0];
  await owner.getByTestId('order-withdrawals').getByRole('button', { name: t('en')('admin.orders.refundWithdrawal', { amount: price(refund, 'en') }) }).click();
  await expect(owner.getByRole('status')).toHaveText(t('en')('admin.orders.moved.withdrawalRefunded', { amount: price(refund, 'en') }));
  await context.close();
});
