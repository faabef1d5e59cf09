import { redirect } from 'react-router';
import { field, readForm } from '~/http/body.server';
import { chooseLanguage, shopperContext } from '~/http/shopper.server';
import { safeRedirect } from '~/lib/safe-redirect';
import { isLocale } from '~/modules/i18n/index.server';
import type { Route } from './+types/language';

/** Switches the language (a form post, so it works without JavaScript) and returns to the same page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const locale = field(form, 'locale');
  if (isLocale(locale)) chooseLanguage(context.get(shopperContext), locale);
  return redirect(safeRedirect(form.get('redirectTo')));
}

export function loader() {
  return redirect('/');
}
