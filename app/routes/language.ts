import { redirect } from 'react-router';
import { safeRedirect } from '~/lib/safe-redirect';
import { isLocale, languageCookie } from '~/modules/i18n/index.server';
import type { Route } from './+types/language';
import { appContext } from '~/context';

/** Switches the language (a form post, so it works without JavaScript) and returns to the same page. */
export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const form = await request.formData();
  const locale = form.get('locale');
  const target = safeRedirect(form.get('redirectTo'));
  if (!isLocale(locale)) return redirect(target);
  return redirect(target, { headers: { 'Set-Cookie': languageCookie(locale, app.config.secureCookies) } });
}

export function loader() {
  return redirect('/');
}
