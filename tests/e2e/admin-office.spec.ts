/**
 * The rest of the owner's day: the messages inbox (the unread count in the back office's navigation, reply
 * by mail, mark handled, delete) and the dashboard after a purchase (exact differences in revenue, orders and
 * best sellers; the purchase in the funnel of a shopper who accepted analytics), its CSV export, and the same
 * figures once the order is cancelled and refunded (no longer counted; the refund is).
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { catalogue, defaultVariant } from '../fixtures/catalogue';
import { price, t } from '../fixtures/i18n';
import { kopi, newAccount, signUp } from './accounts';
import { TEST_CARDS, card, customerWithCart, orderLabel, payAndFinish, polishAddress, proceedToPayment } from './checkout-helpers';
import { expect, test } from './fixtures';
import { addToCart, findProductPath, waitForHydration } from './helpers';

const en = t('en');

async function ownerPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': `10.9.0.${testInfo.retry + 1}` } });
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.office', 'Owner');
  await signUp(page, account);
  await kopi('grant-admin', '--email', account.email);
  return page;
}

const unreadBadge = (page: Page) => page.getByRole('navigation', { name: en('manage.backOffice') }).getByTestId('unread-count');
const unreadCount = async (page: Page) => ((await unreadBadge(page).count()) === 0 ? 0 : Number(await unreadBadge(page).locator('[aria-hidden="true"]').textContent()));

test('the inbox: a visitor’s message is unread in the navigation, answered by mail, handled, then deleted', async ({ page, browser }, testInfo) => {
  const owner = await ownerPage(browser, testInfo);
  await owner.goto('/admin/messages');
  const before = await unreadCount(owner);

  const stamp = `${Date.now()}`;
  await page.goto('/contact');
  await waitForHydration(page);
  const form = page.getByRole('main');
  await form.getByLabel(en('contact.form.name'), { exact: true }).fill('Zofia Kamińska');
  await form.getByLabel(en('contact.form.email'), { exact: true }).fill(`zofia.${stamp}@example.pl`);
  await form.getByLabel(en('contact.form.subject'), { exact: true }).fill(`Shipping to Prague? ${stamp}`);
  await form.getByLabel(en('contact.form.message'), { exact: true }).fill('Hello,\ndo you ship to the Czech Republic?');
  await page.getByRole('button', { name: en('contact.form.send') }).click();
  await expect(page.getByRole('status').filter({ hasText: en('contact.success') })).toBeVisible();

  await owner.reload();
  expect(await unreadCount(owner)).toBe(before + 1);
  await expect(unreadBadge(owner)).toContainText(en('admin.nav.unread', { count: before + 1 }));
  const message = owner.getByTestId('message').filter({ hasText: stamp });
  await expect(message.getByRole('heading')).toHaveText(`Shipping to Prague? ${stamp}`);
  await expect(message).toContainText('do you ship to the Czech Republic?');
  await expect(message.getByRole('link', { name: en('admin.messages.reply') })).toHaveAttribute(
    'href',
    `mailto:zofia.${stamp}@example.pl?subject=${encodeURIComponent(`Re: Shipping to Prague? ${stamp}`)}`,
  );

  await message.getByRole('button', { name: en('admin.messages.markHandled') }).click();
  await expect(owner.getByRole('status')).toHaveText(en('admin.messages.done.handled'));
  await expect(owner.getByTestId('message').filter({ hasText: stamp }), 'handled messages leave the unread list').toHaveCount(0);
  expect(await unreadCount(owner)).toBe(before);

  await owner.getByRole('link', { name: en('admin.messages.all') }).click();
  const handled = owner.getByTestId('message').filter({ hasText: stamp });
  await expect(handled).toContainText(en('admin.messages.handled'));
  await handled.getByText(en('admin.messages.delete'), { exact: true }).click();
  await handled.getByRole('button', { name: en('admin.messages.confirmDelete') }).click();
  await expect(owner.getByRole('status')).toHaveText(en('admin.messages.done.deleted'));
  await expect(owner.getByTestId('message').filter({ hasText: stamp })).toHaveCount(0);

  await owner.goto('/admin/activity');
  await expect(owner.getByRole('main')).toContainText(`Deleted the message “Shipping to Prague? ${stamp}”`);
  await owner.context().close();
});

test.describe('with analytics accepted', () => {
  test.use({ cookieConsent: 'accepted' });

  test('the dashboard after a purchase: revenue, orders and best sellers move by exactly that order; the CSV lists it; cancelled, it is not counted', async ({ page, browser }, testInfo) => {
    const owner = await ownerPage(browser, testInfo);
    const figure = async (key: string) => (await owner.getByTestId(`figure-${key}`).locator('dd').first().textContent())!.trim();
    await owner.goto('/admin?period=7d');
    // The first amount in a text ("of €152.69 paid · delivery €4.99" → 15269).
    const cents = (text: string) => Math.round(Number(/[\d,]+\.\d\d/.exec(text)![0].replace(/,/g, '')) * 100);
    const paidNote = owner.getByTestId('figure-revenue').locator('dd').nth(1);
    const before = { revenue: await figure('revenue'), orders: Number(await figure('orders')), bought: Number(await owner.getByTestId('funnel-purchased').textContent()) };
    const revenueBefore = cents(before.revenue);
    const refundsBefore = cents(await figure('refunds'));
    const paidBefore = cents((await paidNote.textContent())!);
    await expect(owner.getByTestId('figures-counted')).toHaveText(en('admin.dashboard.counted'));

    const product = catalogue[5];
    // Enough bags to top the best sellers whatever the other journeys sold this week (the list shows five).
    const topRow = owner.getByTestId('top-products').locator('tr').first();
    const topCents = (await topRow.count()) ? cents((await topRow.locator('td').last().textContent())!) : 0;
    const bags = Math.max(3, Math.floor(topCents / product.priceCents) + 1);
    expect(bags, 'a line holds at most 99').toBeLessThanOrEqual(99);
    const path = await findProductPath(page, product.en.name);
    // The whole funnel as a shopper walks it: a product page, Add to cart, the cart's checkout button, paying.
    await customerWithCart(page, testInfo, [[path, bags - 1]]);
    await page.goto(path);
    await waitForHydration(page);
    await addToCart(page.getByRole('main'), product.en.name);
    await page.goto('/cart');
    await waitForHydration(page);
    await page.getByRole('main').getByRole('link', { name: en('cart.checkout') }).click();
    await waitForHydration(page);
    await proceedToPayment(page, polishAddress);
    const orderId = await payAndFinish(page, bags * product.priceCents, card(TEST_CARDS.success));

    await owner.reload();
    expect(Number(await figure('orders'))).toBe(before.orders + 1);
    await expect(owner.getByTestId('figure-revenue').locator('dd').first()).toHaveText(price(revenueBefore + bags * product.priceCents, 'en'));
    await expect(topRow.locator('th')).toContainText(product.en.name);
    await expect(owner.getByTestId('revenue-chart')).toBeVisible();
    expect(Number(await owner.getByTestId('funnel-purchased').textContent())).toBe(before.bought + 1);

    // The accountant's CSV for today has the order's line.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());
    const download = owner.waitForEvent('download');
    await owner.getByLabel(en('admin.dashboard.from'), { exact: true }).fill(today);
    await owner.getByRole('button', { name: en('admin.dashboard.download') }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`kopi-orders-${today}-${today}.csv`);
    const csv = (await (await file.createReadStream()).toArray()).join('');
    expect(csv.split('\r\n')[0]).toBe('\uFEFFOrder,Date,Customer,Email,Product,Variant,SKU,Quantity,Unit price,Discount,Net,VAT rate (%),VAT,Gross,Currency,Code,Status');
    // A label that starts with "-" is written defused ("'-X7K2Q"), like any cell a spreadsheet would run.
    const line = csv.split('\r\n').find((row) => row.startsWith(`${orderLabel(orderId)},`) || row.startsWith(`'${orderLabel(orderId)},`));
    expect(line).toContain(`,${polishAddress.fullName},`);
    // The variant bought, and its SKU (the card adds the cheapest).
    expect(line).toContain(`,${defaultVariant(product).sku},`);
    // No code: no discount; the line's gross is unit × quantity, split into net and Polish VAT at 23%.
    const gross = bags * product.priceCents;
    const vat = Math.round((gross * 23) / 123);
    const euros = (cents: number) => (cents / 100).toFixed(2);
    expect(line).toMatch(new RegExp(`,${bags},${euros(product.priceCents)},0.00,${euros(gross - vat)},23,${euros(vat)},${euros(gross)},EUR,,Processing$`));

    // Cancelled and refunded, the order is paid but not kept: revenue and orders are back where they were,
    // and the refund is counted as one.
    const total = bags * product.priceCents;
    await owner.goto(`/admin/orders/${orderId}`);
    await owner.getByText(en('admin.orders.cancel')).click();
    await owner.getByRole('button', { name: en('admin.orders.confirmCancel', { amount: price(total, 'en') }) }).click();
    await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.cancelled'));
    await owner.goto('/admin?period=7d');
    expect(Number(await figure('orders'))).toBe(before.orders);
    await expect(owner.getByTestId('figure-revenue').locator('dd').first()).toHaveText(price(revenueBefore, 'en'));
    await expect(paidNote).toContainText(en('admin.dashboard.paid', { amount: price(paidBefore + total, 'en') }));
    await expect(owner.getByTestId('figure-refunds').locator('dd').first()).toHaveText(price(refundsBefore + total, 'en'));
    await owner.context().close();
  });
});
