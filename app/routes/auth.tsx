import { useEffect } from 'react';
import { Form, Link, data, redirect, useNavigation } from 'react-router';
import { GoogleButton } from '~/components/auth/google-button';
import { FormField } from '~/components/ui/form-field';
import { safeRedirect } from '~/lib/safe-redirect';
import { useClientValidation } from '~/lib/use-client-validation';
import {
  MIN_PASSWORD_LENGTH,
  parseLogInForm,
  parseResetRequestForm,
  parseSignUpForm,
} from '~/modules/accounts/accounts.schema';
import { field, readForm } from '~/http/body.server';
import { shopperContext, startSession, tellBrowser } from '~/http/shopper.server';
import { localePath } from '~/modules/i18n/paths';
import { LegalSentence } from '~/components/legal/legal-sentence';
import { logIn, oidcEnabled, requestPasswordReset, signUp } from '~/modules/accounts/index.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useLocalePath, useT } from '~/modules/i18n/react';
import type { Route } from './+types/auth';
import { appContext } from '~/context';

type Mode = 'login' | 'signup' | 'reset';
type Values = { name?: string; email?: string };
type ActionResult = {
  mode: Mode;
  fieldErrors?: Record<string, string | undefined>;
  formError?: string;
  notice?: string;
  values?: Values;
};

const modeOf = (value: string | null): Mode => (value === 'signup' ? 'signup' : value === 'reset' ? 'reset' : 'login');

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { user, locale } = context.get(shopperContext);
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), localePath(locale, '/'));
  if (user) throw redirect(redirectTo);
  const t = getT(locale);
  const mode = modeOf(url.searchParams.get('mode'));
  const googleError = url.searchParams.get('error');
  return {
    mode,
    redirectTo,
    googleEnabled: oidcEnabled(app.config),
    notice: url.searchParams.get('reset') === 'done' ? 'auth.resetDone' : null,
    googleError: googleError === 'cancelled' ? 'auth.errors.googleCancelled' : googleError === 'disabled' ? 'auth.errors.disabled' : googleError ? 'auth.errors.googleFailed' : null,
    meta: { title: `${t(`auth.titles.${mode}`)} · Kopi` },
    messages: getMessages(locale, 'auth'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const form = await readForm(request);
  const mode = modeOf(field(form, 'intent'));
  const redirectTo = safeRedirect(form.get('redirectTo'), localePath(shopper.locale, '/'));
  const values: Values = { name: field(form, 'name'), email: field(form, 'email') };
  const fail = (result: Omit<ActionResult, 'mode' | 'values'>, status = 400) =>
    data<ActionResult>({ mode, values, ...result }, { status });

  if (mode === 'reset') {
    const parsed = parseResetRequestForm(form);
    if (!parsed.ok) return fail({ fieldErrors: parsed.fieldErrors });
    const result = await requestPasswordReset(app.db, {
      email: parsed.data.email,
      ip: app.clientIp,
      locale: shopper.locale,
      publicUrl: app.config.publicUrl,
    }, app.limits);
    if (!result.ok) return fail({ formError: 'auth.errors.tooManyRequests' }, 429);
    app.kickMail();
    tellBrowser(shopper, 'password_reset_requested');
    return data<ActionResult>({ mode, notice: 'auth.resetSent' });
  }

  let userId: string;
  if (mode === 'signup') {
    const parsed = parseSignUpForm(form);
    if (!parsed.ok) return fail({ fieldErrors: parsed.fieldErrors });
    const result = await signUp(app.db, { ...parsed.data, ip: app.clientIp }, app.limits);
    if (!result.ok && result.reason === 'rate_limited') return fail({ formError: 'auth.errors.tooManyRequests' }, 429);
    if (!result.ok) return fail({ fieldErrors: { email: 'auth.errors.emailInUse' } }, 409);
    userId = result.userId;
  } else {
    const parsed = parseLogInForm(form);
    if (!parsed.ok) return fail({ fieldErrors: parsed.fieldErrors });
    const result = await logIn(app.db, { ...parsed.data, ip: app.clientIp }, { limits: app.limits });
    if (!result.ok) {
      const message = {
        invalid_credentials: 'auth.errors.invalidCredentials',
        rate_limited: 'auth.errors.tooManyAttempts',
        disabled: 'auth.errors.disabled',
      }[result.reason];
      return fail({ formError: message }, result.reason === 'rate_limited' ? 429 : 401);
    }
    userId = result.userId;
  }

  await startSession(app, shopper, userId, { name: mode === 'signup' ? 'sign_up' : 'login', method: 'password' });
  return redirect(redirectTo);
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const path = useLocalePath();
  const t = useT();
  const { mode, redirectTo, googleEnabled } = loaderData;
  const result = actionData?.mode === mode ? actionData : undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const validate = (formData: FormData) =>
    mode === 'signup' ? parseSignUpForm(formData) : mode === 'reset' ? parseResetRequestForm(formData) : parseLogInForm(formData);
  const validation = useClientValidation<Record<string, string | undefined>>(validate);
  const { setErrors } = validation;
  useEffect(() => setErrors(null), [mode, setErrors]);
  const errors = validation.errors ?? result?.fieldErrors ?? {};
  const notice = result?.notice ?? loaderData.notice;
  const formError = result?.formError ?? loaderData.googleError;
  const switchTo = (target: Mode) => path(`/auth?mode=${target}${redirectTo !== path('/') ? `&redirectTo=${encodeURIComponent(redirectTo)}` : ''}`);
  return (
    <div className="container-page flex justify-center py-12 md:py-20">
      <section className="w-full max-w-md rounded-3xl bg-paper p-6 shadow-sm ring-1 ring-sand md:p-10" aria-labelledby="auth-title">
        <h1 id="auth-title" className="text-3xl font-semibold">{t(`auth.titles.${mode}`)}</h1>
        <p className="mt-2 text-muted">{t(`auth.intros.${mode}`)}</p>

        <div role="status" aria-live="polite">
          {notice && <p className="mt-6 rounded-2xl bg-leaf-light px-4 py-3 text-sm text-leaf-dark">{t(notice)}</p>}
        </div>
        <div role="alert">
          {formError && <p className="mt-6 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">{t(formError)}</p>}
        </div>

        {!(mode === 'reset' && notice) && (
          <Form
            key={mode}
            method="post"
            action={path(`/auth?mode=${mode}`)}
            noValidate
            className="mt-6 grid gap-4"
            onSubmit={validation.onSubmit}
          >
            <input type="hidden" name="intent" value={mode} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            {mode === 'signup' && (
              <FormField name="name" label={t('auth.fields.name')} autoComplete="name" defaultValue={result?.values?.name} error={errors.name} maxLength={100} required />
            )}
            <FormField
              name="email"
              type="email"
              label={t('auth.fields.email')}
              autoComplete={mode === 'signup' ? 'email' : 'username'}
              defaultValue={result?.values?.email}
              error={errors.email}
              maxLength={254}
              required
            />
            {mode !== 'reset' && (
              <FormField
                name="password"
                type="password"
                label={t('auth.fields.password')}
                autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                error={errors.password}
                hint={mode === 'signup' ? t('auth.passwordHint', { count: MIN_PASSWORD_LENGTH }) : undefined}
                minLength={mode === 'signup' ? MIN_PASSWORD_LENGTH : undefined}
                maxLength={200}
                required
              />
            )}
            {mode === 'login' && (
              <p className="-mt-1 text-right text-sm">
                <Link to={switchTo('reset')} className="font-medium text-leaf underline-offset-4 hover:underline">{t('auth.links.forgot')}</Link>
              </p>
            )}
            <button type="submit" className="btn-primary mt-2 w-full py-3 text-base" disabled={busy}>
              {t(`auth.submit.${mode}`)}
            </button>
            {mode === 'signup' && (
              <LegalSentence name="signUp" links={{ terms: 'terms', privacy: 'privacy' }} className="text-center text-sm leading-relaxed text-muted" />
            )}
          </Form>
        )}

        {mode !== 'reset' && googleEnabled && (
          <>
            <p className="my-6 flex items-center gap-3 text-xs font-medium tracking-widest text-muted uppercase before:h-px before:flex-1 before:bg-sand after:h-px after:flex-1 after:bg-sand">
              {t('auth.or')}
            </p>
            <GoogleButton redirectTo={redirectTo} />
          </>
        )}

        <p className="mt-8 text-center text-sm text-muted">
          {mode === 'login' ? (
            <>
              {t('auth.links.noAccount')}{' '}
              <Link to={switchTo('signup')} className="font-semibold text-leaf underline-offset-4 hover:underline">{t('auth.links.signup')}</Link>
            </>
          ) : mode === 'signup' ? (
            <>
              {t('auth.links.haveAccount')}{' '}
              <Link to={switchTo('login')} className="font-semibold text-leaf underline-offset-4 hover:underline">{t('auth.links.login')}</Link>
            </>
          ) : (
            <Link to={switchTo('login')} className="font-semibold text-leaf underline-offset-4 hover:underline">{t('auth.links.backToLogin')}</Link>
          )}
        </p>
      </section>
    </div>
  );
}
