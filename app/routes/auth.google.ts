import { data, redirect } from 'react-router';
import { safeRedirect } from '~/lib/safe-redirect';
import { oidcEnabled, oidcStateCookie, sealOidcState, startOidcSignIn } from '~/modules/accounts/index.server';
import type { Route } from './+types/auth.google';

/** Starts "Continue with Google" (or any OpenID Connect provider): to the provider's account chooser. */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!oidcEnabled(context.config)) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '/');
  const popup = url.searchParams.get('popup') === '1';
  try {
    const start = await startOidcSignIn(context.config, callbackUrl(context.config.publicUrl));
    const sealed = sealOidcState(context.config.sessionSecret, { state: start.state, nonce: start.nonce, codeVerifier: start.codeVerifier, redirectTo, popup });
    return redirect(start.url, { headers: { 'Set-Cookie': oidcStateCookie(sealed, context.config.secureCookies) } });
  } catch (error) {
    context.log.error({ err: error }, 'OpenID Connect sign-in could not start');
    return redirect(`/auth?error=failed&redirectTo=${encodeURIComponent(redirectTo)}`);
  }
}

const callbackUrl = (publicUrl: URL) => new URL('/auth/google/callback', publicUrl).href;
