import { data, redirect } from 'react-router';
import { safeRedirect } from '~/lib/safe-redirect';
import { oidcEnabled, oidcStateCookie, sealOidcState, startOidcSignIn } from '~/modules/accounts/index.server';
import type { Route } from './+types/auth.google';
import { appContext } from '~/context';

/** Starts "Continue with Google" (or any OpenID Connect provider): to the provider's account chooser. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  if (!oidcEnabled(app.config)) throw data(null, { status: 404 });
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '/');
  const popup = url.searchParams.get('popup') === '1';
  try {
    const start = await startOidcSignIn(app.config, callbackUrl(app.config.publicUrl));
    const sealed = sealOidcState(app.config.sessionSecret, { state: start.state, nonce: start.nonce, codeVerifier: start.codeVerifier, redirectTo, popup });
    return redirect(start.url, { headers: { 'Set-Cookie': oidcStateCookie(sealed, app.config.secureCookies) } });
  } catch (error) {
    app.log.error({ err: error }, 'OpenID Connect sign-in could not start');
    return redirect(`/auth?error=failed&redirectTo=${encodeURIComponent(redirectTo)}`);
  }
}

const callbackUrl = (publicUrl: URL) => new URL('/auth/google/callback', publicUrl).href;
