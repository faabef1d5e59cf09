/**
 * The owner's catalogue work in the browser: adding a coffee with pictures, changing it (text, price, Polish,
 * pictures and their order), deleting it with confirmation, the form's messages, the owner's product list,
 * and everyone else refused on every back-office page and action, also by a plain form post. Sizes and grinds
 * in English (with and without JavaScript) and in Polish.
 */
import type { Page, TestInfo } from '@playwright/test';
import sharp from 'sharp';
import { escapeRegExp, price, t } from '../fixtures/i18n';
import { kopi, newAccount, signUp } from './accounts';
import { plainSpacesPattern } from './checkout-helpers';
import { signedCookie } from './cookies';
import { expect, failedLoad, test } from './fixtures';
import { expectCartCount, gridNames, productIdFromHref, switchLanguage, waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');

/** Signs the page's context up as a new account and makes it an admin with the `kopi` command. */
async function signUpAdmin(page: Page, testInfo: TestInfo): Promise<void> {
  const account = newAccount(testInfo, 'owner', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
}

type Picture = { name: string; mimeType: string; buffer: Buffer };

async function picture(name: string, colour: string, format: 'jpeg' | 'png' | 'webp' = 'jpeg', width = 1200, height = 900): Promise<Picture> {
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  const buffer = await (format === 'jpeg' ? image.jpeg() : format === 'png' ? image.png() : image.webp()).toBuffer();
  return { name, mimeType: `image/${format}`, buffer };
}

/** A field of the product form by its label (required ones carry a star). */
const field = (page: Page, key: string) => page.getByRole('main').getByLabel(new RegExp(`^${escapeRegExp(en(`admin.productForm.${key}`))}( \\*)?$`));
const unique = (testInfo: TestInfo, label: string) => `${label} ${testInfo.testId.slice(-6)}${testInfo.retry}${Date.now().toString(36).slice(-4)}`;

const V = 'admin.productForm.variants.';
/** A field of the variants table by its column and its row ("Price (EUR) Variant 2"), as a screen reader names it. */
function variantField(page: Page, column: 'size' | 'grind' | 'price' | 'sku' | 'active' | 'remove', n: number, tr = en) {
  const name = `${tr(column === 'remove' ? 'admin.productForm.remove' : `${V}${column}`)} ${tr(`${V}variantN`, { n })}`;
  const role = column === 'grind' ? 'combobox' : column === 'active' || column === 'remove' ? 'checkbox' : 'textbox';
  return page.getByRole('main').getByRole(role, { name, exact: true });
}
/** Chooses how the product is sold (the radios are drawn as pills: their labels take the click). */
const sellAs = (page: Page, way: 'none' | 'size' | 'grind' | 'sizeGrind' | 'pack', tr = en) =>
  page.getByRole('group', { name: tr('admin.productForm.soldAs.legend') }).getByText(tr(`admin.productForm.soldAs.${way}`), { exact: true }).click();
/** The product page's choice of a size or a grind. */
const option = (page: Page, kind: 'size' | 'grind', name: string | RegExp) => page.getByRole('group', { name: en(`variant.option.${kind}`) }).getByRole('radio', { name, exact: true });

/** Adds a product through the form (JavaScript on) and returns its id. */
async function addProduct(page: Page, name: string, pictures: Picture[], price = '14.90'): Promise<string> {
  await page.goto('/add-product');
  await waitForHydration(page);
  await field(page, 'name').fill(name);
  await field(page, 'price').fill(price);
  await field(page, 'netWeight').fill('250');
  await field(page, 'description').fill(`A bright cup: ${name}.`);
  if (pictures.length > 0) await page.getByLabel(en('admin.productForm.chooseImages')).setInputFiles(pictures);
  await page.getByRole('button', { name: en('admin.productForm.add') }).click();
  const status = page.getByRole('status').filter({ hasText: en('admin.productForm.added') });
  await expect(status).toBeVisible({ timeout: 15_000 });
  // Where the owner is looking, not above the fold of a long form.
  await expect(status).toBeInViewport({ ratio: 1 });
  const href = await status.getByRole('link').getAttribute('href');
  return productIdFromHref(href!);
}

test('an admin adds a coffee with two pictures: first on the home grid, both pictures on its page', async ({ page }, testInfo) => {
  await signUpAdmin(page, testInfo);
  await page.goto('/');
  await expect(page.getByRole('banner').getByRole('link', { name: en('manage.addProduct') })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: en('manage.addProduct') }).click();
  await expect(page).toHaveURL(/\/add-product$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('admin.productForm.addHeading'));
  // The category defaults to whole bean.
  await expect(field(page, 'category')).toHaveValue('wholeBean');

  const name = unique(testInfo, 'Toraja Sapan');
  // On a phone, where the form is longest (addProduct checks that the outcome shows where the owner looks).
  await page.setViewportSize({ width: 390, height: 844 });
  const id = await addProduct(page, name, [await picture('front.jpg', '#7a4a2a'), await picture('back.png', '#2f6b4f', 'png', 800, 1000)]);
  await page.setViewportSize({ width: 1280, height: 900 });
  // The form is empty again for the next coffee.
  await expect(field(page, 'name')).toHaveValue('');

  await page.goto('/');
  expect((await gridNames(page))[0]).toBe(name);
  await page.goto(`/product/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByTestId('product-price')).toHaveText('€14.90');
  await expect(page.getByRole('main').locator('img[src*="/images/products/"]')).not.toHaveCount(0);
  const sources = await page.getByRole('main').locator(`img[src*="/images/products/${id}/"]`).evaluateAll((imgs) => [...new Set(imgs.map((img) => (img as HTMLImageElement).getAttribute('src')))]);
  expect(sources.length, `both pictures on the page (${sources.join(', ')})`).toBe(2);
  for (const src of sources) expect((await page.request.get(src!)).status()).toBe(200);
  // Its pictures keep their own proportions (landscape stays landscape).
  const main = page.getByTestId('gallery-main').locator('img');
  expect(Number(await main.getAttribute('width'))).toBeGreaterThan(Number(await main.getAttribute('height')));

  await page.goto('/admin/products');
  await expect(page.getByTestId('admin-product-row').first()).toContainText(name);
  await expect(page.getByTestId('admin-product-row').first()).toContainText('€14.90');
});

test('an admin edits title, price, Polish text and pictures, then lands home after the message', async ({ page }, testInfo) => {
  await signUpAdmin(page, testInfo);
  const name = unique(testInfo, 'Kintamani');
  const id = await addProduct(page, name, [await picture('one.jpg', '#aa3322'), await picture('two.jpg', '#2233aa')]);

  await page.goto(`/product/${id}`);
  await waitForHydration(page);
  await page.getByRole('link', { name: en('manage.editNamed', { name }) }).click();
  await expect(page).toHaveURL(new RegExp(`/edit-product/${id}$`));
  await waitForHydration(page);
  await expect(field(page, 'title')).toHaveValue(name);
  await expect(field(page, 'price')).toHaveValue('14.90');
  await expect(field(page, 'description')).toHaveValue(`A bright cup: ${name}.`);
  const current = page.getByTestId('current-images').getByRole('listitem');
  await expect(current).toHaveCount(2);
  const [first, second] = await current.evaluateAll((items) => items.map((li) => li.getAttribute('data-key')));

  const renamed = `${name} Honey`;
  await field(page, 'title').fill(renamed);
  await field(page, 'price').fill('12,5');
  await field(page, 'namePl').fill(`${renamed} PL`);
  await field(page, 'descriptionPl').fill('Miód i cytrusy.');
  // The second picture becomes the main one; the first is removed; a new one joins at the end.
  await page.getByRole('button', { name: en('admin.productForm.moveUp', { n: 2 }) }).click();
  await expect(current.first()).toHaveAttribute('data-key', second!);
  await current.nth(1).getByRole('checkbox').check();
  await expect(current.nth(1)).toContainText(en('admin.productForm.removed'));
  await page.getByLabel(en('admin.productForm.newImages')).setInputFiles([await picture('three.webp', '#22aa33', 'webp')]);
  await page.getByRole('button', { name: en('admin.productForm.update') }).click();

  const updated = page.getByRole('status').filter({ hasText: en('admin.productForm.updated') });
  await expect(updated).toBeVisible();
  await expect(updated).toBeInViewport({ ratio: 1 });
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });

  await page.goto(`/product/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(renamed);
  await expect(page.getByTestId('product-price')).toHaveText('€12.50');
  const main = page.getByTestId('gallery-main').locator('img');
  await expect(main).toHaveAttribute('src', new RegExp(`${second}-`));
  const sources = await page.getByRole('main').locator(`img[src*="/images/products/${id}/"]`).evaluateAll((imgs) => [...new Set(imgs.map((img) => (img as HTMLImageElement).getAttribute('src')))]);
  expect(sources).toHaveLength(2);
  expect(sources.some((src) => src!.includes(first!))).toBe(false);
  expect((await page.request.get(`/images/${first}-640.webp`)).status()).toBe(404);

  // The activity log says who changed what, old → new.
  await page.goto('/admin/activity');
  const entry = page.getByTestId('activity-row').filter({ hasText: renamed }).first();
  await expect(entry).toContainText(en('admin.activity.actions.productUpdated', { subject: renamed }));
  await expect(entry).toContainText(en('admin.activity.price', { from: '€14.90', to: '€12.50' }));
  await expect(entry).toContainText(en('admin.activity.name', { from: name, to: renamed }));
  await expect(entry).toContainText('owner+');

  // In Polish the product speaks Polish; the description falls back per field.
  await page.goto(`/product/${id}`);
  await waitForHydration(page);
  await switchLanguage(page, 'pl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${renamed} PL`);
  await expect(page.getByRole('main')).toContainText('Miód i cytrusy.');
});

test('an admin sells a coffee by size and grind: the generator makes the rows, the page offers them, a variant switched off leaves it', async ({ page, expectNoSeriousA11yViolations, consoleErrors }, testInfo) => {
  test.slow();
  consoleErrors.allow(failedLoad(400));
  consoleErrors.allow(failedLoad(404));
  await signUpAdmin(page, testInfo);
  await page.goto('/add-product');
  await waitForHydration(page);
  const name = unique(testInfo, 'Java Frinsa');
  await field(page, 'name').fill(name);
  await sellAs(page, 'sizeGrind');
  // The one-way price gives way to the table; a table without a variant is refused in the browser.
  await expect(field(page, 'price')).toBeHidden();
  await page.getByRole('button', { name: en('admin.productForm.add') }).click();
  await expect(page.getByText(en('admin.productForm.errors.noVariants'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, { label: 'variants table with an error (en)' });

  // Sizes × grinds at one price per size.
  await page.getByText(en('admin.productForm.generator.title')).click();
  await page.getByLabel(en('admin.productForm.generator.sizes')).fill('250, 1000');
  for (const grind of ['wholeBean', 'espresso']) await page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(en(`grind.${grind}`))}$`, 'i') }).check();
  await page.getByLabel(en('admin.productForm.generator.priceFor', { size: '250\u00a0g' })).fill('21,90');
  await page.getByLabel(en('admin.productForm.generator.priceFor', { size: '1\u00a0kg' })).fill('74.90');
  await page.getByRole('button', { name: en('admin.productForm.generator.make') }).click();
  await expect(page.getByRole('status').filter({ hasText: en('admin.productForm.generator.made', { count: 4 }) })).toBeVisible();
  await expect(variantField(page, 'size', 4)).toHaveValue('1000');
  await expect(variantField(page, 'grind', 4)).toHaveValue('espresso');
  await expect(variantField(page, 'price', 4)).toHaveValue('74.90');
  // Made again: nothing new.
  await page.getByRole('button', { name: en('admin.productForm.generator.make') }).click();
  await expect(page.getByRole('status').filter({ hasText: en('admin.productForm.generator.nothing') })).toBeVisible();
  // A row added by hand and taken away again.
  await page.getByRole('button', { name: en(`${V}add`) }).click();
  await expect(variantField(page, 'size', 5)).toBeFocused();
  await page.getByRole('button', { name: en(`${V}removeN`, { n: 5 }) }).click();
  await expect(variantField(page, 'size', 5)).toHaveCount(0);

  await page.getByRole('button', { name: en('admin.productForm.add') }).click();
  const status = page.getByRole('status').filter({ hasText: en('admin.productForm.added') });
  await expect(status).toBeVisible({ timeout: 15_000 });
  const id = productIdFromHref((await status.getByRole('link').getAttribute('href'))!);

  // The product page offers every size and grind; the kilo of espresso has its price.
  await page.goto(`/product/${id}`);
  await waitForHydration(page);
  await expect(page.getByTestId('product-price')).toHaveText('€21.90');
  await expect(option(page, 'size', /^250\sg$/)).toBeChecked();
  // Chosen by their labels (the radios are drawn as pills); the URL follows in place.
  await page.getByTestId('variant-picker').getByText(/^1\skg$/).click();
  await expect(option(page, 'size', /^1\skg$/)).toBeChecked();
  await page.getByTestId('variant-picker').getByText(en('grind.espresso'), { exact: true }).click();
  await expect(option(page, 'grind', en('grind.espresso'))).toBeChecked();
  await expect(page).toHaveURL(/size=1000&grind=espresso/);
  await expect(page.getByTestId('product-price')).toHaveText('€74.90');

  // The owner's list: "from" the cheapest, and how many variants.
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  const row = page.getByTestId('admin-product-row').filter({ hasText: name });
  await expect(row).toContainText(en('product.fromPrice', { price: '€21.90' }));
  await expect(row).toContainText(en('admin.products.variants', { count: 4 }));

  // The kilo of espresso is taken off sale, the 250 g whole bean costs more.
  await page.goto(`/edit-product/${id}`);
  await waitForHydration(page);
  await expect(page.getByTestId('variant-row')).toHaveCount(4 + 3);
  await expectNoSeriousA11yViolations(page, { label: 'edit a product sold by size and grind (en)' });
  await variantField(page, 'active', 4).uncheck();
  await variantField(page, 'price', 1).fill('22,50');
  await page.getByRole('button', { name: en('admin.productForm.update') }).click();
  await expect(page.getByRole('status').filter({ hasText: en('admin.productForm.updated') })).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });

  await page.goto(`/product/${id}?size=1000&grind=espresso`);
  await expect(page.getByTestId('not-offered')).toBeVisible();
  await page.goto(`/product/${id}?size=1000&grind=wholeBean`);
  await expect(page.getByTestId('product-price')).toHaveText('€74.90');
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await expect(row).toContainText(en('admin.products.offSale', { count: 1 }));

  // The log says which variant, by its SKU.
  const sku = (size: number, grind: string) => `${name.toUpperCase().replace(/[^A-Z0-9]+/g, '-').slice(0, 24).replace(/-$/, '')}-${size}-${grind.toUpperCase()}`;
  await page.goto('/admin/activity');
  const entry = page.getByTestId('activity-row').filter({ hasText: name }).first();
  await expect(entry).toContainText(en('admin.activity.variantsOff', { skus: sku(1000, 'espresso') }));
  await expect(entry).toContainText(en('admin.activity.variantPrice', { sku: sku(250, 'wholeBean'), from: '€21.90', to: '€22.50' }));

  // In Polish, and on a phone, the table stays whole: labelled, and no wider than the screen.
  await page.goto(`/edit-product/${id}`);
  await waitForHydration(page);
  await switchLanguage(page, 'pl');
  await expect(variantField(page, 'price', 1, pl)).toHaveValue('22.50');
  await expectNoSeriousA11yViolations(page, { label: 'edit a product sold by size and grind (pl)' });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
  await expect(variantField(page, 'size', 1, pl)).toBeVisible();
});

test('in Polish, the owner makes a coffee’s sizes and grinds, switches one off and changes a price; the Polish product page follows', async ({ page, expectNoSeriousA11yViolations, consoleErrors }, testInfo) => {
  test.slow();
  consoleErrors.allow(failedLoad(404));
  await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: testInfo.project.use.baseURL! }]);
  await signUpAdmin(page, testInfo);
  await page.goto('/add-product');
  await waitForHydration(page);
  const name = unique(testInfo, 'Jawa Frinsa');
  await page.getByRole('main').getByLabel(new RegExp(`^${escapeRegExp(pl('admin.productForm.name'))}( \\*)?$`)).fill(name);
  await sellAs(page, 'sizeGrind', pl);
  await page.getByText(pl('admin.productForm.generator.title')).click();
  await page.getByLabel(pl('admin.productForm.generator.sizes')).fill('250, 1000');
  for (const grind of ['wholeBean', 'espresso']) await page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(pl(`grind.${grind}`))}$`, 'i') }).check();
  await page.getByLabel(pl('admin.productForm.generator.priceFor', { size: '250\u00a0g' })).fill('21,90');
  await page.getByLabel(pl('admin.productForm.generator.priceFor', { size: '1\u00a0kg' })).fill('74,90');
  await page.getByRole('button', { name: pl('admin.productForm.generator.make') }).click();
  await expect(page.getByRole('status').filter({ hasText: pl('admin.productForm.generator.made', { count: 4 }) })).toBeVisible();
  await expectNoSeriousA11yViolations(page, { label: 'variants table made (pl)' });
  await page.getByRole('button', { name: pl('admin.productForm.add') }).click();
  const status = page.getByRole('status').filter({ hasText: pl('admin.productForm.added') });
  await expect(status).toBeVisible({ timeout: 15_000 });
  const id = productIdFromHref((await status.getByRole('link').getAttribute('href'))!);

  // The Polish page: price and price per kilogram follow the choice.
  await page.goto(`/pl/product/${id}`);
  await waitForHydration(page);
  await expect(page.getByTestId('product-price')).toHaveText(price(2190, 'pl'));
  await page.getByTestId('variant-picker').getByText(/^1\skg$/).click();
  await page.getByTestId('variant-picker').getByText(pl('grind.espresso'), { exact: true }).click();
  await expect(page).toHaveURL(/size=1000&grind=espresso/);
  await expect(page.getByTestId('product-price')).toHaveText(price(7490, 'pl'));
  await expect(page.getByRole('main').getByTestId('unit-price').first()).toContainText(plainSpacesPattern(`${pl('product.unitPrice')}: ${price(7490, 'pl')} / kg`));

  // The kilo of espresso off sale, the 250 g whole bean dearer.
  await page.goto(`/edit-product/${id}`);
  await waitForHydration(page);
  await variantField(page, 'active', 4, pl).uncheck();
  await variantField(page, 'price', 1, pl).fill('22,50');
  await page.getByRole('button', { name: pl('admin.productForm.update') }).click();
  await expect(page.getByRole('status').filter({ hasText: pl('admin.productForm.updated') })).toBeVisible();
  await page.goto(`/pl/product/${id}?size=1000&grind=espresso`);
  await expect(page.getByTestId('not-offered')).toHaveText(pl('variant.notOffered'));
  await page.goto(`/pl/product/${id}?size=250&grind=wholeBean`);
  await expect(page.getByTestId('product-price')).toHaveText(price(2250, 'pl'));
});

test('delete asks first; then the coffee is gone from the grid, the search and the owner’s list, and its pictures answer 404', async ({ page }, testInfo) => {
  await signUpAdmin(page, testInfo);
  const name = unique(testInfo, 'Flores Bajawa');
  const id = await addProduct(page, name, [await picture('bajawa.jpg', '#553311')]);
  await page.goto(`/product/${id}`);
  const src = await page.getByTestId('gallery-main').locator('img').getAttribute('src');

  await page.goto('/');
  await waitForHydration(page);
  const card = page.getByTestId('product-grid').getByRole('article').filter({ hasText: name });
  await card.getByRole('link', { name: en('manage.deleteNamed', { name }) }).click();
  const dialog = page.getByRole('dialog', { name: en('manage.confirmTitle', { name }) });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: en('manage.cancel') }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toBeVisible();

  await card.getByRole('link', { name: en('manage.deleteNamed', { name }) }).click();
  await dialog.getByRole('button', { name: en('manage.confirmDelete') }).click();
  await expect(card).toHaveCount(0);
  expect(await gridNames(page)).not.toContain(name);

  await page.goto(`/?q=${encodeURIComponent(name)}`);
  expect(await gridNames(page)).not.toContain(name);
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await expect(page.getByTestId('admin-product-row')).toHaveCount(0);
  expect((await page.request.get(src!)).status()).toBe(404);
  expect((await page.request.get(`/product/${id}`)).status()).toBe(404);
});

test('the form says what is wrong, keeps what was typed, and refuses pictures by their bytes', async ({ page, consoleErrors }, testInfo) => {
  // Refused forms answer 400, unknown products 404.
  consoleErrors.allow(failedLoad(400));
  consoleErrors.allow(failedLoad(404));
  await signUpAdmin(page, testInfo);
  await page.goto('/add-product');
  await waitForHydration(page);
  const add = page.getByRole('button', { name: en('admin.productForm.add') });

  // Checked in the browser first.
  await field(page, 'price').fill('12.345');
  await add.click();
  await expect(page.getByText(en('admin.productForm.errors.nameRequired'))).toBeVisible();
  await expect(page.getByText(en('admin.productForm.errors.price'))).toBeVisible();
  await expect(field(page, 'name')).toBeFocused();
  await field(page, 'price').fill('');
  await add.click();
  await expect(page.getByText(en('admin.productForm.errors.priceRequired'))).toBeVisible();
  await expect(page.getByText(en('admin.productForm.errors.netWeightRequired'))).toBeVisible();
  await field(page, 'netWeight').fill('12.5');
  await add.click();
  await expect(page.getByText(en('admin.productForm.errors.netWeight'))).toBeVisible();
  await field(page, 'netWeight').fill('250');

  // A "picture" that is really text passes the browser's check (its declared type) but not the server's.
  const name = unique(testInfo, 'Not a picture');
  await field(page, 'name').fill(name);
  await field(page, 'price').fill('9');
  await field(page, 'namePl').fill('Nie zdjęcie');
  await page.getByLabel(en('admin.productForm.chooseImages')).setInputFiles([{ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('<svg onload=alert(1)>') }]);
  await add.click();
  await expect(page.getByRole('alert').filter({ hasText: en('admin.productForm.addFailed') })).toBeVisible();
  await expect(page.getByText(en('admin.productForm.errors.imageType', { file: 'notes.jpg' }))).toBeVisible();
  await expect(field(page, 'name')).toHaveValue(name);
  await expect(field(page, 'price')).toHaveValue('9');
  await expect(field(page, 'namePl')).toHaveValue('Nie zdjęcie');

  // Nothing was made.
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await expect(page.getByTestId('admin-product-row')).toHaveCount(0);

  // Edit: a malformed id and an unknown one.
  await page.goto('/edit-product/not%20an%20id');
  await expect(page.getByTestId('edit-problem')).toHaveText(en('admin.productForm.invalidId'));
  await page.goto('/edit-product/NoSuchProduct123');
  await expect(page.getByTestId('edit-problem')).toHaveText(en('admin.productForm.notFound'));
});

test('guests and customers are sent home from every back-office page and action, and nothing changes', async ({ page, browser }, testInfo) => {
  await signUpAdmin(page, testInfo);
  const name = unique(testInfo, 'Java Ijen');
  const id = await addProduct(page, name, []);

  const pages = ['/add-product', `/edit-product/${id}`, '/admin/products', `/admin/products/${id}/delete`, '/admin/activity', '/admin/orders'];
  const posts: [string, Record<string, string>][] = [
    ['/add-product', { name: 'Sneaky', price: '1' }],
    [`/edit-product/${id}`, { name: 'Hijacked', price: '0' }],
    [`/admin/products/${id}/delete`, { redirectTo: '/' }],
  ];
  for (const who of ['guest', 'customer'] as const) {
    const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': `10.9.${who === 'guest' ? 1 : 2}.${testInfo.retry + 1}` } });
    const visitor = await context.newPage();
    if (who === 'customer') await signUp(visitor, newAccount(testInfo, 'customer', 'Customer'));
    for (const path of pages) {
      await visitor.goto(path);
      await expect(visitor, `${who} on ${path}`).toHaveURL(/\/$/);
      await expect(visitor.getByRole('banner').getByRole('link', { name: en('manage.addProduct') })).toHaveCount(0);
    }
    await expect(visitor.getByTestId('admin-actions')).toHaveCount(0);
    for (const [path, form] of posts) {
      const response = await visitor.request.post(path, { multipart: form, maxRedirects: 0, headers: { Origin: new URL(visitor.url()).origin } });
      expect(response.status(), `${who} posting to ${path}`).toBe(302);
      expect(response.headers().location).toBe('/');
    }
    await context.close();
  }
  // The product is as it was, and nothing was added.
  await page.goto(`/product/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await page.goto('/admin/products?q=Sneaky');
  await expect(page.getByTestId('admin-product-row')).toHaveCount(0);
});

test('a coffee added without pictures shows the default coffee picture on its card, its page and in the cart, in both languages and on a phone', async ({ page, expectNoSeriousA11yViolations, consoleErrors }, testInfo) => {
  test.slow();
  consoleErrors.allow(failedLoad(404));
  await signUpAdmin(page, testInfo);
  const name = unique(testInfo, 'Sumba Wairinding');
  const id = await addProduct(page, name, []);

  await page.goto(`/?q=${encodeURIComponent(name)}`);
  const card = page.getByTestId('product-grid').getByRole('article').filter({ hasText: name });
  await expect(card.getByRole('img', { name: en('product.noImage') })).toHaveAttribute('src', '/default-coffee.svg');

  for (const locale of ['en', 'pl'] as const) {
    await page.goto(`${locale === 'pl' ? '/pl' : ''}/product/${id}`);
    const picture = page.getByRole('main').getByRole('img', { name: t(locale)('product.noImage') });
    await expect(picture).toHaveAttribute('src', '/default-coffee.svg');
    await expect(picture).toBeVisible();
    expect(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the picture loads').toBe(true);
    await expect(page.getByRole('button', { name: /^(Enlarge image|Powiększ zdjęcie)/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, { label: `product without pictures (${locale})` });
  }

  await page.goto(`/product/${id}`);
  await waitForHydration(page);
  await page.getByRole('main').getByRole('button', { name: new RegExp(`^${escapeRegExp(en('product.addToCart'))}`) }).first().click();
  await expectCartCount(page, 1);
  await page.goto('/cart');
  const line = page.getByTestId('cart-line').filter({ hasText: name });
  await expect(line.locator('img')).toHaveAttribute('src', '/default-coffee.svg');
  await expectNoSeriousA11yViolations(page, { label: 'cart with a product without pictures' });

  // On a phone nothing gets wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [`/pl/product/${id}`, '/pl/cart']) {
    await page.goto(path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), path).toBe(0);
  }
});

test('the back office passes axe in English and Polish', async ({ page, expectNoSeriousA11yViolations }, testInfo) => {
  test.slow(); // every back-office page through axe, twice: about 30 s on a 2-core machine
  await signUpAdmin(page, testInfo);
  const name = unique(testInfo, 'Bali Kintamani');
  const id = await addProduct(page, name, [await picture('a.jpg', '#884422')]);
  for (const locale of ['en', 'pl'] as const) {
    if (locale === 'pl') {
      await waitForHydration(page);
      await switchLanguage(page, 'pl');
    }
    for (const path of ['/add-product', `/edit-product/${id}`, '/admin/products', `/admin/products/${id}/delete`, '/admin/activity']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expectNoSeriousA11yViolations(page, { label: `${path} (${locale})` });
    }
    await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
    await waitForHydration(page);
    await page.getByRole('link', { name: t(locale)('manage.deleteNamed', { name }) }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolations(page, { label: `delete dialog (${locale})` });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  }
  // On a phone the owner's list scrolls inside its own box; the page itself does not get wider.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/products');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The Polish texts are really Polish.
  await page.goto('/add-product');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('admin.productForm.addHeading'));
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('an admin sells a coffee by size and grind and edits its variants, all by plain form posts', async ({ page, consoleErrors }, testInfo) => {
    // A combination switched off answers 404 (the page says why).
    consoleErrors.allow(failedLoad(404));
    await signUpAdmin(page, testInfo);
    await page.goto('/add-product');
    const name = unique(testInfo, 'Toraja Sapan');
    await field(page, 'name').fill(name);
    await sellAs(page, 'sizeGrind');
    await expect(field(page, 'price')).toBeHidden();
    // Empty rows wait for new variants; those left empty are ignored.
    await expect(page.getByTestId('variant-row')).toHaveCount(3);
    for (const [n, size, grind, price] of [[1, '250', 'wholeBean', '18,90'], [2, '1000', 'wholeBean', '64.90']] as const) {
      await variantField(page, 'size', n).fill(size);
      await variantField(page, 'grind', n).selectOption(grind);
      await variantField(page, 'price', n).fill(price);
    }
    await page.getByRole('button', { name: en('admin.productForm.add') }).click();
    const status = page.getByRole('status').filter({ hasText: en('admin.productForm.added') });
    await expect(status).toBeVisible();
    const id = productIdFromHref((await status.getByRole('link').getAttribute('href'))!);

    // The 250 g whole bean goes, the kilo costs less, 250 g espresso joins in an empty row.
    await page.goto(`/edit-product/${id}`);
    await expect(page.getByTestId('variant-row')).toHaveCount(2 + 3);
    await variantField(page, 'remove', 1).check();
    await variantField(page, 'price', 2).fill('62');
    await variantField(page, 'size', 3).fill('250');
    await variantField(page, 'grind', 3).selectOption('espresso');
    await variantField(page, 'price', 3).fill('19.90');
    await page.getByRole('button', { name: en('admin.productForm.update') }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });

    await page.goto(`/edit-product/${id}`);
    await expect(page.getByTestId('variant-row')).toHaveCount(2 + 3);
    await expect(variantField(page, 'size', 1)).toHaveValue('1000');
    await expect(variantField(page, 'price', 1)).toHaveValue('62.00');
    await expect(variantField(page, 'grind', 2)).toHaveValue('espresso');
    // The product page's choice is a GET form: each variant has its own URL.
    await page.goto(`/product/${id}?size=250&grind=espresso`);
    await expect(page.getByTestId('product-price')).toHaveText('€19.90');
    await page.goto(`/product/${id}?size=250&grind=wholeBean`);
    await expect(page.getByTestId('not-offered')).toBeVisible();
  });

  test('an admin adds, edits (removing a picture) and deletes through the confirmation page', async ({ page }, testInfo) => {
    await signUpAdmin(page, testInfo);
    await page.goto('/add-product');
    const name = unique(testInfo, 'Sumba');
    await field(page, 'name').fill(name);
    await field(page, 'price').fill('11');
    await field(page, 'netWeight').fill('1000');
    await page.getByLabel(en('admin.productForm.chooseImages')).setInputFiles([await picture('a.jpg', '#884422'), await picture('b.jpg', '#224488')]);
    await page.getByRole('button', { name: en('admin.productForm.add') }).click();
    const status = page.getByRole('status').filter({ hasText: en('admin.productForm.added') });
    await expect(status).toBeVisible();
    const id = productIdFromHref((await status.getByRole('link').getAttribute('href'))!);

    await page.goto(`/edit-product/${id}`);
    await page.getByTestId('current-images').getByRole('checkbox').first().check();
    await field(page, 'price').fill('10.5');
    const response = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(`/edit-product/${id}`));
    await page.getByRole('button', { name: en('admin.productForm.update') }).click();
    expect((await response).headers().refresh).toBe('1.5; url=/');
    await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
    await page.goto(`/edit-product/${id}`);
    await expect(page.getByTestId('current-images').getByRole('listitem')).toHaveCount(1);
    await expect(field(page, 'price')).toHaveValue('10.50');

    await page.goto(`/product/${id}`);
    await page.getByRole('link', { name: en('manage.deleteNamed', { name }) }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('manage.confirmTitle', { name }));
    await page.getByRole('button', { name: en('manage.confirmDelete') }).click();
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get(`/product/${id}`)).status()).toBe(404);
  });
});
