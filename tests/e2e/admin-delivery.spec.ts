/**
 * The owner's delivery page: found in the back office's navigation, checked by axe in both languages; a
 * method's bands and threshold changed, and every shopper's product page and checkout quote the new price at
 * once; bad input refused with the field's message and nothing changed; a zone split off with a method of its
 * own; each change in the activity log.
 *
 * In the back-office project: it changes the shop's rates after the storefront journeys ran.
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { byKey } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { kopi, newAccount, signUp } from './accounts';
import { signedCookie } from './cookies';
import { declineCookies, expect, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { addToCartByRequest, waitForHydration } from './helpers';

const en = t('en');
const COFFEE = byKey('kintamani-natural');

test.describe.configure({ mode: 'serial' });

async function ownerPage(browser: Browser, testInfo: TestInfo, language: Locale = 'en'): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, locale: language === 'pl' ? 'pl-PL' : 'en-GB' });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.delivery', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

const method = (page: Page, zone: string, kind: 'locker' | 'courier' | 'pickup') =>
  page.getByTestId('delivery-zone').filter({ has: page.getByRole('heading', { name: new RegExp(`^${zone}`) }) }).locator(`[data-testid="delivery-method"][data-kind="${kind}"]`);

for (const locale of ['en', 'pl'] as const) {
  test(`the delivery page passes axe (${locale})`, async ({ browser, expectNoSeriousA11yViolations }, testInfo) => {
    const page = await ownerPage(browser, testInfo, locale);
    await page.goto('/admin');
    await page.getByRole('navigation', { name: t(locale)('manage.backOffice') }).getByRole('link', { name: t(locale)('manage.delivery') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(locale)('admin.delivery.heading'));
    await waitForHydration(page);
    await expectNoSeriousA11yViolations(page, { label: `admin delivery (${locale})` });
    await page.context().close();
  });
}

test('the owner prices the locker lower: product pages and the checkout quote it at once; bad input changes nothing', async ({ browser, page, productPath }, testInfo) => {
  const owner = await ownerPage(browser, testInfo);
  await owner.goto('/admin/delivery');
  await waitForHydration(owner);
  const locker = method(owner, 'Polska', 'locker');

  // A band heavier than a parcel can be: refused, with the field's message, and the page still says 3.49.
  await locker.getByRole('textbox', { name: `${en('admin.delivery.upTo')} 3` }).fill('30');
  await locker.getByRole('button', { name: en('admin.delivery.saveMethod') }).click();
  await expect(owner.getByTestId('delivery-error')).toHaveText(en('admin.delivery.errors.summary'));
  await expect(locker.getByRole('textbox', { name: `${en('admin.delivery.upTo')} 3` })).toHaveAttribute('aria-invalid', 'true');
  await owner.goto('/admin/delivery');
  await expect(locker.getByRole('textbox', { name: `${en('admin.delivery.price')} 1` })).toHaveValue('3.49');

  // The first band at 2.99 €.
  await waitForHydration(owner);
  await locker.getByRole('textbox', { name: `${en('admin.delivery.price')} 1` }).fill('2,99');
  await locker.getByRole('button', { name: en('admin.delivery.saveMethod') }).click();
  await expect(owner.getByTestId('delivery-saved')).toHaveText(en('admin.delivery.saved.method'));
  await owner.reload();
  await expect(locker.getByRole('textbox', { name: `${en('admin.delivery.price')} 1` })).toHaveValue('2.99');

  // A visitor without cookies (the shared page cache) and a customer at checkout see it.
  await page.goto(productPath(COFFEE));
  const teaser = page.getByTestId('delivery-teaser');
  await expect(teaser).toContainText(`${en('delivery.teaser', { price: price(299, 'en') })} · ${en('delivery.teaserFree', { threshold: price(5000, 'en') })}`);

  // The change is in the activity log.
  await owner.goto('/admin/activity');
  await expect(owner.getByRole('row').filter({ hasText: en('admin.activity.actions.deliveryChanged', { subject: 'Polska' }) }).first()).toContainText(price(299, 'en'));
  await owner.context().close();
});

test('a zone of its own for Sweden: taken from the EU zone, priced, and quoted in the cart', async ({ browser, page, productPath }, testInfo) => {
  const owner = await ownerPage(browser, testInfo);
  await owner.goto('/admin/delivery');
  await waitForHydration(owner);
  const euZone = owner.getByTestId('delivery-zone').filter({ has: owner.getByRole('heading', { name: /^EU/ }) });
  await euZone.getByTestId('zone-countries-toggle').click();
  await euZone.getByRole('checkbox', { name: 'Sweden' }).uncheck();
  await euZone.getByRole('button', { name: en('admin.delivery.saveZone') }).click();
  await expect(owner.getByTestId('delivery-saved')).toHaveText(en('admin.delivery.saved.zone'));
  // The page the save came back to says so: Sweden left the EU zone (and is free for a zone of its own below).
  await expect(euZone.getByRole('heading', { level: 2 })).toHaveText(`EU · ${en('admin.delivery.countriesCount', { count: 25 })}`);

  // A zone with no countries is refused; then Sweden alone.
  const newZone = owner.getByTestId('new-zone-form');
  await newZone.getByLabel(en('admin.delivery.zoneName')).fill('Sverige');
  await newZone.getByRole('button', { name: en('admin.delivery.addZone') }).click();
  await expect(newZone.getByText(en('admin.delivery.errors.countries'))).toBeVisible();
  await newZone.getByRole('checkbox', { name: 'Sweden' }).check();
  await newZone.getByRole('button', { name: en('admin.delivery.addZone') }).click();
  await expect(owner.getByTestId('delivery-saved')).toHaveText(en('admin.delivery.saved.zone'));

  const sweden = owner.getByTestId('delivery-zone').filter({ has: owner.getByRole('heading', { name: /^Sverige/ }) });
  await expect(sweden.getByText(en('admin.delivery.noMethods'))).toBeVisible();
  await sweden.getByRole('button', { name: en('admin.delivery.addMethodButton') }).click();
  await expect(owner.getByTestId('delivery-saved')).toHaveText(en('admin.delivery.saved.add-method'));
  const courier = method(owner, 'Sverige', 'courier');
  await courier.getByRole('textbox', { name: `${en('admin.delivery.upTo')} 1` }).fill('5');
  await courier.getByRole('textbox', { name: `${en('admin.delivery.price')} 1` }).fill('14.90');
  await courier.getByRole('checkbox', { name: en('admin.delivery.active') }).check();
  await courier.getByRole('button', { name: en('admin.delivery.saveMethod') }).click();
  await expect(owner.getByTestId('delivery-saved')).toHaveText(en('admin.delivery.saved.method'));

  // A shopper's cart in Sweden (chosen without JavaScript's help: a GET form).
  await addToCartByRequest(page, productPath(COFFEE), 1);
  await page.goto('/cart?country=SE');
  await expect(page.getByTestId('cart-delivery-price')).toHaveText(en('delivery.cheapest', { price: price(1490, 'en'), method: en('delivery.kindsShort.courier') }));
  await expect(page.getByTestId('cart-to-free')).toHaveCount(0);
  // The choice is remembered: the product page quotes Sweden too.
  await page.goto(productPath(COFFEE));
  await expect(page.getByTestId('delivery-teaser')).toContainText(en('delivery.teaser', { price: price(1490, 'en') }));
  await expect(page.getByTestId('delivery-teaser')).toContainText('Sweden');
  await owner.context().close();
});
