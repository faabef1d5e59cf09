/**
 * Reviews from buyers (Omnibus): a Polish customer cannot review before delivery (the page says so and a
 * direct POST is refused), gets the link in the "delivered" mail, reviews in two clicks, and sees the figures
 * agree on the product page, its JSON-LD and the card; the English page marks the review as written in
 * Polish. The owner answers in public and hides it with a reason, which disappears everywhere while the
 * reason stays in the activity log; the author sees why. A customer who never bought it is refused too.
 *
 * Runs in the `orders` project (one file at a time, on its own shop): the SMTP catcher needs that shop's port.
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { byKey, demoRating } from '../fixtures/catalogue';
import { t } from '../fixtures/i18n';
import { type MailCatcher, startMailCatcher } from '../fixtures/smtp';
import { kopi, newAccount, signUp } from './accounts';
import { card, checkOutByRequest, customerWithCart, orderLabel } from './checkout-helpers';
import { expect, test } from './fixtures';
import { findProductPath, waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');

test.describe.configure({ mode: 'serial' });

let mail: MailCatcher;
test.beforeAll(async () => {
  mail = await startMailCatcher();
});
test.afterAll(async () => {
  await mail?.close();
});

async function ownerPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': `10.9.1.${testInfo.retry + 1}` } });
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.reviews', 'Owner');
  await signUp(page, account);
  await kopi('grant-admin', '--email', account.email);
  return page;
}

const jsonLd = async (page: Page) => JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}');
const postReview = (page: Page, productId: string, rating: string) =>
  page.request.post(`/pl/review?product=${productId}`, { form: { rating, body: 'Nie kupiłem, ale oceniam.' }, headers: { origin: new URL(page.url()).origin }, maxRedirects: 0 });

test('a buyer reviews a delivered coffee from the mail; the figures agree everywhere; the owner answers and hides it with a reason', async ({ page, browser, expectNoSeriousA11yViolations }, testInfo) => {
  test.setTimeout(120_000); // a purchase, a delivery, a review and the owner's answers: one long journey
  // A coffee no demo customer reviewed: no stars anywhere yet.
  const product = byKey('malabar-ground-filter');
  expect(demoRating(product.key).reviewCount).toBe(0);
  const path = await findProductPath(page, product.en.name);
  const productId = path.split('/').pop()!;
  await page.goto(`/pl${path}`);
  await expect(page.getByTestId('rating')).toHaveCount(0);
  await expect(page.locator('#reviews')).toContainText(pl('reviews.none'));
  expect((await jsonLd(page)).aggregateRating).toBeUndefined();

  await customerWithCart(page, testInfo, [[path, 1]], { label: 'ola.reviews', name: 'Ola Kowalska' });
  // By courier: the owner ships it, then it is delivered.
  const orderId = await checkOutByRequest(page, { locale: 'pl', method: 'courier' });
  const label = orderLabel(orderId);

  // Paid, not delivered: the review page says why not, and a direct POST changes nothing.
  await page.goto(`/pl/review?product=${productId}`);
  await expect(page.getByTestId('review-refused')).toHaveText(pl('reviews.form.notBuyer'));
  const early = await postReview(page, productId, '5');
  expect(early.status()).toBe(403);

  const owner = await ownerPage(browser, testInfo);
  await owner.goto(`/admin/orders/${orderId}`);
  await owner.getByLabel(en('admin.orders.carrier')).selectOption('inpost');
  await owner.getByLabel(en('admin.orders.trackingNumber')).fill('620012345678901234567891');
  await owner.getByRole('button', { name: en('admin.orders.ship') }).click();
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.shipped'));
  await owner.getByRole('button', { name: en('admin.orders.deliver') }).click();
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.delivered'));

  // The "delivered" mail invites a review of each coffee, in Polish.
  const delivered = await mail.waitFor((m) => m.subject === pl('orders.shippingMail.deliveredSubject', { label }));
  const link = /(http\S+\/pl\/review\?product=\S+)/.exec(delivered.text)?.[1];
  expect(link, delivered.text).toContain(`/pl/review?product=${productId}`);

  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(pl('reviews.form.title'));
  // Nothing chosen: the browser says so before sending.
  await page.getByRole('button', { name: pl('reviews.form.publish') }).click();
  await expect(page.getByText(pl('reviews.errors.ratingRequired'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, { label: 'review form with an error' });
  // Stars by mouse (the label around each radio), then by keyboard like any radio group.
  const stars = (count: number) => page.getByRole('radio', { name: pl('reviews.stars', { count }), exact: true });
  await page.locator('label').filter({ has: stars(5) }).click();
  await expect(stars(5)).toBeChecked();
  await page.keyboard.press('ArrowLeft');
  await expect(stars(4)).toBeChecked();
  await expect(stars(4)).toBeFocused();
  await page.getByLabel(pl('reviews.form.body')).fill('Słodka i czekoladowa, świetna z przelewu.');
  await page.getByRole('button', { name: pl('reviews.form.publish') }).click();
  await expect(page.getByTestId('review-outcome')).toContainText(pl('reviews.form.published'));
  await page.getByRole('link', { name: pl('reviews.form.seeOnPage') }).click();

  // The product page: 4,0 from 1 review, the review with "Potwierdzony zakup", and the same in JSON-LD.
  await expect(page).toHaveURL(new RegExp(`/pl/product/${productId}#reviews$`));
  await expect(page.getByTestId('rating').first()).toContainText('4,0');
  await expect(page.getByTestId('rating').first()).toContainText(pl('product.reviews', { count: 1 }));
  const review = page.getByTestId('review');
  await expect(review).toHaveCount(1);
  await expect(review).toContainText('Ola K.');
  await expect(review).toContainText(pl('reviews.verified'));
  await expect(review).toContainText('Słodka i czekoladowa');
  await expect(review).not.toContainText(pl('reviews.writtenIn.pl'));
  expect((await jsonLd(page)).aggregateRating).toEqual({ '@type': 'AggregateRating', ratingValue: 4, reviewCount: 1 });
  await page.locator('#reviews').getByRole('link', { name: pl('reviews.howChecked') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('legal.pages.reviews'));

  // In English the review is marked as written in Polish; the card shows the same figures.
  await page.goto(`${path}#reviews`);
  await expect(page.getByTestId('review')).toContainText(en('reviews.writtenIn.pl'));
  await page.goto('/categories?category=groundCoffee');
  const cardRating = page.getByRole('article').filter({ hasText: product.en.name }).getByTestId('rating');
  await expect(cardRating).toContainText('4.0');
  await expect(cardRating).toContainText(en('product.reviews', { count: 1 }));
  await expect(cardRating.getByRole('link', { name: en('legal.pages.reviews') })).toHaveAttribute('href', '/legal/reviews');

  // My Orders now offers to edit it.
  await page.goto('/pl/profile?tab=orders');
  await expect(page.getByTestId('order').filter({ hasText: label }).getByRole('link', { name: pl('reviews.editLabel', { name: product.pl.name || product.en.name }) })).toBeVisible();

  // The owner sees it as new, answers, then hides it for a reason.
  await owner.goto('/admin/reviews');
  const card0 = owner.getByTestId('owner-review').filter({ hasText: 'Słodka i czekoladowa' });
  await expect(card0).toContainText(en('reviews.admin.new'));
  await expectNoSeriousA11yViolations(owner, { label: 'admin reviews' });
  await card0.getByLabel(en('reviews.admin.reply')).fill('Dziękujemy, Olu!');
  await card0.getByRole('button', { name: en('reviews.admin.saveReply') }).click();
  await expect(owner.getByRole('status')).toHaveText(en('reviews.admin.done.replied'));
  await page.goto(`/pl${path}`);
  await expect(page.getByTestId('review')).toContainText('Dziękujemy, Olu!');
  await expect(page.getByTestId('review')).toContainText(pl('reviews.reply'));

  await card0.getByText(en('reviews.admin.hide')).click();
  await card0.getByRole('button', { name: en('reviews.admin.confirmHide') }).click();
  await expect(owner.getByRole('alert')).toHaveText(en('reviews.admin.errors.reason'));
  await card0.getByLabel(en('reviews.admin.reason')).selectOption('personal-data');
  await card0.getByRole('button', { name: en('reviews.admin.confirmHide') }).click();
  await expect(owner.getByRole('status')).toHaveText(en('reviews.admin.done.hidden'));
  await expect(card0.getByTestId('review-hidden-badge')).toHaveText(en('reviews.admin.hiddenBadge', { reason: en('reviews.reasons.personal-data') }));
  await owner.goto('/admin/activity');
  await expect(owner.getByRole('main')).toContainText(en('admin.activity.reason', { reason: en('reviews.reasons.personal-data') }));

  // Gone everywhere: no stars on the page, the card or in JSON-LD.
  await page.goto(`/pl${path}`);
  await expect(page.getByTestId('review')).toHaveCount(0);
  await expect(page.getByTestId('rating')).toHaveCount(0);
  expect((await jsonLd(page)).aggregateRating).toBeUndefined();
  await page.goto('/categories?category=groundCoffee');
  await expect(page.getByRole('article').filter({ hasText: product.en.name }).getByTestId('rating')).toHaveCount(0);
  // The author sees why.
  await page.goto(`/pl/review?product=${productId}`);
  await expect(page.getByTestId('review-hidden')).toContainText(pl('reviews.reasons.personal-data'));
  await owner.context().close();
});

test('a customer who did not buy the coffee cannot review it, also by a direct POST', async ({ page }, testInfo) => {
  const product = byKey('bajawa-honey');
  const path = await findProductPath(page, product.en.name);
  const productId = path.split('/').pop()!;
  await signUp(page, newAccount(testInfo, 'never.bought', 'Jan Nowak'));
  await page.goto(`/pl/review?product=${productId}`);
  await expect(page.getByTestId('review-refused')).toHaveText(pl('reviews.form.notBuyer'));
  await expect(page.getByRole('button', { name: pl('reviews.form.publish') })).toHaveCount(0);
  const response = await postReview(page, productId, '1');
  expect(response.status()).toBe(403);
  await page.goto(path);
  await expect(page.getByTestId('rating').first()).toContainText(en('product.reviews', { count: demoRating(product.key).reviewCount }));
  await expect(page.getByTestId('review')).toHaveCount(demoRating(product.key).reviewCount);
});
