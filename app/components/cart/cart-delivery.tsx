import { Form, useSubmit } from 'react-router';
import { byName, countryName } from '~/modules/delivery/countries';
import { formatPrice } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';
import type { Currency } from '~/modules/pricing/currencies';

export type CartDeliveryData = {
  /** The cart's currency: every amount here is in it. */
  currency: Currency;
  country: string;
  countries: string[];
  /** The cheapest way to the shopper's door or locker for this cart, null when none takes it. */
  cheapest: { kind: 'locker' | 'courier' | 'pickup'; priceCents: number } | null;
  toFree: number | null;
};

/** The cart's delivery rows (in its summary's list): the cheapest delivery for this cart and how much more makes it free. */
export function CartDelivery({ delivery }: { delivery: CartDeliveryData }) {
  const { t, locale } = useI18n();
  const price = (cents: number) => formatPrice(cents, delivery.currency, locale);
  return (
    <div className="flex justify-between gap-4" data-testid="cart-delivery">
      <dt className="text-muted">{t('delivery.delivery')}</dt>
      <dd className="text-right">
        <span className="tabular-nums" data-testid="cart-delivery-price">
          {delivery.cheapest === null
            ? t('delivery.noneFor', { country: countryName(delivery.country, locale) })
            : delivery.cheapest.priceCents === 0
              ? t('delivery.freeNow')
              : t('delivery.cheapest', { price: price(delivery.cheapest.priceCents), method: t(`delivery.kindsShort.${delivery.cheapest.kind}`) })}
        </span>
        {delivery.toFree !== null && delivery.toFree > 0 && (
          <span className="mt-1 block text-xs text-leaf-dark" data-testid="cart-to-free">{t('delivery.toFree', { amount: price(delivery.toFree) })}</span>
        )}
      </dd>
    </div>
  );
}

/** The country the cart's delivery is quoted for: a GET form that reloads the page with its prices (with JavaScript, on change). */
export function CartCountry({ delivery }: { delivery: CartDeliveryData }) {
  const { t, locale } = useI18n();
  const submit = useSubmit();
  const countries = byName(delivery.countries, locale);
  return (
    <Form method="get" replace preventScrollReset className="flex items-end gap-2" data-testid="cart-country-form">
      <div className="flex-1">
        <label htmlFor="cart-country" className="text-xs text-muted">{t('delivery.country')}</label>
        <select
          id="cart-country"
          name="country"
          defaultValue={delivery.country}
          className="field-input mt-1 py-2 text-sm"
          onChange={(event) => submit(event.currentTarget.form, { replace: true, preventScrollReset: true })}
        >
          {countries.map((code) => (
            <option key={code} value={code}>{countryName(code, locale)}</option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-outline px-3 py-2 text-xs">{t('delivery.update')}</button>
    </Form>
  );
}
