import { AlertTriangle, Download } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Form, Link, type ShouldRevalidateFunction, data, useNavigation } from 'react-router';
import { type AppContext, appContext } from '~/context';
import { readForm } from '~/http/body.server';
import { requireUser, shopperContext } from '~/http/shopper.server';
import { hasPassword, logIn, oidcEnabled, sessionConfirmedAt } from '~/modules/accounts/index.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useLocalePath, useT } from '~/modules/i18n/react';
import { DELETE_REAUTH_MS, deleteAccount } from '~/modules/privacy/index.server';
import { type DeletionFieldErrors, parseDeletionForm } from '~/modules/privacy/deletion-form';
import { revealMessage } from '~/lib/navigation-focus';
import { useClientValidation } from '~/lib/use-client-validation';
import type { Route } from './+types/profile-delete';

/**
 * Deleting one's account (/profile/delete): what goes and what the law keeps, the reviews' fate, and a confirmation
 * — the password, or for an account that only signs in with Google a sign-in asked for again there in the last 10
 * minutes — plus a tick.
 * Done: every device is signed out (this one too) and the page says so.
 */
type Problem = 'reauth' | 'openOrders' | 'admin' | 'limited' | 'gone';
type Result = { status: 'deleted' } | { status: 'refused'; problems: Problem[]; fieldErrors: DeletionFieldErrors; open?: { label: string; pickup: boolean } };

async function confirmation(app: AppContext, token: string | null, userId: string) {
  const password = await hasPassword(app.db, userId);
  // Only a sign-in asked for again at the provider counts, and only for a while.
  const confirmedAt = await sessionConfirmedAt(app.db, token);
  const fresh = confirmedAt !== null && Date.now() - confirmedAt.getTime() < DELETE_REAUTH_MS;
  return { password, fresh };
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireUser(shopper, url);
  const { password, fresh } = await confirmation(app, shopper.sessionToken, user.id);
  return {
    password,
    fresh,
    google: oidcEnabled(app.config),
    taxYears: app.config.retention.taxYears,
    meta: { title: `${getT(shopper.locale)('privacy.delete.title')} · Kopi` },
    messages: getMessages(shopper.locale, 'privacy', 'profile'),
  };
}

/** Once deleted, the page says so: its loader (which needs a signed-in customer) is not run again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as Result | undefined)?.status === 'deleted' ? false : defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export async function action({ request, url, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  if (!shopper.user) {
    // Signed out meanwhile — on another device, or by a deletion that already happened.
    return data<Result>({ status: 'refused', problems: ['gone'], fieldErrors: {} }, { status: 409 });
  }
  const user = requireUser(shopper, url);
  const form = await readForm(request);
  const { password, fresh } = await confirmation(app, shopper.sessionToken, user.id);
  const parsed = parseDeletionForm(form, { needsPassword: password });
  if (!parsed.ok) return data<Result>({ status: 'refused', problems: [], fieldErrors: parsed.fieldErrors }, { status: 400 });
  if (password) {
    // Counted as a login attempt: the password cannot be guessed here either.
    const checked = await logIn(app.db, { email: user.email, password: parsed.password, ip: app.clientIp }, { limits: app.limits });
    if (!checked.ok && checked.reason === 'rate_limited') return data<Result>({ status: 'refused', problems: ['limited'], fieldErrors: {} }, { status: 429 });
    if (!checked.ok || checked.userId !== user.id) return data<Result>({ status: 'refused', problems: [], fieldErrors: { password: 'privacy.delete.errors.password' } }, { status: 400 });
  } else if (!fresh) return data<Result>({ status: 'refused', problems: ['reauth'], fieldErrors: {} }, { status: 400 });

  const outcome = await deleteAccount(app.db, { userId: user.id, reviews: parsed.reviews, locale: shopper.locale, taxYears: app.config.retention.taxYears });
  if (!outcome.ok) {
    const problem = ({ not_found: 'gone', admin: 'admin', open_orders: 'openOrders' } as const)[outcome.reason];
    const open = outcome.reason === 'open_orders' ? outcome.order : undefined;
    return data<Result>({ status: 'refused', problems: [problem], fieldErrors: {}, ...(open ? { open } : {}) }, { status: 409 });
  }
  app.kickMail();
  // The sessions are gone in the database; this browser forgets its cookies too (the cart was the account's).
  shopper.cookies.clear('session');
  shopper.cookies.clear('cart');
  return data<Result>({ status: 'deleted' });
}

export default function DeleteAccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalePath();
  const busy = useNavigation().state === 'submitting';
  const result = actionData as Result | undefined;
  const validation = useClientValidation((form: FormData) => parseDeletionForm(form, { needsPassword: loaderData.password }));
  // Whether the refusal came by a client-side submission or (pressed before the page was interactive) by a
  // whole new page that starts at its top, it is brought into view and focused; without JavaScript the
  // form's address ends in #delete-refused, so the browser scrolls to it.
  const refusal = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result?.status === 'refused' && result.problems.length > 0) revealMessage(refusal.current);
  }, [result]);
  if (result?.status === 'deleted') {
    return (
      <div className="container-page max-w-2xl py-14">
        <h1 className="text-4xl font-semibold" data-testid="account-deleted">{t('privacy.delete.done')}</h1>
        <p className="mt-4 text-lg text-muted" role="status">{t('privacy.delete.doneText')}</p>
        <a href={path('/')} className="btn-primary mt-8 inline-block px-8 py-3">{t('privacy.delete.home')}</a>
      </div>
    );
  }
  const general = result?.status === 'refused' ? result.problems : [];
  const open = result?.status === 'refused' ? result.open : undefined;
  const errors: DeletionFieldErrors = validation.errors ?? (result?.status === 'refused' ? result.fieldErrors : {});
  return (
    <div className="container-page max-w-3xl py-10 md:py-14">
      <h1 className="text-4xl font-semibold md:text-5xl">{t('privacy.delete.title')}</h1>
      <p className="mt-3 text-lg text-muted">{t('privacy.delete.intro')}</p>
      <Form method="post" action="/profile/data" reloadDocument className="mt-4">
        <button type="submit" className="inline-flex items-center gap-2 font-semibold text-leaf underline underline-offset-4">
          <Download aria-hidden="true" className="h-4 w-4" />
          {t('privacy.delete.download')}
        </button>
      </Form>
      <div className="mt-8 grid gap-4 md:grid-cols-2">
        <p className="rounded-3xl bg-paper p-6 text-sm leading-relaxed ring-1 ring-sand">{t('privacy.delete.goes')}</p>
        <p className="rounded-3xl bg-paper p-6 text-sm leading-relaxed ring-1 ring-sand">{t('privacy.delete.stays', { years: loaderData.taxYears })}</p>
      </div>
      <Form method="post" action={`${path('/profile/delete')}#delete-refused`} noValidate onSubmit={validation.onSubmit} className="mt-8 grid gap-6 rounded-3xl bg-paper p-6 ring-1 ring-sand md:p-8">
        <fieldset aria-describedby={errors.reviews ? 'reviews-error' : undefined}>
          <legend className="font-serif text-xl font-semibold">{t('privacy.delete.reviews')}</legend>
          <div className="mt-3 grid gap-2 sm:grid-cols-2">
            {(['keep', 'remove'] as const).map((choice) => (
              <label key={choice} className="flex cursor-pointer items-center gap-3 rounded-2xl border border-sand-dark bg-cream/40 px-4 py-3 text-sm font-medium has-[:checked]:border-leaf has-[:checked]:bg-leaf-light">
                <input type="radio" name="reviews" value={choice} defaultChecked={choice === 'keep'} className="h-4 w-4 accent-leaf" />
                {t(choice === 'keep' ? 'privacy.delete.reviewsKeep' : 'privacy.delete.reviewsRemove')}
              </label>
            ))}
          </div>
          {errors.reviews && <p id="reviews-error" className="field-error">{t(errors.reviews)}</p>}
        </fieldset>
        {loaderData.password ? (
          <div>
            <label htmlFor="delete-password" className="field-label">{t('privacy.delete.password')}</label>
            <p id="delete-password-hint" className="text-sm text-muted">{t('privacy.delete.passwordHint')}</p>
            <input
              id="delete-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              maxLength={1024}
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? 'delete-password-error delete-password-hint' : 'delete-password-hint'}
              className="field-input mt-2 max-w-sm"
            />
            {errors.password && <p id="delete-password-error" className="field-error">{t(errors.password)}</p>}
          </div>
        ) : loaderData.fresh ? (
          <p className="rounded-2xl bg-leaf-light px-4 py-3 text-sm text-leaf-dark">{t('privacy.delete.reauthFresh')}</p>
        ) : (
          <div className="rounded-2xl bg-cream px-4 py-4 text-sm ring-1 ring-sand">
            <p>{t('privacy.delete.reauth')}</p>
            {loaderData.google && (
              <a href={`/auth/google?reauth=1&redirectTo=${encodeURIComponent(path('/profile/delete'))}`} className="btn-outline mt-3 inline-block">{t('privacy.delete.reauthButton')}</a>
            )}
          </div>
        )}
        <div>
          <label className="flex items-start gap-3 font-medium">
            <input type="checkbox" name="confirm" value="yes" required aria-invalid={errors.confirm ? true : undefined} aria-describedby={errors.confirm ? 'confirm-error' : undefined} className="mt-1 h-5 w-5 accent-cherry" />
            {t('privacy.delete.confirm')}
          </label>
          {errors.confirm && <p id="confirm-error" className="field-error">{t(errors.confirm)}</p>}
        </div>
        {/* Beside the button that was pressed, so it is in view on a phone too. */}
        {general.length > 0 && (
          <div ref={refusal} id="delete-refused" role="alert" className="flex gap-3 rounded-2xl bg-cherry-light px-5 py-4 text-cherry" data-testid="delete-refused">
            <AlertTriangle aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
            <div>
              {general.map((p) => (
                <p key={p}>{p === 'openOrders' && open ? t(open.pickup ? 'privacy.delete.errors.openPickup' : 'privacy.delete.errors.openDelivery', { label: open.label }) : t(`privacy.delete.errors.${p}`)}</p>
              ))}
            </div>
          </div>
        )}
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" className="btn-primary bg-cherry px-8 py-3 hover:bg-cherry/90" disabled={busy}>{t('privacy.delete.submit')}</button>
          <Link to={path('/profile?tab=data')} className="font-semibold text-roast underline underline-offset-4">{t('privacy.delete.cancel')}</Link>
        </div>
      </Form>
    </div>
  );
}
