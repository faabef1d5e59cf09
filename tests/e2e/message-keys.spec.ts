/**
 * No page shows a message key instead of its words ("orders.total" on the thank-you page was one): every page
 * a guest, a customer and the owner can open, in both languages, through an order's whole life (placed, paid,
 * shipped, delivered, reviewed), is read as a visitor reads it — its text, its title, and the labels of its
 * controls and pictures — and any dotted name that belongs to the catalogues fails the test.
 */
import type { Page } from '@playwright/test';
import { byKey, catalogue } from '../fixtures/catalogue';
import { type Locale, messageKeysIn, t } from '../fixtures/i18n';
import { localePath } from '../../app/modules/i18n/paths';
import { legalPages } from '../../app/modules/legal/pages';
import { kopi, newAccount, signUp } from './accounts';
import { signedCookie } from './cookies';
import { TEST_CARDS, card, courierCents, customerWithCart, payAndFinish, polishAddress, proceedToPayment } from './checkout-helpers';
import { expect, failedLoad, test } from './fixtures';
import { waitForHydration } from './helpers';

/** What a visitor reads on the page: the text on screen, the title, and the names of controls and pictures. */
const readable = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [alt], [placeholder], meta[name="description"]')) {
      for (const name of ['aria-label', 'title', 'alt', 'placeholder', 'content']) {
        const value = el.getAttribute(name);
        if (value) parts.push(value);
      }
    }
    return parts.join('\n');
  });

test.use({ reducedMotion: 'reduce' });

for (const locale of ['en', 'pl'] as Locale[]) {
  test.describe(`in ${locale}`, () => {
    test.use({ language: locale });

    test(`no page shows a message key, as a guest, a customer and the owner (${locale})`, async ({ page, browser, consoleErrors, productPath }, testInfo) => {
      test.setTimeout(240_000);
      consoleErrors.allow(failedLoad(404));
      const tr = t(locale);
      const found: string[] = [];
      const scan = async (target: Page, what: string, path?: string) => {
        if (path !== undefined) {
          // The journey's own page adds /pl by itself (the `language` fixture); the owner's is a page of its own.
          await target.goto(target === page ? path : localePath(locale, path));
          await waitForHydration(target);
        }
        for (const key of messageKeysIn(await readable(target))) found.push(`${what} (${target.url()}): ${key}`);
      };

      const product = catalogue[1];
      const productPage = productPath(product);
      for (const path of ['/', '/?q=zzzqx', '/categories', productPage, '/about', '/contact', '/cart', '/withdraw', '/no-such-page', '/auth?mode=login', '/auth?mode=signup', '/auth?mode=reset', '/auth/reset?token=spent', '/success?session_id=cs_test_1234567890', productPath(byKey('mollo-timor-ground-aeropress')), '/back-in-stock?token=spent']) {
        await scan(page, 'guest', path);
      }
      for (const legal of legalPages) await scan(page, 'guest', `/legal/${legal}`);

      // A customer: cart, both checkout steps, the thank-you page, My Orders, the withdrawal form.
      await customerWithCart(page, testInfo, [[productPage, 2]], { label: `keys.${locale}` });
      await scan(page, 'customer', '/cart');
      await scan(page, 'customer', '/checkout');
      await scan(page, 'customer', '/checkout?step=delivery&method=method-pl-locker&lockerQuery=Krak%C3%B3w');
      // By courier: the owner ships it below (a pickup is collected, never shipped).
      await proceedToPayment(page, polishAddress, locale, { method: 'courier' });
      await scan(page, 'customer on the payment step');
      const orderId = await payAndFinish(page, 2 * product.priceCents + courierCents(2 * product.priceCents), card(TEST_CARDS.success), locale);
      await scan(page, 'customer on the thank-you page');
      await scan(page, 'customer', `/success?order=${orderId}`);
      for (const path of ['/profile', '/profile?tab=orders', `/withdraw?order=${orderId}`, `/review?product=${productPage.split('/').pop()}`]) {
        await scan(page, 'customer', path);
      }

      // The owner: every back-office page, and the order through shipping and delivery.
      const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, extraHTTPHeaders: { 'X-Forwarded-For': `10.7.${locale === 'en' ? 1 : 2}.${testInfo.retry + 1}` } });
      const owner = await context.newPage();
      const ownerAccount = newAccount(testInfo, `keys.owner.${locale}`, 'Owner');
      await signUp(owner, ownerAccount);
      await kopi('grant-admin', '--email', ownerAccount.email);
      await context.addCookies([{ name: 'lang', value: await signedCookie('lang', locale), url: testInfo.project.use.baseURL! }]);
      const productId = productPage.split('/').pop()!;
      for (const path of ['/admin', '/admin/orders', '/admin/products', '/add-product', `/edit-product/${productId}`, `/admin/products/${productId}/delete`, `/admin/products/${productId}/stock`, '/admin/activity', '/admin/messages', '/admin/reviews', '/admin/delivery']) {
        await scan(owner, 'owner', path);
      }
      await scan(owner, 'owner', `/admin/orders/${orderId}`);
      await owner.getByRole('button', { name: tr('admin.orders.ship') }).click();
      await expect(owner.getByRole('status')).toContainText(tr('admin.orders.moved.shipped'));
      await scan(owner, 'owner after shipping');
      await owner.getByRole('button', { name: tr('admin.orders.deliver') }).click();
      await expect(owner.getByRole('status')).toContainText(tr('admin.orders.moved.delivered'));
      await scan(owner, 'owner after delivery');
      await scan(owner, 'owner', `/admin/orders?status=delivered`);

      // Delivered: the customer reviews the coffee, and sees it in My Orders.
      await scan(page, 'customer', `/review?product=${productId}`);
      await page.getByRole('radio', { name: tr('reviews.stars', { count: 5 }) }).check({ force: true });
      await page.getByRole('button', { name: tr('reviews.form.publish') }).click();
      await expect(page.getByRole('status')).toBeVisible();
      await scan(page, 'customer after reviewing');
      await scan(page, 'customer', '/profile?tab=orders');
      await scan(page, 'customer', productPage);
      await scan(owner, 'owner', '/admin/reviews');
      await context.close();
      expect(found, found.join('\n')).toEqual([]);
    });
  });
}
