import { Form, Link, data, redirect, useNavigation } from 'react-router';
import { FormField } from '~/components/ui/form-field';
import { useClientValidation } from '~/lib/use-client-validation';
import { MIN_PASSWORD_LENGTH, parseNewPasswordForm } from '~/modules/accounts/accounts.schema';
import { checkResetToken, resetPassword } from '~/modules/accounts/index.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useLocalePath, useT } from '~/modules/i18n/react';
import { readForm } from '~/http/body.server';
import type { Route } from './+types/auth.reset';
import { appContext } from '~/context';
import { privatePageHeaders } from '~/http/private-page.server';
import { shopperContext } from '~/http/shopper.server';
import { localePath } from '~/modules/i18n/paths';

/** The page a reset mail links to: choose a new password with a single-use token. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const token = url.searchParams.get('token') ?? '';
  const { locale } = context.get(shopperContext);
  return {
    token,
    valid: token ? await checkResetToken(app.db, token) : false,
    meta: { title: `${getT(locale)('auth.titles.newPassword')} · Kopi` },
    messages: getMessages(locale, 'auth'),
  };
}

/** The page holds a secret (the link's token): never stored by any cache, and never sent on as a referrer. */
export const headers: Route.HeadersFunction = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const { locale } = context.get(shopperContext);
  const form = await readForm(request);
  const parsed = parseNewPasswordForm(form);
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, formError: null }, { status: 400 });
  const result = await resetPassword(app.db, parsed.data);
  if (!result.ok) return data({ fieldErrors: {}, formError: 'auth.errors.invalidResetLink' }, { status: 400 });
  return redirect(localePath(locale, '/auth?mode=login&reset=done'));
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const path = useLocalePath();
  const t = useT();
  const busy = useNavigation().state === 'submitting';
  const validation = useClientValidation(parseNewPasswordForm);
  const errors: Record<string, string | undefined> = validation.errors ?? actionData?.fieldErrors ?? {};
  const invalid = !loaderData.valid || actionData?.formError;
  return (
    <div className="container-page flex justify-center py-12 md:py-20">
      <section className="w-full max-w-md rounded-3xl bg-paper p-6 shadow-sm ring-1 ring-sand md:p-10" aria-labelledby="reset-title">
        <h1 id="reset-title" className="text-3xl font-semibold">{t('auth.titles.newPassword')}</h1>
        {invalid ? (
          <>
            <p role="alert" className="mt-6 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">{t('auth.errors.invalidResetLink')}</p>
            <Link to={path('/auth?mode=reset')} className="btn-primary mt-6 w-full py-3">{t('auth.links.requestNew')}</Link>
          </>
        ) : (
          <Form
            method="post"
            noValidate
            className="mt-6 grid gap-4"
            onSubmit={validation.onSubmit}
          >
            <input type="hidden" name="token" value={loaderData.token} />
            <FormField
              name="password"
              type="password"
              label={t('auth.fields.newPassword')}
              autoComplete="new-password"
              error={errors.password}
              hint={t('auth.passwordHint', { count: MIN_PASSWORD_LENGTH })}
              minLength={MIN_PASSWORD_LENGTH}
              maxLength={200}
              required
            />
            <button type="submit" className="btn-primary mt-2 w-full py-3 text-base" disabled={busy}>{t('auth.submit.newPassword')}</button>
          </Form>
        )}
      </section>
    </div>
  );
}
