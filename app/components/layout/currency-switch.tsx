import { Form } from 'react-router';
import { useI18n } from '~/modules/i18n/react';
import { currencies } from '~/modules/pricing/currencies';

/**
 * EUR / PLN: the currency prices are shown and paid in. A form post (it works without JavaScript) that comes
 * back to the same page, now priced in the chosen currency; the choice is remembered (a cookie) and the cart is
 * priced in it. The current one is pressed.
 */
export function CurrencySwitch({ here, className = '' }: { here: string; className?: string }) {
  const { t, currency } = useI18n();
  return (
    <Form method="post" action="/currency" preventScrollReset className={className} data-testid="currency-switch">
      <input type="hidden" name="redirectTo" value={here} />
      <div role="group" aria-label={t('currency.label')} className="flex rounded-full bg-sand/60 p-0.5 text-xs font-semibold">
        {currencies.map((c) => (
          <button
            key={c}
            type="submit"
            name="currency"
            value={c}
            aria-pressed={c === currency}
            title={t(`currency.names.${c}`)}
            className={`min-h-9 min-w-11 rounded-full px-2 ${c === currency ? 'bg-roast text-cream' : 'text-roast-600 hover:bg-roast/10'}`}
          >
            {c}
          </button>
        ))}
      </div>
    </Form>
  );
}
