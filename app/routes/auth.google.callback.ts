import { redirect } from 'react-router';
import { appContext } from '~/context';
import { readCookie } from '~/http/cookies.server';
import { shopperContext, startSession } from '~/http/shopper.server';
import { safeRedirect } from '~/lib/safe-redirect';
import { localePath, splitLocale } from '~/modules/i18n/paths';
import { finishOidcSignIn, isOidcState } from '~/modules/accounts/index.server';
import type { Route } from './+types/auth.google.callback';

/**
 * The provider sends the browser back here. In a popup, the page tells the opener the outcome and closes;
 * otherwise it redirects to where the visitor was going (or back to /auth with the error).
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const state = await readCookie(app.cookies.oidcState, request.headers.get('cookie'), (value) => isOidcState(value));
  shopper.cookies.clear('oidcState');
  const redirectTo = safeRedirect(state?.redirectTo, '/');
  const popup = state?.popup ?? false;

  const outcome = state
    ? await finishOidcSignIn(app.db, app.config, {
        currentUrl: new URL(url.pathname + url.search, app.config.publicUrl),
        state: state.state,
        nonce: state.nonce,
        codeVerifier: state.codeVerifier,
        redirectUri: new URL('/auth/google/callback', app.config.publicUrl).href,
        reauth: state.reauth === true,
        log: app.log,
      })
    : ({ ok: false, reason: 'failed' } as const);

  if (outcome.ok) {
    // A sign-in asked for again (its auth_time checked) confirms who the customer is; an ordinary one does not.
    await startSession(app, shopper, outcome.userId, { name: outcome.created ? 'sign_up' : 'login', method: 'google' }, { confirmed: state?.reauth === true });
  } else if (outcome.reason === 'failed') {
    app.log.warn('OpenID Connect sign-in failed');
  }

  // Back to the sign-in page in the language of the page the visitor came from.
  const failedTarget = localePath(splitLocale(redirectTo).locale, '/auth') + `?error=${outcome.ok ? '' : outcome.reason}&redirectTo=${encodeURIComponent(redirectTo)}`;
  if (popup) {
    const message = { type: 'kopi-auth', ok: outcome.ok, reason: outcome.ok ? undefined : outcome.reason, redirectTo };
    const body = `<!doctype html><meta charset="utf-8"><title>Kopi</title><script nonce="${app.nonce}">
if (window.opener) { window.opener.postMessage(${JSON.stringify(message).replace(/</g, '\\u003c')}, ${JSON.stringify(app.config.publicUrl.origin)}); window.close(); }
else { window.location.replace(${JSON.stringify(outcome.ok ? redirectTo : failedTarget).replace(/</g, '\\u003c')}); }
</script>`;
    return new Response(body, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  return redirect(outcome.ok ? redirectTo : failedTarget);
}
