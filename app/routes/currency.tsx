import { data, redirect } from 'react-router';
import { field, readForm } from '~/http/body.server';
import { chooseCurrency, shopperContext } from '~/http/shopper.server';
import { safeRedirect } from '~/lib/safe-redirect';
import { isCurrency } from '~/modules/pricing/index.server';
import type { Route } from './+types/currency';

/**
 * Switches the currency (a form post, so it works without JavaScript): remembered in a cookie, and the same page
 * comes back priced in it (the cart is priced on the server in the shopper's currency, so it follows). A currency
 * the shop does not offer changes nothing: 400.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const currency = field(form, 'currency');
  if (!isCurrency(currency)) throw data(null, { status: 400 });
  chooseCurrency(context.get(shopperContext), currency);
  return redirect(safeRedirect(form.get('redirectTo')));
}

export function loader() {
  return redirect('/');
}

/** Never shown: with a page of its own, a refused switch is answered with the shop's translated error page (400), not bare data. */
export default function CurrencySwitchRoute() {
  return null;
}
