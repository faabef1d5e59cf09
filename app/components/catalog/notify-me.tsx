import { BellRing } from 'lucide-react';
import { useId } from 'react';
import { Link, useFetcher } from 'react-router';
import { useClientValidation } from '~/lib/use-client-validation';
import { parseAlertForm } from '~/modules/alerts/alerts.schema';
import { useI18n, useLocalePath } from '~/modules/i18n/react';

export type NotifyResult =
  | { notify: 'subscribed'; email: string }
  | { notify: 'invalid'; fieldErrors: Partial<Record<'email' | 'consent' | 'variantId', string>>; email: string }
  | { notify: 'available' | 'limited' | 'not_found'; email: string };

/**
 * In place of "Add to cart" on a sold-out variant: an email address and the shopper's consent for one mail when
 * it is back. A fetcher with JavaScript; without it the form posts to the page, which answers in place.
 */
export function NotifyMe({ variantId, result }: { variantId: string; result?: NotifyResult }) {
  const { t } = useI18n();
  const path = useLocalePath();
  const fetcher = useFetcher<NotifyResult>({ key: `notify:${variantId}` });
  const validation = useClientValidation(parseAlertForm);
  const id = useId();
  const answer = fetcher.data ?? result;
  const serverErrors = answer?.notify === 'invalid' ? answer.fieldErrors : {};
  const errors = validation.errors ?? serverErrors;
  const busy = fetcher.state !== 'idle';
  const message =
    answer?.notify === 'subscribed'
      ? t('product.notify.done', { email: answer.email })
      : answer?.notify === 'available'
        ? t('product.notify.available')
        : answer?.notify === 'limited'
          ? t('product.notify.limited')
          : answer?.notify === 'not_found' || errors.variantId
            ? t('product.notify.errors.variant')
            : '';
  return (
    <section aria-labelledby={`${id}-heading`} className="mt-8 rounded-3xl bg-paper p-5 ring-1 ring-sand sm:p-6" data-testid="notify-me">
      <h2 id={`${id}-heading`} className="flex items-center gap-2 text-lg font-semibold">
        <BellRing aria-hidden="true" className="h-5 w-5 text-leaf" />
        {t('product.notify.heading')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('product.stock.soldOutText')}</p>
      {answer?.notify === 'subscribed' ? (
        <p role="status" className="mt-4 rounded-2xl bg-leaf-light px-4 py-3 text-sm text-leaf-dark">{message}</p>
      ) : (
        <fetcher.Form method="post" noValidate onSubmit={validation.onSubmit} className="mt-4 grid gap-3">
          <input type="hidden" name="intent" value="notify" />
          <input type="hidden" name="variantId" value={variantId} />
          <div>
            <label htmlFor={`${id}-email`} className="field-label">{t('product.notify.email')}</label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={answer?.email}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? `${id}-email-error` : undefined}
              className="field-input"
            />
            {errors.email && <p id={`${id}-email-error`} className="field-error">{t(errors.email)}</p>}
          </div>
          <div>
            <label className="flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                name="consent"
                value="yes"
                required
                aria-invalid={errors.consent ? true : undefined}
                aria-describedby={errors.consent ? `${id}-consent-error` : undefined}
                className="mt-0.5 h-5 w-5 shrink-0 accent-leaf"
              />
              <span>{t('product.notify.consent')}</span>
            </label>
            {errors.consent && <p id={`${id}-consent-error`} className="field-error">{t(errors.consent)}</p>}
          </div>
          <p className="text-xs text-muted">
            <Link to={path('/legal/privacy')} className="underline underline-offset-2 hover:text-roast">{t('product.notify.privacy')}</Link>
          </p>
          <div role="status">{message && <p className="rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">{message}</p>}</div>
          <div>
            <button type="submit" className="btn-primary" aria-disabled={busy || undefined}>
              {busy ? t('product.notify.sending') : t('product.notify.submit')}
            </button>
          </div>
        </fetcher.Form>
      )}
    </section>
  );
}
