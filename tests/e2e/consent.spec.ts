import type { Page } from '@playwright/test';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { catalogue, productName } from '../fixtures/catalogue';
import { t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { addToCart, expectCartCount, productGrid, waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');

// A first visit: nothing answered yet.
test.use({ cookieConsent: null });

type AnalyticsEvent = { name: string; props: Record<string, unknown>; path: string; visitorId: string };

/**
 * Watches analytics: `requests` counts every request to /api/events on the network; `events` holds the
 * bodies the page handed to navigator.sendBeacon (Chromium does not expose a beacon's body to Playwright).
 */
async function watchAnalytics(page: Page) {
  const watch = { requests: 0, events: [] as AnalyticsEvent[] };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/events') watch.requests++;
  });
  await page.exposeFunction('kopiRecordEvent', (body: string) => watch.events.push(JSON.parse(body)));
  await page.addInitScript(() => {
    const send = navigator.sendBeacon.bind(navigator);
    const record = (window as unknown as { kopiRecordEvent: (body: string) => void }).kopiRecordEvent;
    navigator.sendBeacon = (url, data) => {
      if (String(url).includes('/api/events') && data instanceof Blob) void data.text().then(record);
      return send(url, data);
    };
  });
  return watch;
}

type RecordedConsent = { body: { analytics: boolean; version: string; visitorId: string | null }; status: number };

/**
 * Watches the banner's choices sent to /api/consent, with the server's answers, from inside the page (the
 * request is a keepalive fetch, which the browser may not report to Playwright the way it reports others).
 */
async function watchConsents(page: Page) {
  const consents: RecordedConsent[] = [];
  await page.exposeFunction('kopiRecordConsent', (body: string, status: number) => consents.push({ body: JSON.parse(body), status }));
  await page.addInitScript(() => {
    const send = window.fetch.bind(window);
    const record = (window as unknown as { kopiRecordConsent: (body: string, status: number) => void }).kopiRecordConsent;
    window.fetch = async (input, init) => {
      const response = await send(input, init);
      if (String(input).includes('/api/consent')) void record(String(init?.body), response.status);
      return response;
    };
  });
  return consents;
}

const banner = (page: Page) => page.getByRole('region', { name: en('cookies.label') });
const consent = (page: Page) => page.evaluate(() => localStorage.getItem('cookiesAccepted'));

async function openOnStoppedClock(page: Page, path: string) {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
  await page.goto(path);
  await waitForHydration(page);
}

test('the banner appears after 1 s; nothing is sent before consent; Accept stores it and starts page views', async ({ page }) => {
  const analytics = await watchAnalytics(page);
  await openOnStoppedClock(page, '/');
  await page.clock.runFor(900);
  await expect(banner(page)).toBeHidden();
  await page.clock.runFor(100);
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole('heading', { name: en('cookies.title') })).toBeVisible();
  await expect(banner(page).getByText(en('cookies.text'))).toBeVisible();

  // Browsing on with the banner unanswered sends nothing.
  await productGrid(page).getByRole('link', { name: productName(catalogue[0], 'en'), exact: true }).click();
  await expect(page).toHaveURL(/\/product\//);
  // Wait for the add to finish (its "added" label): an add still in flight when Accept is clicked would be
  // tracked, rightly, after consent.
  await addToCart(page.getByRole('main'), productName(catalogue[0], 'en'));
  await expectCartCount(page, 1);
  expect(analytics.requests, 'no analytics before consent').toBe(0);
  expect(await consent(page)).toBeNull();

  const pageView = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/events' && r.method() === 'POST');
  await banner(page).getByRole('button', { name: en('cookies.accept') }).click();
  await pageView;
  await expect(banner(page)).toBeHidden();
  expect(await consent(page)).toBe('true');
  await expect.poll(() => analytics.events.map((e) => e.name)).toEqual(['cookie_consent', 'page_view']);
  expect(analytics.events[1].props).toMatchObject({ page_path: expect.stringMatching(/^\/product\//) });

  await page.getByRole('banner').getByRole('link', { name: en('nav.contact') }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect
    .poll(() => analytics.events.filter((e) => e.name === 'page_view').map((e) => e.props.page_path), 'a page view per path change')
    .toContain('/contact');
  expect(new Set(analytics.events.map((e) => e.visitorId)).size, 'one visitor id').toBe(1);

  await page.reload();
  await waitForHydration(page);
  await page.clock.runFor(3000);
  await expect(banner(page), 'the choice is remembered').toBeHidden();
});

test('Decline stores the choice, hides the banner and keeps analytics off', async ({ page }) => {
  const analytics = await watchAnalytics(page);
  await openOnStoppedClock(page, '/contact');
  await page.clock.runFor(1000);
  await banner(page).getByRole('button', { name: en('cookies.decline') }).click();
  await expect(banner(page)).toBeHidden();
  expect(await consent(page)).toBe('false');

  await page.getByRole('banner').getByRole('link', { name: en('nav.categories') }).click();
  await expect(page).toHaveURL(/\/categories$/);
  await page.reload();
  await waitForHydration(page);
  await page.clock.runFor(3000);
  await expect(banner(page)).toBeHidden();
  expect(analytics.requests, 'nothing is sent after a decline').toBe(0);
  expect(await page.evaluate(() => localStorage.getItem('kopiVisitor')), 'no visitor id is kept').toBeNull();
});

test('a first visit sets no cookie; the cart cookie appears with the first add to cart', async ({ page, context, consoleErrors, productPath }) => {
  consoleErrors.allow(/status of 404.*\/about/); // while /about is not routed yet
  const product = catalogue[4];
  const path = productPath(product);
  for (const url of ['/', path, '/about', '/contact', '/categories', '/cart']) {
    await page.goto(url);
    await waitForHydration(page);
  }
  expect(await context.cookies(), 'no cookie before anything is added to the cart').toEqual([]);

  await page.goto(path);
  await waitForHydration(page);
  await addToCart(page.getByRole('main'), productName(product, 'en'));
  await expectCartCount(page, 1);
  await expect.poll(async () => (await context.cookies()).map((c) => c.name)).toEqual(['kopi_cart']);
  const cookies = await context.cookies();
  expect(cookies[0]).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
  expect(cookies[0].expires, 'kept for weeks, not the session').toBeGreaterThan(Date.now() / 1000 + 30 * 86_400);
});

test('on a tablet the banner sits above the product page’s buy bar; on a small phone it takes a third of the screen at most', async ({ page, productPath }) => {
  const product = productPath(catalogue[0]);
  await page.setViewportSize({ width: 768, height: 900 });
  await page.goto(product);
  await waitForHydration(page);
  await expect(banner(page)).toBeVisible();
  const bar = page.getByTestId('buy-bar');
  // Scroll on until the buy box is out of view and the bar shows (it hides again at the footer).
  for (let i = 0; i < 30 && !(await bar.isVisible()); i++) await page.mouse.wheel(0, 120);
  await expect(bar).toBeVisible();
  await expect(async () => {
    const [b, s] = [(await banner(page).boundingBox())!, (await bar.boundingBox())!];
    expect(b.y + b.height, 'the banner ends above the buy bar').toBeLessThanOrEqual(s.y);
  }).toPass();
  // The bar's button can still be pressed.
  await expect(bar.getByRole('button')).toBeInViewport({ ratio: 1 });

  for (const locale of ['en', 'pl'] as const) {
    await page.setViewportSize({ width: 320, height: 568 });
    await page.evaluate(() => localStorage.removeItem('cookiesAccepted'));
    await page.goto(locale === 'pl' ? `/pl${product}` : product);
    await waitForHydration(page);
    const region = page.getByRole('region', { name: t(locale)('cookies.label') });
    await expect(region).toBeVisible();
    const box = (await region.boundingBox())!;
    expect(box.height, `${locale}: the banner's height at 320 × 568`).toBeLessThanOrEqual(568 / 3);
    await expect(region.getByRole('button', { name: t(locale)('cookies.accept') })).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  }
});

test('Accept is recorded on the server with the visitor id and the banner’s version', async ({ page }) => {
  const consents = await watchConsents(page);
  await page.goto('/about');
  await waitForHydration(page);
  await banner(page).getByRole('button', { name: en('cookies.accept') }).click();
  await expect.poll(() => consents.length).toBe(1);
  const visitorId = await page.evaluate(() => localStorage.getItem('kopiVisitor'));
  expect(visitorId).toMatch(/^[\w-]{16,64}$/);
  expect(consents[0]).toEqual({ status: 204, body: { analytics: true, version: COOKIE_BANNER_VERSION, visitorId } });
  expect(await page.evaluate(() => localStorage.getItem('cookiesVersion'))).toBe(COOKIE_BANNER_VERSION);
});

for (const language of ['en', 'pl'] as const) {
test(`“Cookie settings” in the footer reopens the banner with the current choice; Decline is recorded and stops analytics at once (${language})`, async ({ page, expectNoSeriousA11yViolations }) => {
  const tr = t(language);
  const at = (target: string) => (language === 'pl' ? `/pl${target}` : target);
  const analytics = await watchAnalytics(page);
  const consents = await watchConsents(page);
  const region = page.getByRole('region', { name: tr('cookies.label') });
  await page.goto(language === 'pl' ? '/pl' : '/');
  await waitForHydration(page);
  await region.getByRole('button', { name: tr('cookies.accept') }).click();
  await expect.poll(() => consents.length).toBe(1);
  const visitorId = await page.evaluate(() => localStorage.getItem('kopiVisitor'));
  expect(consents[0]).toEqual({ status: 204, body: { analytics: true, version: COOKIE_BANNER_VERSION, visitorId } });
  await expect(region).toBeHidden();
  await expect.poll(() => analytics.requests, 'analytics run while accepted').toBeGreaterThan(0);

  // Without JavaScript the link leads to the cookie policy; with it, it opens the banner and stays on the page.
  const settings = page.getByRole('contentinfo').getByRole('link', { name: tr('footer.cookieSettings') });
  await expect(settings).toHaveAttribute('href', at('/legal/cookies'));
  await settings.click();
  await expect(region).toBeVisible();
  await expect(page).toHaveURL(language === 'pl' ? /\/pl$/ : /:\d+\/$/);
  await expect(region.getByText(tr('cookies.nowAccepted'))).toBeVisible();
  await expect(region.getByRole('button', { name: tr('cookies.decline') }), 'focus moves to the banner').toBeFocused();
  await expect(region.getByRole('button', { name: tr('cookies.accept') })).toBeVisible();
  await expectNoSeriousA11yViolations(page, { label: `cookie settings reopened (${language})` });

  // Escape closes it unchanged, with focus back on the link.
  await page.keyboard.press('Escape');
  await expect(region).toBeHidden();
  await expect(settings).toBeFocused();
  expect(await consent(page)).toBe('true');
  expect(consents).toHaveLength(1);

  // By keyboard this time; Decline withdraws consent with the visitor id it had.
  await page.keyboard.press('Enter');
  await expect(region).toBeVisible();
  await region.getByRole('button', { name: tr('cookies.decline') }).click();
  await expect(region).toBeHidden();
  await expect.poll(() => consents.length).toBe(2);
  expect(consents[1]).toEqual({ status: 204, body: { analytics: false, version: COOKIE_BANNER_VERSION, visitorId } });
  expect(await consent(page)).toBe('false');
  expect(await page.evaluate(() => localStorage.getItem('kopiVisitor')), 'the visitor id is forgotten').toBeNull();

  const sent = { requests: analytics.requests, events: analytics.events.length };
  await page.getByRole('banner').getByRole('link', { name: tr('nav.categories') }).click();
  await expect(page).toHaveURL(new RegExp(`${at('/categories')}$`));
  await page.getByRole('banner').getByRole('link', { name: tr('nav.contact') }).click();
  await expect(page).toHaveURL(new RegExp(`${at('/contact')}$`));
  await page.reload();
  await waitForHydration(page);
  await page.getByRole('banner').getByRole('link', { name: tr('nav.about') }).click();
  await expect(page).toHaveURL(new RegExp(`${at('/about')}$`));
  expect(analytics.requests, 'no analytics after the withdrawal').toBe(sent.requests);
  expect(analytics.events).toHaveLength(sent.events);

  // Reopened now, it shows the withdrawal.
  await settings.click();
  await expect(region.getByText(tr('cookies.nowDeclined'))).toBeVisible();
});
}
