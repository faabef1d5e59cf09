import { TicketPercent, X } from 'lucide-react';
import { useFetcher } from 'react-router';
import { formatPrice } from '~/lib/format';
import type { CartCode } from '~/modules/cart/cart.types';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import type { Currency } from '~/modules/pricing/currencies';

type Refused = { reason: string; minimumCents?: number };

/** Why a code takes nothing off, in the shopper's words ("This code has expired."). */
function useReason() {
  const { t, locale } = useI18n();
  return (reason: string, currency: Currency, minimumCents?: number) =>
    t(`cart.code.errors.${reason}`, { amount: minimumCents !== undefined ? formatPrice(minimumCents, currency, locale) : '' });
}

/** The summary's discount row: what the code takes off (or that it makes the delivery free), with its remove button. */
export function CodeRow({ code, currency }: { code: CartCode | null; currency: Currency }) {
  const { t, locale } = useI18n();
  const path = useLocalePath();
  const fetcher = useFetcher();
  if (!code?.applies) return null;
  const removing = fetcher.state !== 'idle';
  return (
    <div className={`flex flex-wrap items-start justify-between gap-x-3 gap-y-1 ${removing ? 'opacity-50' : ''}`} data-testid="cart-discount">
      <dt className="flex items-center gap-2 text-leaf-dark">
        <TicketPercent aria-hidden="true" className="h-4 w-4 shrink-0" />
        <span>{code.freeDelivery ? t('cart.code.freeDelivery', { code: code.code }) : t('cart.code.discount', { code: code.code })}</span>
        <fetcher.Form method="post" action={path('/cart')}>
          <input type="hidden" name="intent" value="uncode" />
          <input type="hidden" name="redirectTo" value={path('/cart')} />
          <button type="submit" className="rounded-full p-1 text-muted hover:bg-sand hover:text-roast focus-visible:ring-2 focus-visible:ring-leaf focus-visible:outline-none" aria-label={t('cart.code.removeLabel', { code: code.code })} data-testid="remove-code">
            <X aria-hidden="true" className="h-3.5 w-3.5" />
          </button>
        </fetcher.Form>
      </dt>
      {!code.freeDelivery && <dd className="tabular-nums text-leaf-dark" data-testid="cart-discount-amount">−{formatPrice(code.goodsCents, currency, locale)}</dd>}
      {code.leftOnSale && code.leftOnSale.length > 0 && (
        <dd className="basis-full text-sm text-muted" data-testid="code-left-on-sale">
          {t('cart.code.leftOnSale', { code: code.code, names: code.leftOnSale.join(', ') })}
        </dd>
      )}
    </div>
  );
}

/**
 * The code field under the summary. It posts to /cart (without JavaScript too); a refused code is said under the
 * field, and a code entered earlier that no longer applies (a line removed, its end passed) says why.
 */
export function CartCodeForm({ code, currency, refused }: { code: CartCode | null; currency: Currency; refused?: Refused }) {
  const { t } = useI18n();
  const path = useLocalePath();
  const fetcher = useFetcher<Refused & { ok: boolean }>();
  const reason = useReason();
  const answer = fetcher.data && !fetcher.data.ok ? fetcher.data : fetcher.state === 'idle' && !fetcher.data ? refused : undefined;
  const busy = fetcher.state !== 'idle';
  if (code?.applies) return null;
  return (
    <div className="mt-5 border-t border-sand pt-4">
      {code && !code.applies && !answer && (
        <p className="mb-3 rounded-2xl bg-cherry-light px-3 py-2 text-sm text-cherry" role="status" data-testid="code-not-applied">
          {t('cart.code.notApplied', { code: code.code, reason: reason(code.reason, currency, code.minimumCents) })}
        </p>
      )}
      <fetcher.Form method="post" action={path('/cart')} className="grid gap-2" data-testid="code-form">
        <input type="hidden" name="intent" value="code" />
        <label htmlFor="discount-code" className="text-sm font-medium">{t('cart.code.label')}</label>
        <div className="flex gap-2">
          <input
            id="discount-code"
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            required
            className="field-input min-w-0 flex-1 uppercase"
            aria-invalid={answer ? true : undefined}
            aria-describedby={answer ? 'discount-code-error' : undefined}
          />
          <button type="submit" className="btn-outline shrink-0 px-4 py-2 text-sm" disabled={busy} data-testid="apply-code">{t('cart.code.apply')}</button>
        </div>
        <div aria-live="polite">
          {answer && (
            <p id="discount-code-error" className="field-error" data-testid="code-error">{reason(answer.reason, currency, answer.minimumCents)}</p>
          )}
        </div>
      </fetcher.Form>
    </div>
  );
}

