/**
 * Stock in the browser, as a shopper and the owner meet it, in English and in Polish: the demo's sold-out coffee
 * shows as sold out and the
 * server refuses to add it; a shopper asks to be told when it is back (the confirmation arrives over SMTP); the
 * owner finds the coffee's stock page from the product list, adds a roast batch, and the waiting shopper's mail
 * arrives; the product page then says In stock with the batch's roast day and sells it. The owner's corrections
 * and bad input, the activity log, the dashboard's low-stock list, and axe on the stock page and the notify-me
 * stop page in both languages. The packs going while a shopper checks out: the delivery step refuses, and a payment
 * the stock no longer serves is refunded with an apology (axe on both, both languages).
 *
 * In the back-office project (it changes the demo's stock after the storefront journeys ran) and it binds the
 * SMTP catcher's port, so its tests run one after another.
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { askedCents, byKey, productName } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { type MailCatcher, startMailCatcher } from '../fixtures/smtp';
import { kopi, newAccount, signUp } from './accounts';
import { TEST_CARDS, card, continueToDelivery, customerWithCart, deliveryMethod, expectStep, fillAddress, fillCard, orderLabel, payAndFinish, payButton, polishAddress, proceedButton, proceedToPayment } from './checkout-helpers';
import { signedCookie } from './cookies';
import { declineCookies, expect, failedLoad, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { addToCart, addToCartButton, expectCartCount, waitForHydration } from './helpers';

const en = t('en');
const MOLLO = byKey('mollo-timor-ground-aeropress');
const LOW = byKey('lintong-ese-pods');

test.describe.configure({ mode: 'serial' });

let mail: MailCatcher;
test.beforeAll(async () => {
  mail = await startMailCatcher();
});
test.afterAll(async () => {
  await mail?.close();
});

async function ownerPage(browser: Browser, testInfo: TestInfo, language: Locale = 'en'): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, locale: language === 'pl' ? 'pl-PL' : 'en-GB', timezoneId: 'Europe/Warsaw' });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

/** The owner's way to a coffee's stock page: the product list, searched, and its Stock column. */
async function openStockPage(page: Page, name: string): Promise<string> {
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  const row = page.getByTestId('admin-product-row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await row.getByTestId('stock-link').click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await waitForHydration(page);
  return new URL(page.url()).pathname;
}

/** A shop day as the date input takes it, `days` from today in Warsaw. */
function shopDay(days: number): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000));
  return day;
}
const longDate = (day: string, locale: Locale) => {
  const [y, m, d] = day.split('-').map(Number);
  const months = locale === 'pl'
    ? ['stycznia', 'lutego', 'marca', 'kwietnia', 'maja', 'czerwca', 'lipca', 'sierpnia', 'września', 'października', 'listopada', 'grudnia']
    : ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  return `${d} ${months[m - 1]} ${y}`;
};

for (const language of ['en', 'pl'] as const) {
test(`a sold-out coffee is refused, and the shopper who asked hears when the owner adds a batch (${language})`, async ({ page, browser, productPath }, testInfo) => {
  test.setTimeout(90_000);
  const tr = t(language);
  const at = (target: string) => (language === 'pl' ? `/pl${target}` : target);
  const name = productName(MOLLO, language);
  const kg = (text: string) => (language === 'pl' ? text.replace('.', ',') : text);
  if (language === 'pl') await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: testInfo.project.use.baseURL! }]);
  const owner = await ownerPage(browser, testInfo, language);
  const stockPath = await openStockPage(owner, name);

  // Sold out, also when this test runs again: every batch with coffee left is corrected to nothing.
  for (;;) {
    const full = owner.locator('[data-testid="stock-batch"]:not([data-grams-left="0"])');
    const left = await full.count();
    if (left === 0) break;
    const batch = full.first();
    await batch.getByText(tr('admin.stock.correct'), { exact: true }).click();
    await batch.getByLabel(tr('admin.stock.kilogramsLeft')).fill('0');
    await batch.getByRole('button', { name: tr('admin.stock.saveCorrection') }).click();
    await expect(owner.getByTestId('stock-saved')).toHaveText(tr('admin.stock.saved.correct-batch'));
    // The list is read again after the save: count once it has been.
    await expect(full).toHaveCount(left - 1);
  }
  await expect(owner.getByTestId('stock-variant').first()).toContainText(tr('product.soldOut'));

  // The shopper: sold out on the page, and the server refuses an add all the same.
  const path = productPath(MOLLO);
  await page.goto(at(path));
  await waitForHydration(page);
  await expect(page.getByTestId('availability')).toHaveText(tr('product.soldOut'));
  await expect(addToCartButton(page, name, language)).toHaveCount(0);
  const refused = await page.request.post(at('/cart'), { form: { intent: 'add', productId: path.split('/').pop()!, quantity: '1' }, maxRedirects: 0 });
  expect(refused.status()).toBe(409);
  expect(await refused.text()).toContain(tr('product.addSoldOut'));

  // "Notify me": an address and consent; the confirmation arrives with a link to stop it.
  const email = `waiting-${testInfo.testId.slice(-6)}-${testInfo.retry}-${Date.now().toString(36)}@example.com`;
  await page.getByLabel(tr('product.notify.email')).fill(email);
  await page.getByLabel(tr('product.notify.consent')).check();
  await page.getByRole('button', { name: tr('product.notify.submit') }).click();
  await expect(page.getByRole('status').filter({ hasText: email })).toBeVisible();
  const confirmation = await mail.waitFor((m) => m.envelope.to.includes(email), 15_000);
  expect(confirmation.subject).toContain(name);
  expect(confirmation.text).toMatch(/\/back-in-stock\?token=[\w-]+/);

  // The owner roasts again: 4.5 kg yesterday.
  const yesterday = shopDay(-1);
  await owner.goto(stockPath);
  await waitForHydration(owner);
  await owner.getByLabel(tr('admin.stock.roastedOnLabel')).fill(yesterday);
  await owner.getByLabel(tr('admin.stock.kilograms')).fill('4,5');
  await owner.getByRole('button', { name: tr('admin.stock.addBatchButton') }).click();
  await expect(owner.getByTestId('stock-saved')).toContainText(tr('admin.stock.saved.batch'));
  // Everyone waiting is told: this shopper, and on a first run those the a11y journeys left waiting (their notify-me states).
  const saved = (await owner.getByTestId('stock-saved').textContent()) ?? '';
  expect(Array.from({ length: 20 }, (_, i) => tr('admin.stock.notified', { count: i + 1 })).some((told) => saved.includes(told)), saved).toBe(true);
  await expect(owner.getByTestId('stock-grams')).toContainText(kg('4.5 kg'));
  await expect(owner.getByTestId('stock-roasted-on')).toContainText(longDate(yesterday, language));
  await expect(owner.getByTestId('ledger-row').first()).toContainText(tr('admin.stock.kinds.roasted'));

  // The waiting shopper hears, once, with the way to the coffee.
  const back = await mail.waitFor((m) => m.envelope.to.includes(email) && m.subject === tr('product.notify.mail.backSubject', { name: confirmation.subject.match(language === 'pl' ? /gdy (.+) wróci do sprzedaży/ : /when (.+) is back/)?.[1] ?? '' }), 15_000);
  expect(back.text).toContain(path);

  // The page (cookie-less, from the shared cache, which the change emptied) sells it, with the roast day.
  const guest = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const fresh = await guest.newPage();
  await fresh.goto(at(path));
  await expect(fresh.getByTestId('availability')).toHaveText(tr('product.stock.inStock'));
  await expect(fresh.getByTestId('roasted-on')).toHaveText(tr('product.stock.roastedOn', { date: longDate(yesterday, language) }));
  await guest.close();
  await page.reload();
  await waitForHydration(page);
  await addToCart(page.getByRole('main'), name, language);
  await expectCartCount(page, 1, language);

  // The activity log says what the owner did (it names the coffee as it was logged: its English name).
  await owner.goto('/admin/activity');
  const entry = owner.getByTestId('activity-row').filter({ hasText: tr('admin.activity.actions.stockBatch', { subject: MOLLO.en.name }) }).first();
  await expect(entry).toContainText(tr('admin.activity.batch', { date: longDate(yesterday, language), weight: kg('4.5 kg') }));
  await owner.context().close();
});
}

test('the owner’s bad input is refused with a message and changes nothing; corrections keep a reason', async ({ browser }, testInfo) => {
  const owner = await ownerPage(browser, testInfo);
  const stockPath = await openStockPage(owner, MOLLO.en.name);
  const before = await owner.getByTestId('stock-grams').textContent();
  const origin = new URL(testInfo.project.use.baseURL!).origin;
  const post = (form: Record<string, string>) => owner.request.post(stockPath, { form, headers: { Origin: origin }, maxRedirects: 0 });

  for (const [form, message] of [
    [{ intent: 'batch', roastedOn: shopDay(0), kilograms: '-2' }, en('admin.stock.errors.kilograms')],
    [{ intent: 'batch', roastedOn: shopDay(0), kilograms: '5000' }, en('admin.stock.errors.kilograms')],
    [{ intent: 'batch', roastedOn: shopDay(3), kilograms: '2' }, en('admin.stock.errors.roastedInFuture')],
    [{ intent: 'batch', roastedOn: '2026-02-30', kilograms: '2' }, en('admin.stock.errors.roastedOn')],
    [{ intent: 'correct-batch', batchId: 'NoSuchBatch0000000000', kilogramsLeft: '1', reason: 'count' }, en('admin.stock.errors.notFound')],
    [{ intent: 'mode', mode: 'plenty' }, en('admin.stock.errors.mode')],
  ] as const) {
    const response = await post(form);
    expect(response.status(), JSON.stringify(form)).toBe(400);
    expect(await response.text()).toContain(message);
  }
  await owner.reload();
  await expect(owner.getByTestId('stock-grams')).toHaveText(before!);

  // With the browser: the form's own checks stop a negative weight before it is sent.
  await owner.getByLabel(en('admin.stock.kilograms')).fill('-2');
  await owner.getByRole('button', { name: en('admin.stock.addBatchButton') }).click();
  expect(await owner.getByLabel(en('admin.stock.kilograms')).evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);

  // A damaged bag: 0.25 kg less, with the reason in the ledger.
  const batch = owner.getByTestId('stock-batch').first();
  await batch.getByText(en('admin.stock.correct'), { exact: true }).click();
  const left = batch.getByLabel(en('admin.stock.kilogramsLeft'));
  const now = Number((await left.inputValue()).replace(',', '.'));
  await left.fill(String(Math.round((now - 0.25) * 1000) / 1000));
  await batch.getByLabel(en('admin.stock.reason')).selectOption('damaged');
  await batch.getByLabel(en('admin.stock.noteOptional')).fill('Torn bag');
  await batch.getByRole('button', { name: en('admin.stock.saveCorrection') }).click();
  await expect(owner.getByTestId('stock-saved')).toHaveText(en('admin.stock.saved.correct-batch'));
  const row = owner.getByTestId('ledger-row').first();
  await expect(row).toContainText(`${en('admin.stock.kinds.corrected')} (${en('admin.stock.reasons.damaged')})`);
  await expect(row).toContainText('Torn bag');
  await expect(row).toContainText('-0.25 kg');

  // Everyone else is refused, page and action.
  const stranger = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const response = await stranger.request.post(stockPath, { form: { intent: 'batch', roastedOn: shopDay(0), kilograms: '2' }, headers: { Origin: origin }, maxRedirects: 0 });
  expect(response.status()).toBeGreaterThanOrEqual(300);
  expect(response.status()).toBeLessThan(500);
  await stranger.close();
  await owner.reload();
  await expect(owner.getByTestId('ledger-row').first()).toContainText('Torn bag');
  await owner.context().close();
});

test('the dashboard lists what runs low, and counted packs are corrected by count', async ({ browser }, testInfo) => {
  const owner = await ownerPage(browser, testInfo);
  await owner.goto('/admin');
  const low = owner.getByTestId('low-stock-row').filter({ hasText: LOW.en.name });
  await expect(low.first()).toBeVisible();
  await low.first().getByRole('link', { name: LOW.en.name }).click();
  await expect(owner.getByRole('heading', { level: 1, name: LOW.en.name })).toBeVisible();
  await waitForHydration(owner);
  const pack = owner.getByTestId('stock-count').first();
  await pack.getByText(en('admin.stock.correct'), { exact: true }).click();
  await pack.getByLabel(en('admin.stock.unitsCounted')).fill('40');
  await pack.getByRole('button', { name: en('admin.stock.saveCorrection') }).click();
  await expect(owner.getByTestId('stock-saved')).toHaveText(en('admin.stock.saved.correct-units'));
  await expect(owner.getByTestId('stock-count').first()).toContainText(en('admin.stock.counted', { count: 40 }));
  await owner.context().close();
});

test('cancelling a paid order asks whether its packs go back to stock (ticked before shipping), and they do', async ({ page, browser, productPath }, testInfo) => {
  test.setTimeout(90_000);
  const owner = await ownerPage(browser, testInfo);
  await openStockPage(owner, LOW.en.name);
  // Packs on the shelf over the coffee's variants (which one the default is does not matter here).
  const counted = async () =>
    (await owner.getByTestId('stock-count').allTextContents()).reduce((sum, text) => sum + Number(text.match(/(\d+) on the shelf/)?.[1] ?? 0), 0);
  const before = await counted();

  const cents = askedCents(LOW, LOW.priceCents) * 2;
  await customerWithCart(page, testInfo, [[productPath(LOW), 2]], { label: 'ola.cancel-restock' });
  await page.goto('/checkout');
  await proceedToPayment(page, polishAddress);
  const orderId = await payAndFinish(page, cents, card(TEST_CARDS.success));
  await owner.reload();
  await expect.poll(counted).toBe(before - 2);

  await owner.goto(`/admin/orders/${orderId}`);
  await waitForHydration(owner);
  const panel = owner.getByTestId('order-cancel');
  await panel.getByText(en('admin.orders.cancel')).click();
  await expect(panel.getByLabel(en('admin.orders.backToStock'))).toBeChecked();
  await panel.getByRole('button', { name: en('admin.orders.confirmCancel', { amount: price(cents, 'en') }) }).click();
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.cancelled'));

  await openStockPage(owner, LOW.en.name);
  await expect.poll(counted).toBe(before);
  await expect(owner.getByTestId('ledger-row').first()).toContainText(en('admin.stock.kinds.returned'));
  // The ledger names the order as every other page does, and leads to it.
  const label = en('orders.label', { label: orderLabel(orderId) });
  await expect(owner.getByTestId('ledger-row').first().getByRole('link', { name: label, exact: true })).toHaveAttribute('href', `/admin/orders/${orderId}`);
  await owner.context().close();
});

for (const language of ['en', 'pl'] as const) {
  test(`axe: the stock page and the notify-me stop page (${language})`, async ({ browser, expectNoSeriousA11yViolations }, testInfo) => {
    const owner = await ownerPage(browser, testInfo, language);
    await openStockPage(owner, productName(MOLLO, language));
    await expect(owner.getByText(t(language)('admin.stock.eyebrow'), { exact: true })).toBeVisible();
    await owner.getByTestId('stock-batch').first().getByText(t(language)('admin.stock.correct'), { exact: true }).click();
    await expectNoSeriousA11yViolations(owner, { label: `stock page (${language})` });
    // A refused form: its messages and invalid fields.
    await owner.getByLabel(t(language)('admin.stock.sellWithinDays')).evaluate((input: HTMLInputElement) => input.removeAttribute('max'));
    await owner.getByLabel(t(language)('admin.stock.sellWithinDays')).fill('999');
    await owner.getByRole('button', { name: t(language)('admin.stock.saveMode'), exact: true }).click();
    await expect(owner.getByText(t(language)('admin.stock.errors.sellWithinDays'))).toBeVisible();
    await expectNoSeriousA11yViolations(owner, { label: `stock page with an error (${language})` });

    const stop = mail.messages.map((m) => m.text.match(/\/back-in-stock\?token=[\w-]+/)?.[0]).find(Boolean);
    expect(stop, 'a notify-me confirmation from the first test').toBeTruthy();
    await owner.goto(language === 'pl' ? `/pl${stop}` : stop!);
    await expect(owner.locator('html')).toHaveAttribute('lang', language);
    await expectNoSeriousA11yViolations(owner, { label: `back-in-stock page (${language})` });
    await owner.context().close();
  });
}

/** Sets each pack's count on the owner's stock page (for a reason); returns the counts it had. */
async function setCounts(owner: Page, language: Locale, counts: readonly number[], reason: 'count' | 'damaged' = 'count'): Promise<number[]> {
  const tr = t(language);
  const before: number[] = [];
  for (const [i, units] of counts.entries()) {
    const pack = owner.getByTestId('stock-count').nth(i);
    const field = pack.getByLabel(tr('admin.stock.unitsCounted'));
    // The form opens under "Correct" and stays open after a save.
    if (!(await field.isVisible())) await pack.getByText(tr('admin.stock.correct'), { exact: true }).click();
    await expect(field).toBeVisible();
    before.push(Number(await field.inputValue()));
    await field.fill(String(units));
    await pack.getByLabel(tr('admin.stock.reason')).selectOption(reason);
    await pack.getByRole('button', { name: tr('admin.stock.saveCorrection') }).click();
    await expect(owner.getByTestId('stock-saved')).toHaveText(tr('admin.stock.saved.correct-units'));
    await expect(owner.getByTestId('stock-count').nth(i)).toContainText(tr('admin.stock.counted', { count: units }));
  }
  return before;
}

for (const [language, key] of [['en', 'wamena-drip-bags'], ['pl', 'mandheling-capsules']] as const) {
  test(`the coffee goes while the shopper checks out: the delivery step says so; a card payment it could no longer serve is refunded with an apology; axe on both (${language})`, async ({ page, browser, productPath, consoleErrors, expectNoSeriousA11yViolations }, testInfo) => {
    test.setTimeout(120_000);
    consoleErrors.allow(failedLoad(409)); // the delivery step's refusal
    const tr = t(language);
    const product = byKey(key);
    const name = productName(product, language);
    const owner = await ownerPage(browser, testInfo, language);
    await openStockPage(owner, name);
    // The last pack of each size.
    const originals = await setCounts(owner, language, [1, 1]);

    if (language === 'pl') await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: testInfo.project.use.baseURL! }]);
    await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: `ola.sold-out-${language}` });
    await page.goto(language === 'pl' ? '/pl/checkout' : '/checkout');
    await continueToDelivery(page, language);

    // While the shopper fills in the address, the owner finds the packs damaged: proceeding is refused, the cart told.
    await setCounts(owner, language, [0, 0], 'damaged');
    await deliveryMethod(page, 'pickup', language).check();
    await fillAddress(page, polishAddress, language);
    await proceedButton(page, language).click();
    await expect(page.getByRole('main').getByText(tr('checkout.errors.outOfStock'))).toBeVisible();
    await expectStep(page, 'delivery', language);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expectNoSeriousA11yViolations(page, { label: `checkout delivery, sold out meanwhile (${language})` });

    // More packs are found; the shopper reaches Payment (the pack is held for them) — then the owner counts none
    // after all. The card is charged against the hold, the pack is not there: refunded in full, with an apology.
    await setCounts(owner, language, [1, 1]);
    await page.goto(language === 'pl' ? '/pl/checkout' : '/checkout');
    await proceedToPayment(page, polishAddress, language);
    await setCounts(owner, language, [0, 0], 'damaged');
    await fillCard(page, card(TEST_CARDS.success), language);
    await payButton(page, askedCents(product, product.priceCents), language).click();
    await expect(page).toHaveURL(/step=done&order=[\w-]+$/);
    const orderId = new URL(page.url()).searchParams.get('order')!;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('checkout.done.stockShortHeading'));
    await expect(page.getByTestId('order-stock-short')).toHaveText(tr('checkout.done.stockShortText'));
    await waitForHydration(page);
    await expectNoSeriousA11yViolations(page, { label: `success page, sold out while paying (${language})` });
    const apology = await mail.waitFor((m) => m.subject === tr('orders.stockShortMail.subject', { label: orderLabel(orderId) }), 15_000);
    expect(apology.text).toContain(tr('orders.stockShortMail.intro'));

    // The owner's order page says why; the shelf is put back as it was.
    await owner.goto(`/admin/orders/${orderId}`);
    await expect(owner.getByTestId('admin-order-status')).toHaveText(tr('orders.status.cancelled'));
    await expect(owner.getByRole('main')).toContainText(tr('admin.orders.stockShort'));
    await openStockPage(owner, name);
    await setCounts(owner, language, originals);
    await owner.context().close();
  });
}
