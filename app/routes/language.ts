import { redirect } from 'react-router';
import { field, readForm } from '~/http/body.server';
import { chooseLanguage, shopperContext } from '~/http/shopper.server';
import { safeRedirect } from '~/lib/safe-redirect';
import { isLocale } from '~/modules/i18n/index.server';
import { counterpartPath } from '~/modules/i18n/paths';
import type { Route } from './+types/language';

/**
 * Switches the language (a form post, so it works without JavaScript): the same page at its URL in the
 * chosen language (`/product/x` ↔ `/pl/product/x`, query kept), and the choice is remembered in the `lang`
 * cookie for the pages that have one URL (the back office).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const locale = field(form, 'locale');
  const target = safeRedirect(form.get('redirectTo'));
  if (!isLocale(locale)) return redirect(target);
  chooseLanguage(context.get(shopperContext), locale);
  return redirect(counterpartPath(target, locale));
}

export function loader() {
  return redirect('/');
}
