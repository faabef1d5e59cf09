import { MapPin, Search, Store, Truck } from 'lucide-react';
import type { Currency } from '~/modules/pricing/currencies';
import { useState } from 'react';
import { Form, useNavigation, useSubmit } from 'react-router';
import { FormField } from '~/components/ui/form-field';
import { formatNumber, formatPrice } from '~/lib/format';
import { useClientValidation } from '~/lib/use-client-validation';
import type { SummaryLine } from '~/components/checkout/order-lines';
import type { CartCode } from '~/modules/cart/cart.types';
import { type DeliveryField, type MethodKind, parseDeliveryForm } from '~/modules/checkout/checkout.schema';
import { byName, countryName } from '~/modules/delivery/countries';
import type { DeliveryOption } from '~/modules/delivery/rates';
import type { Locker } from '~/modules/delivery/lockers.server';
import type { Remembered } from '~/modules/checkout/delivery-step.server';
import { useI18n } from '~/modules/i18n/react';
import { BuyerFields } from '~/components/invoices/buyer-fields';
import type { BuyerErrors } from '~/modules/invoices/buyer';

export type DeliveryStepData = {
  cart: { currency: Currency; totalCents: number; code: CartCode | null; lines: Array<Omit<SummaryLine, 'key'> & { variantId: string }>; stockCapped: Array<{ variantId: string; name: string; left: number }> };
  address: { fullName: string; address: string; city: string; zipCode: string };
  phone: string;
  country: string;
  countries: string[];
  options: DeliveryOption[];
  toFree: number | null;
  lockerSearch: { query: string; lockers: Locker[]; near?: boolean; unavailable: boolean; limited?: boolean } | null;
  /** The country whose VAT the prices follow (OSS, the owner's choice), or null. */
  pricesIn?: string | null;
  /** A guest (the owner accepts them): they give their email, and there is no profile to save to. */
  guest?: boolean;
  /** Whether the shop issues invoices (its legal details are set): the buyer may ask for one here. */
  invoices?: boolean;
  /** The form as the shopper filled it for the cart's latest order (back from paying, nothing is typed again). */
  remembered?: Remembered | null;
};

export type DeliveryResult = { step: 'delivery'; fieldErrors?: Partial<Record<DeliveryField, string>>; invoiceErrors?: BuyerErrors; formError?: string; values?: Record<string, string> };

const kindIcons = { locker: MapPin, courier: Truck, pickup: Store } as const;

/**
 * The delivery step: the country (a GET form), then one form with the way the order comes (each with its
 * price for this parcel), a locker for a locker (found by a GET search, whose form sits apart and whose fields
 * are placed here with `form=`), and the recipient. Works without JavaScript; with it the country reloads on
 * change and the client checks the form before sending it.
 */
/** The way chosen first: the one posted, the one in the address, the one chosen last time, or the only one there is. */
export const initialMethodOf = (step: DeliveryStepData, chosen: { methodId: string | null }, result?: DeliveryResult): string | null => {
  const offered = (id: string | null | undefined) => (id && step.options.some((o) => o.methodId === id) ? id : null);
  return offered(result?.values?.methodId) ?? offered(chosen.methodId) ?? offered(step.remembered?.values.methodId) ?? (step.options.length === 1 ? step.options[0].methodId : null);
};

export function DeliveryStepForm({
  step,
  result,
  chosen,
  visitorField,
  onMethod,
}: {
  step: DeliveryStepData;
  result?: DeliveryResult;
  chosen: { methodId: string | null; lockerCode: string | null };
  visitorField: React.ReactNode;
  /** Told the way as the shopper picks it (the summary beside the form prices it). */
  onMethod?: (methodId: string) => void;
}) {
  const { t, locale } = useI18n();
  const price = (cents: number) => formatPrice(cents, step.cart.currency, locale);
  const submit = useSubmit();
  const busy = useNavigation().state === 'submitting';
  const kindOf = (id: string): MethodKind | undefined => step.options.find((o) => o.methodId === id)?.kind;
  const validation = useClientValidation((data: FormData) => parseDeliveryForm(data, kindOf));
  const errors: Partial<Record<string, string>> = validation.errors ?? result?.fieldErrors ?? {};
  // What was posted (the form came back with an error), else what was chosen last time.
  const values = result?.values ?? step.remembered?.values;
  const [methodId, setMethodId] = useState<string | null>(initialMethodOf(step, chosen, result));
  const kind = methodId ? kindOf(methodId) : undefined;
  const needsAddress = kind === 'courier' || kind === undefined;
  const lockerOption = step.options.find((o) => o.kind === 'locker');
  const lockerCode = result?.values?.lockerCode ?? chosen.lockerCode ?? step.remembered?.values.lockerCode ?? '';
  const lockerAddress = lockerCode && lockerCode === step.remembered?.values.lockerCode ? step.remembered.lockerAddress : null;
  const field = (name: 'fullName' | 'address' | 'city' | 'zipCode') => values?.[name] ?? step.address[name];
  const distance = (meters: number) => (meters < 1000 ? `${formatNumber(meters, locale)} m` : `${formatNumber(Math.round(meters / 100) / 10, locale)} km`);

  return (
    <div className="grid gap-6">
      <Form method="get" className="flex flex-wrap items-end gap-3" data-testid="delivery-country-form">
        <input type="hidden" name="step" value="delivery" />
        <div className="min-w-48 flex-1">
          <label htmlFor="delivery-country" className="field-label">{t('delivery.country')}</label>
          <select
            id="delivery-country"
            name="country"
            defaultValue={step.country}
            className="field-input"
            aria-invalid={errors.country ? true : undefined}
            onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true, replace: true })}
          >
            {byName(step.countries, locale).map((code) => (
              <option key={code} value={code}>{countryName(code, locale)}</option>
            ))}
          </select>
          {errors.country && <p className="field-error">{t(errors.country)}</p>}
        </div>
        <button type="submit" className="btn-outline px-4 py-2.5 text-sm">{t('delivery.update')}</button>
      </Form>

      {/* The locker search: its fields sit in the methods below (form="locker-search"); forms cannot nest. */}
      <Form method="get" id="locker-search" preventScrollReset replace>
        <input type="hidden" name="step" value="delivery" />
        <input type="hidden" name="country" value={step.country} />
        {lockerOption && <input type="hidden" name="method" value={lockerOption.methodId} />}
      </Form>

      <Form method="post" noValidate onSubmit={validation.onSubmit} className="grid gap-6" data-testid="delivery-form">
        <input type="hidden" name="intent" value="proceed" />
        <input type="hidden" name="country" value={step.country} />
        {visitorField}
        <fieldset aria-describedby={errors.methodId ? 'delivery-method-error' : undefined}>
          <legend className="text-lg font-semibold">{t('checkout.shipping.heading')}</legend>
          {step.options.length === 0 ? (
            <p role="alert" className="mt-3 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">
              {t('checkout.shipping.noMethods', { country: countryName(step.country, locale) })}
            </p>
          ) : (
            <ul className="mt-3 grid gap-3">
              {step.options.map((option) => {
                const Icon = kindIcons[option.kind];
                return (
                  <li key={option.methodId}>
                    <label className="flex cursor-pointer items-start gap-3 rounded-2xl bg-cream/60 p-4 ring-1 ring-sand has-[:checked]:bg-leaf-light/60 has-[:checked]:ring-2 has-[:checked]:ring-leaf has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-roast">
                      <input
                        type="radio"
                        name="methodId"
                        value={option.methodId}
                        defaultChecked={option.methodId === methodId}
                        onChange={() => {
                          setMethodId(option.methodId);
                          onMethod?.(option.methodId);
                        }}
                        className="mt-1 h-4 w-4 accent-leaf"
                        data-kind={option.kind}
                      />
                      <Icon aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-leaf" />
                      <span className="flex-1">
                        {/* The price stays on the name's first line however long the name ("Gratis" alone on a line read as a fault). */}
                        <span className="flex items-baseline justify-between gap-3 font-semibold">
                          <span className="min-w-0" data-testid="delivery-option-name">{t(`delivery.kinds.${option.kind}`)}</span>
                          <span className="shrink-0 whitespace-nowrap tabular-nums" data-testid="delivery-option-price">
                            {option.priceCents === 0 ? t('delivery.free') : price(option.priceCents)}
                          </span>
                        </span>
                        {option.kind === 'pickup' && (
                          <span className="mt-1 block text-sm text-roast-600">
                            {option.pickupAddress}
                            {(locale === 'pl' ? option.pickupHours.pl : option.pickupHours.en) && (
                              <span className="block">{t('checkout.shipping.pickupHours', { hours: locale === 'pl' ? option.pickupHours.pl : option.pickupHours.en })}</span>
                            )}
                          </span>
                        )}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
          {errors.methodId && <p id="delivery-method-error" className="field-error">{t(errors.methodId)}</p>}
          {step.toFree !== null && step.toFree > 0 && (
            <p className="mt-3 text-sm text-leaf-dark" data-testid="delivery-to-free">{t('delivery.toFree', { amount: price(step.toFree) })}</p>
          )}
        </fieldset>

        {lockerOption && (kind === 'locker' || kind === undefined) && (
          <fieldset className="rounded-2xl p-4 ring-1 ring-sand" data-testid="locker-picker" aria-describedby={errors.lockerCode ? 'locker-error' : 'locker-hint'}>
            <legend className="px-1 font-semibold">{t('checkout.shipping.lockerHeading')}</legend>
            <p id="locker-hint" className="text-sm text-muted">{t('checkout.shipping.lockerHint')}</p>
            <div className="mt-3 flex flex-wrap items-end gap-3">
              <div className="min-w-48 flex-1">
                <label htmlFor="locker-query" className="field-label">{t('checkout.shipping.lockerSearch')}</label>
                <input id="locker-query" form="locker-search" name="lockerQuery" type="search" maxLength={60} defaultValue={step.lockerSearch?.query ?? ''} className="field-input" autoComplete="off" />
              </div>
              <button type="submit" form="locker-search" className="btn-outline px-4 py-2.5 text-sm">
                <Search aria-hidden="true" className="h-4 w-4" />
                {t('checkout.shipping.lockerSearchButton')}
              </button>
            </div>
            <div aria-live="polite">
              {step.lockerSearch?.unavailable && <p className="mt-3 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">{t('checkout.shipping.lockersUnavailable')}</p>}
              {step.lockerSearch?.limited && (
                <p className="mt-3 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="lockers-limited">
                  {t('checkout.shipping.lockersLimited')}
                </p>
              )}
              {step.lockerSearch && !step.lockerSearch.unavailable && !step.lockerSearch.limited && (
                <p className="mt-3 text-sm text-muted" data-testid="lockers-found">
                  {step.lockerSearch.lockers.length === 0
                    ? t('checkout.shipping.lockersNone', { query: step.lockerSearch.query })
                    : t(step.lockerSearch.near ? 'checkout.shipping.lockersFound' : 'checkout.shipping.lockersFor', { count: step.lockerSearch.lockers.length, query: step.lockerSearch.query })}
                </p>
              )}
            </div>
            {step.lockerSearch && step.lockerSearch.lockers.length > 0 && (
              <ul className="mt-3 grid gap-2" data-testid="lockers">
                {step.lockerSearch.lockers.map((locker) => (
                  <li key={locker.code}>
                    <label className="flex cursor-pointer items-start gap-3 rounded-xl bg-cream/60 p-3 text-sm ring-1 ring-sand has-[:checked]:bg-leaf-light/60 has-[:checked]:ring-2 has-[:checked]:ring-leaf has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-roast">
                      <input type="radio" name="lockerCode" value={locker.code} defaultChecked={locker.code === lockerCode} className="mt-1 h-4 w-4 accent-leaf" />
                      <span className="flex-1">
                        <span className="flex flex-wrap justify-between gap-2">
                          <span className="font-semibold">{locker.code}</span>
                          {locker.distanceMeters !== null && <span className="text-muted">{t('checkout.shipping.away', { distance: distance(locker.distanceMeters) })}</span>}
                        </span>
                        <span className="block">{locker.address}</span>
                        {locker.description && <span className="block text-muted">{locker.description}</span>}
                        {locker.hours && <span className="block text-muted">{t('checkout.shipping.open', { hours: locker.hours })}</span>}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
            {/* A locker chosen before the last search (the form came back with an error, or back from paying) stays chosen, and is said. */}
            {lockerCode && !step.lockerSearch?.lockers.some((l) => l.code === lockerCode) && (
              <p className="mt-3 flex items-start gap-2 rounded-xl bg-leaf-light/60 p-3 text-sm ring-1 ring-leaf" data-testid="locker-chosen">
                <input type="hidden" name="lockerCode" value={lockerCode} />
                <MapPin aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-leaf" />
                <span>
                  <span className="font-semibold">{t('checkout.shipping.lockerChosen', { code: lockerCode })}</span>
                  {lockerAddress && <span className="block">{lockerAddress}</span>}
                  <span className="block text-muted">{t('checkout.shipping.lockerChange')}</span>
                </span>
              </p>
            )}
            {errors.lockerCode && <p id="locker-error" className="field-error">{t(errors.lockerCode)}</p>}
          </fieldset>
        )}

        <fieldset className="grid gap-4">
          <legend className="text-lg font-semibold">{t('checkout.shipping.recipient')}</legend>
          {kind === 'pickup' && <p className="-mt-2 text-sm text-muted">{t('checkout.shipping.recipientPickup')}</p>}
          {kind === 'locker' && <p className="-mt-2 text-sm text-muted" data-testid="recipient-locker">{t('checkout.shipping.recipientLocker')}</p>}
          {step.guest && (
            <FormField name="email" type="email" label={t('checkout.guest.email')} autoComplete="email" defaultValue={values?.email ?? ''} error={errors.email} hint={t('checkout.guest.emailHint')} maxLength={254} required />
          )}
          <FormField name="fullName" label={t('checkout.address.fullName')} autoComplete="name" defaultValue={field('fullName')} error={errors.fullName} maxLength={120} required />
          {/* A locker needs no street: the fields stay (kept should the shopper switch back) but hide while a locker is checked, by CSS (app.css), so without JavaScript too. */}
          <div className="street-address grid gap-4" data-testid="recipient-address">
            <FormField name="address" label={t('checkout.address.address')} autoComplete="street-address" defaultValue={field('address')} error={errors.address} maxLength={200} required={needsAddress} />
            <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
              <FormField name="city" label={t('checkout.address.city')} autoComplete="address-level2" defaultValue={field('city')} error={errors.city} maxLength={100} required={needsAddress} />
              <FormField name="zipCode" label={t('checkout.address.zipCode')} autoComplete="postal-code" defaultValue={field('zipCode')} error={errors.zipCode} maxLength={20} required={needsAddress} />
            </div>
          </div>
          <FormField
            name="phone"
            type="tel"
            label={t('checkout.shipping.phone')}
            autoComplete="tel"
            inputMode="tel"
            defaultValue={values?.phone ?? step.phone}
            error={errors.phone}
            hint={t('checkout.shipping.phoneHint')}
            maxLength={24}
            required={kind === 'locker'}
          />
          {!step.guest && (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="saveToProfile" defaultChecked={values ? values.saveToProfile === 'on' : true} className="h-4 w-4 accent-leaf" />
              {t('checkout.shipping.saveToProfile')}
            </label>
          )}
        </fieldset>

        {step.invoices && (
        <details className="group rounded-2xl bg-cream/60 px-4 py-3 ring-1 ring-sand" open={values?.invoice === 'on' || Boolean(result?.invoiceErrors)} data-testid="checkout-invoice">
          <summary className="cursor-pointer text-sm font-semibold">{t('invoices.checkout.summary')}</summary>
          <div className="mt-3 grid gap-4">
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="invoice" defaultChecked={values?.invoice === 'on'} className="h-4 w-4 accent-leaf" />
              {t('invoices.checkout.want')}
            </label>
            <p className="text-xs text-muted">{t('invoices.checkout.billingHint')}</p>
            <BuyerFields
              idPrefix="checkout-invoice"
              required={false}
              errors={result?.invoiceErrors}
              values={{
                name: values?.invoiceName ?? '',
                taxId: values?.invoiceTaxId ?? '',
                country: values?.invoiceCountry ?? (step.country || 'PL'),
                address: values?.invoiceAddress ?? step.address.address,
                zipCode: values?.invoiceZipCode ?? step.address.zipCode,
                city: values?.invoiceCity ?? step.address.city,
              }}
            />
          </div>
        </details>
        )}

        <div role="alert">{result?.formError && <p className="rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">{t(result.formError)}</p>}</div>
        <button type="submit" className="btn-primary w-full py-3.5 text-base" disabled={busy || step.options.length === 0}>
          {t('checkout.proceed')}
        </button>
      </Form>
    </div>
  );
}
