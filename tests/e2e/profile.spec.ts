/** The profile page: shipping and billing addresses ("Same as shipping") and the payment preference. */
import type { Locator, Page } from '@playwright/test';
import { t } from '../fixtures/i18n';
import { expect, failedLoad, test } from './fixtures';
import { waitForHydration } from './helpers';
import { expectFieldError, expectNoFieldError, newAccount, signUp } from './accounts';

const en = t('en');

const shippingGroup = (page: Page) => page.getByRole('main').getByRole('group', { name: en('profile.sections.shipping') });
const billingGroup = (page: Page) => page.getByRole('main').getByRole('group', { name: en('profile.sections.billing') });
const field = (group: Locator, key: 'fullName' | 'address' | 'city' | 'zipCode') => group.getByLabel(en(`profile.fields.${key}`), { exact: true });
const sameAsShipping = (page: Page) => billingGroup(page).getByRole('checkbox', { name: en('profile.fields.sameAsShipping') });
const payment = (page: Page, method: 'creditCard' | 'blik' | 'przelewy24') =>
  page.getByRole('group', { name: en('profile.fields.paymentMethod') }).getByRole('radio', { name: en(`profile.paymentMethods.${method}`) });
const save = (page: Page) => page.getByRole('main').getByRole('button', { name: en('profile.save') });
const saved = (page: Page) => page.getByRole('status').filter({ hasText: en('profile.saved') });

type Address = { address: string; city: string; zipCode: string };

async function fillAddress(group: Locator, values: Partial<Address & { fullName: string }>) {
  for (const [key, value] of Object.entries(values)) await field(group, key as keyof typeof values).fill(value);
}

async function expectAddress(group: Locator, values: Partial<Address & { fullName: string }>) {
  for (const [key, value] of Object.entries(values)) await expect(field(group, key as keyof typeof values)).toHaveValue(value);
}

const shipping = { fullName: 'Ola Profil', address: 'ul. Długa 5', city: 'Gdańsk', zipCode: '80-827' };
const billing: Address = { address: 'ul. Krótka 1', city: 'Sopot', zipCode: '81-701' };

test('shipping and billing are saved; Same as shipping hides and fills the billing address', async ({ page }, testInfo) => {
  const account = newAccount(testInfo, 'ola.profile', 'Ola Profil');
  await signUp(page, account);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('profile.title'));
  await expect(page.getByText(en('profile.signedInAs', { name: account.name, email: account.email }))).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: en('profile.tabsLabel') }).getByRole('link', { name: en('profile.tabs.profile') }),
  ).toHaveAttribute('aria-current', 'page');
  await waitForHydration(page);

  // A new profile: empty, billing the same as shipping, paying by card.
  await expect(sameAsShipping(page)).toBeChecked();
  await expect(field(billingGroup(page), 'address')).toHaveCount(0);
  await expect(payment(page, 'creditCard')).toBeChecked();

  await save(page).click();
  await expectFieldError(field(shippingGroup(page), 'fullName'), en('profile.errors.fullNameRequired'));
  await expectFieldError(field(shippingGroup(page), 'address'), en('profile.errors.addressRequired'));
  await expectFieldError(field(shippingGroup(page), 'city'), en('profile.errors.cityRequired'));
  await expectFieldError(field(shippingGroup(page), 'zipCode'), en('profile.errors.zipCodeRequired'));
  await expect(field(shippingGroup(page), 'fullName')).toBeFocused();

  await fillAddress(shippingGroup(page), shipping);
  await save(page).click();
  await expect(saved(page)).toBeVisible();
  await expectNoFieldError(field(shippingGroup(page), 'fullName'));
  await page.reload();
  await expectAddress(shippingGroup(page), shipping);
  await expect(sameAsShipping(page)).toBeChecked();
  await waitForHydration(page);

  // Unticked, the billing address starts as the shipping one and must be complete.
  await sameAsShipping(page).uncheck();
  await expectAddress(billingGroup(page), { address: shipping.address, city: shipping.city, zipCode: shipping.zipCode });
  await field(billingGroup(page), 'address').fill('');
  await save(page).click();
  await expectFieldError(field(billingGroup(page), 'address'), en('profile.errors.billingAddressRequired'));
  await expect(field(billingGroup(page), 'address')).toBeFocused();

  await fillAddress(billingGroup(page), billing);
  await payment(page, 'blik').check();
  await save(page).click();
  await expect(saved(page)).toBeVisible();
  await page.reload();
  await expect(sameAsShipping(page)).not.toBeChecked();
  await expectAddress(shippingGroup(page), shipping);
  await expectAddress(billingGroup(page), billing);
  await expect(payment(page, 'blik')).toBeChecked();
  await waitForHydration(page);

  // Ticked again, billing follows shipping.
  await sameAsShipping(page).check();
  await expect(field(billingGroup(page), 'address')).toHaveCount(0);
  await save(page).click();
  await expect(saved(page)).toBeVisible();
  await page.reload();
  await expect(sameAsShipping(page)).toBeChecked();
  await sameAsShipping(page).uncheck();
  await expectAddress(billingGroup(page), { address: shipping.address, city: shipping.city, zipCode: shipping.zipCode });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts; unticking Same as shipping asks the server for a billing address', async ({ page, consoleErrors }, testInfo) => {
    consoleErrors.allow(failedLoad(400));
    await signUp(page, newAccount(testInfo, 'ola.profile.nojs'));
    await page.goto('/profile');
    await fillAddress(shippingGroup(page), shipping);
    await sameAsShipping(page).uncheck();
    await save(page).click();

    await expectFieldError(field(billingGroup(page), 'address'), en('profile.errors.billingAddressRequired'));
    await expectFieldError(field(billingGroup(page), 'city'), en('profile.errors.billingCityRequired'));
    await expectFieldError(field(billingGroup(page), 'zipCode'), en('profile.errors.billingZipCodeRequired'));
    await expect(sameAsShipping(page)).not.toBeChecked();
    await expectAddress(shippingGroup(page), shipping);

    await fillAddress(billingGroup(page), billing);
    await payment(page, 'przelewy24').check();
    await save(page).click();
    await expect(saved(page)).toBeVisible();
    await page.goto('/profile');
    await expectAddress(billingGroup(page), billing);
    await expect(payment(page, 'przelewy24')).toBeChecked();
  });
});

for (const language of ['en', 'pl'] as const) {
  test(`the phone checkout passes to the courier is kept in the profile: saved, changed, a wrong one refused (${language})`, async ({ page }, testInfo) => {
    const tr = t(language);
    const account = newAccount(testInfo, `ola.phone-${language}`, 'Ola Telefon');
    await signUp(page, account);
    await page.goto(language === 'en' ? '/profile' : '/pl/profile');
    await waitForHydration(page);
    await expect(page.getByText(tr('profile.paymentNote'))).toBeVisible();
    const group = page.getByRole('main').getByRole('group', { name: tr('profile.sections.shipping') });
    for (const key of ['fullName', 'address', 'city', 'zipCode'] as const) await group.getByLabel(tr(`profile.fields.${key}`), { exact: true }).fill(shipping[key]);
    const phone = group.getByLabel(tr('profile.fields.phone'), { exact: true });
    await phone.fill('call me');
    await page.getByRole('main').getByRole('button', { name: tr('profile.save') }).click();
    await expectFieldError(phone, tr('profile.errors.phoneInvalid'));
    await phone.fill('601 234 567');
    await page.getByRole('main').getByRole('button', { name: tr('profile.save') }).click();
    await expect(page.getByRole('status').filter({ hasText: tr('profile.saved') })).toBeVisible();
    await page.reload();
    await expect(group.getByLabel(tr('profile.fields.phone'), { exact: true })).toHaveValue('601234567');
  });
}
