import { redirect } from 'react-router';
import { appContext } from '~/context';
import { shopperContext } from '~/http/shopper.server';
import { localePath, splitLocale } from '~/modules/i18n/paths';
import { fail } from '~/lib/failure';
import { safeRedirect } from '~/lib/safe-redirect';
import { newOidcState, oidcEnabled, startOidcSignIn } from '~/modules/accounts/index.server';
import type { Route } from './+types/auth.google';

/** Starts "Continue with Google" (or any OpenID Connect provider): to the provider's account chooser. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  if (!oidcEnabled(app.config)) fail('not_found');
  const shopper = context.get(shopperContext);
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '/');
  const popup = url.searchParams.get('popup') === '1';
  // Asked to confirm who the customer is (before deleting the account): the provider asks them to sign in again.
  const reauth = url.searchParams.get('reauth') === '1';
  try {
    const start = await startOidcSignIn(app.config, callbackUrl(app.config.publicUrl), { reauth });
    shopper.cookies.set('oidcState', newOidcState({ state: start.state, nonce: start.nonce, codeVerifier: start.codeVerifier, redirectTo, popup, reauth }));
    return redirect(start.url);
  } catch (error) {
    app.log.error({ err: error }, 'OpenID Connect sign-in could not start');
    return redirect(localePath(splitLocale(redirectTo).locale, '/auth') + `?error=failed&redirectTo=${encodeURIComponent(redirectTo)}`);
  }
}

const callbackUrl = (publicUrl: URL) => new URL('/auth/google/callback', publicUrl).href;
