import { PAGE_SIZE, catalogue, categories, inCategory, productName, textMatches } from '../fixtures/catalogue';
import { escapeRegExp, t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { gridNames, productGrid, productLinks, waitForHydration } from './helpers';

const en = t('en');
const names = (products: typeof catalogue) => products.map((p) => productName(p, 'en'));

/** Marks the window; a full page load forgets the mark. */
const markWindow = (page: import('@playwright/test').Page) => page.evaluate(() => ((window as unknown as { kopiMark: number }).kopiMark = 1));
const windowMarked = (page: import('@playwright/test').Page) =>
  page.evaluate(() => (window as unknown as { kopiMark?: number }).kopiMark === 1);

test.describe('hero carousel', () => {
  const indicatorNames = [0, 1, 2].map((i) => en('home.hero.goTo', { n: i + 1, title: en(`home.slides.${i}.title`) }));
  const indicators = (page: import('@playwright/test').Page) =>
    page
      .getByRole('region', { name: en('home.hero.label') })
      .getByRole('button', { name: new RegExp(`^(${indicatorNames.map(escapeRegExp).join('|')})$`) });
  const activeSlide = (page: import('@playwright/test').Page) =>
    indicators(page).evaluateAll((buttons) => buttons.findIndex((b) => b.getAttribute('aria-current') === 'true'));

  /** Opens the home page on a stopped clock: timers fire only when the test moves time on. */
  async function openOnStoppedClock(page: import('@playwright/test').Page) {
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await page.goto('/');
    await waitForHydration(page);
    await expect(indicators(page)).toHaveCount(3);
    await expect(indicators(page).first()).toHaveAttribute('aria-current', 'true');
  }

  /** Moves the mouse off the carousel and focus out of it, so only the pause button can hold it still. */
  async function leaveCarousel(page: import('@playwright/test').Page) {
    await page.mouse.move(5, 850);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  }

  test('rotates every 4 s; the indicators pick a slide', async ({ page }) => {
    await openOnStoppedClock(page);
    await leaveCarousel(page);
    await page.clock.runFor(3900);
    expect(await activeSlide(page)).toBe(0);
    await page.clock.runFor(100);
    await expect.poll(() => activeSlide(page)).toBe(1);
    await page.clock.runFor(4000);
    await expect.poll(() => activeSlide(page)).toBe(2);
    await page.clock.runFor(4000);
    await expect.poll(() => activeSlide(page), 'wraps around to the first slide').toBe(0);

    await indicators(page).nth(2).click();
    await expect(indicators(page).nth(2)).toHaveAttribute('aria-current', 'true');
    await expect(indicators(page).nth(0)).not.toHaveAttribute('aria-current', 'true');
    await expect(indicators(page).nth(2)).toHaveAccessibleName(indicatorNames[2]);
  });

  test('the pause control stops and restarts it', async ({ page }) => {
    await openOnStoppedClock(page);
    const region = page.getByRole('region', { name: en('home.hero.label') });
    await region.getByRole('button', { name: en('home.hero.pause') }).click();
    await expect(region.getByRole('button', { name: en('home.hero.play') })).toBeVisible();
    await leaveCarousel(page);
    await page.clock.runFor(12_000);
    expect(await activeSlide(page)).toBe(0);

    await region.getByRole('button', { name: en('home.hero.play') }).click();
    await expect(region.getByRole('button', { name: en('home.hero.pause') })).toBeVisible();
    await leaveCarousel(page);
    await page.clock.runFor(4000);
    await expect.poll(() => activeSlide(page)).toBe(1);
  });

  test('pauses while hovered or focused', async ({ page }) => {
    await openOnStoppedClock(page);
    const region = page.getByRole('region', { name: en('home.hero.label') });
    await region.hover();
    await page.clock.runFor(9000);
    expect(await activeSlide(page), 'no rotation under the mouse').toBe(0);

    await leaveCarousel(page);
    await page.clock.runFor(4000);
    await expect.poll(() => activeSlide(page)).toBe(1);

    await region.getByRole('link', { name: en('home.hero.cta') }).focus();
    await page.mouse.move(5, 850);
    await page.clock.runFor(9000);
    expect(await activeSlide(page), 'no rotation while focus is inside').toBe(1);
  });

  test('does not move for visitors who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openOnStoppedClock(page);
    await leaveCarousel(page);
    await page.clock.runFor(13_000);
    expect(await activeSlide(page)).toBe(0);
  });

  test('"Shop now" scrolls to the product grid', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: en('home.hero.cta') }).click();
    await expect(page).toHaveURL(/#shop$/);
    await expect(page.getByRole('heading', { name: en('home.shop.title') })).toBeInViewport();
  });
});

test.describe('search', () => {
  async function search(page: import('@playwright/test').Page, query: string) {
    const box = page.getByRole('search').getByRole('searchbox', { name: en('home.search.label') });
    await box.fill(query);
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(query).replace(/%20/g, '(\\+|%20)')}`));
    await expect(page.getByText(en('home.results.for', { q: query }))).toBeVisible();
  }

  test('finds coffees by name, case-insensitively, through the URL', async ({ page }) => {
    const expected = names(textMatches('gayo'));
    expect(expected.length).toBeGreaterThan(1);
    await page.goto('/');
    await waitForHydration(page);
    await search(page, 'GAYO');
    await expect.poll(() => gridNames(page)).toEqual(expected);
    await expect(page.getByRole('searchbox', { name: en('home.search.label') })).toHaveValue('GAYO');

    await page.getByRole('link', { name: en('home.results.clear') }).click();
    await expect(page).not.toHaveURL(/q=/);
    await expect(productLinks(page)).toHaveCount(PAGE_SIZE);
  });

  test('finds a Polish word from the English page, and a query typed without accents', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);

    const chocolate = names(textMatches('czekolada'));
    expect(chocolate.length).toBeGreaterThan(1);
    expect(chocolate.length).toBeLessThanOrEqual(PAGE_SIZE);
    await search(page, 'czekolada');
    await expect.poll(() => gridNames(page)).toEqual(chocolate);

    // "śliwka" (plum) is only in the Polish tasting notes.
    const plum = names(textMatches('śliwka'));
    expect(plum.length).toBeGreaterThan(0);
    await search(page, 'sliwka');
    await expect.poll(() => gridNames(page)).toEqual(plum);

    // "stołach" (on raised beds) occurs only in one Polish description; "ł" has no combining mark to drop.
    const description = names(textMatches('stołach'));
    expect(description).toHaveLength(1);
    await search(page, 'STOLACH');
    await expect.poll(() => gridNames(page)).toEqual(description);
  });

  test.describe('in Polish', () => {
    test.use({ language: 'pl' });
    test('finds an English word and shows the Polish names', async ({ page }) => {
      const pl = t('pl');
      await page.goto('/?q=chocolate');
      await expect(page.getByText(pl('home.results.for', { q: 'chocolate' }))).toBeVisible();
      await expect.poll(() => gridNames(page)).toEqual(textMatches('chocolate').map((p) => productName(p, 'pl')));
    });
  });

  test('matches the category labels in both languages', async ({ page }) => {
    // "kapsulki": the Polish label "Kapsułki i pady" without its accent; one of them is a pod with no "capsule" in its name.
    await page.goto('/?q=kapsulki');
    await expect.poll(() => gridNames(page)).toEqual(names(inCategory('capsulesAndPods')));
  });

  test('says so when nothing matches', async ({ page }) => {
    await page.goto('/?q=zzzz-no-such-coffee');
    await expect(page.getByText(en('home.results.emptyTitle'))).toBeVisible();
    await expect(productGrid(page)).toHaveCount(0);
    await page.getByRole('link', { name: en('home.results.showAll') }).click();
    await expect(productLinks(page)).toHaveCount(PAGE_SIZE);
  });
});

test.describe('category filter', () => {
  test('All and the four categories filter through the URL; the active one clears itself', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    const filter = page.getByRole('navigation', { name: en('home.filter.label') });
    await expect(filter.getByRole('link')).toHaveText([en('categories.all'), ...categories.map((c) => en(`categories.${c}`))]);
    await expect(filter.getByRole('link', { name: en('categories.all') })).toHaveAttribute('aria-current', 'true');

    const ground = filter.getByRole('link', { name: en('categories.groundCoffee') });
    await ground.click();
    await expect(page).toHaveURL(/[?&]category=groundCoffee/);
    await expect(ground).toHaveAttribute('aria-current', 'true');
    await expect.poll(() => gridNames(page)).toEqual(names(inCategory('groundCoffee')));

    await ground.click();
    await expect(page).not.toHaveURL(/category=/);
    await expect(filter.getByRole('link', { name: en('categories.all') })).toHaveAttribute('aria-current', 'true');
    await expect(productLinks(page)).toHaveCount(PAGE_SIZE);
  });

  test('combines with a search', async ({ page }) => {
    await page.goto('/?q=czekolada');
    await waitForHydration(page);
    await page.getByRole('navigation', { name: en('home.filter.label') }).getByRole('link', { name: en('categories.capsulesAndPods') }).click();
    await expect(page).toHaveURL(/q=czekolada/);
    await expect(page).toHaveURL(/category=capsulesAndPods/);
    const expected = names(textMatches('czekolada').filter((p) => p.category === 'capsulesAndPods'));
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => gridNames(page)).toEqual(expected);
  });
});

test('the grid shows 12 coffees, and "Load more" appends the next 12 without reloading the page', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  await expect.poll(() => gridNames(page)).toEqual(names(catalogue.slice(0, PAGE_SIZE)));
  await markWindow(page);

  const loadMore = page.getByRole('link', { name: en('home.loadMore') });
  await loadMore.click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(productLinks(page)).toHaveCount(Math.min(2 * PAGE_SIZE, catalogue.length));
  await expect.poll(() => gridNames(page)).toEqual(names(catalogue.slice(0, 2 * PAGE_SIZE)));
  await expect(productLinks(page).nth(PAGE_SIZE)).toBeInViewport();

  if (catalogue.length > 2 * PAGE_SIZE) {
    await loadMore.click();
    await expect(productLinks(page)).toHaveCount(Math.min(3 * PAGE_SIZE, catalogue.length));
  }
  if (catalogue.length <= 3 * PAGE_SIZE) await expect(loadMore).toBeHidden();
  expect(await windowMarked(page), 'no full page load').toBe(true);
});
