import { redirect } from 'react-router';
import {
  OIDC_COOKIE,
  clearOidcStateCookie,
  completeSignIn,
  finishOidcSignIn,
  openOidcState,
  readSessionToken,
  sessionCookie,
} from '~/modules/accounts/index.server';
import { pendingEventCookie } from '~/modules/analytics/index.server';
import { clearCartCookie, readCartId } from '~/modules/cart/index.server';
import type { Route } from './+types/auth.google.callback';
import { appContext } from '~/context';

/**
 * The provider sends the browser back here. In a popup, the page tells the opener the outcome and closes;
 * otherwise it redirects to where the visitor was going (or back to /auth with the error).
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const secure = app.config.secureCookies;
  const cookie = new RegExp(`(?:^|;\\s*)${OIDC_COOKIE}=([^;]+)`).exec(request.headers.get('cookie') ?? '')?.[1];
  const state = cookie ? openOidcState(app.config.sessionSecret, decodeURIComponent(cookie)) : null;
  const headers = new Headers({ 'Set-Cookie': clearOidcStateCookie(secure) });
  const redirectTo = state?.redirectTo ?? '/';
  const popup = state?.popup ?? false;

  const outcome = state
    ? await finishOidcSignIn(app.db, app.config, {
        currentUrl: new URL(url.pathname + url.search, app.config.publicUrl),
        state: state.state,
        nonce: state.nonce,
        codeVerifier: state.codeVerifier,
        redirectUri: new URL('/auth/google/callback', app.config.publicUrl).href,
        log: app.log,
      })
    : ({ ok: false, reason: 'failed' } as const);

  if (outcome.ok) {
    const { sessionToken } = await completeSignIn(app.db, {
      userId: outcome.userId,
      previousSessionToken: readSessionToken(request),
      guestCartId: readCartId(request),
    });
    headers.append('Set-Cookie', sessionCookie(sessionToken, secure));
    headers.append('Set-Cookie', clearCartCookie(secure));
    headers.append('Set-Cookie', pendingEventCookie(outcome.created ? 'sign_up' : 'login', { method: 'google' }, secure));
  } else if (outcome.reason === 'failed') {
    app.log.warn('OpenID Connect sign-in failed');
  }

  if (popup) {
    const message = { type: 'kopi-auth', ok: outcome.ok, reason: outcome.ok ? undefined : outcome.reason, redirectTo };
    const body = `<!doctype html><meta charset="utf-8"><title>Kopi</title><script nonce="${app.nonce}">
if (window.opener) { window.opener.postMessage(${JSON.stringify(message).replace(/</g, '\\u003c')}, ${JSON.stringify(app.config.publicUrl.origin)}); window.close(); }
else { window.location.replace(${JSON.stringify(outcome.ok ? redirectTo : `/auth?error=${outcome.ok ? '' : outcome.reason}&redirectTo=${encodeURIComponent(redirectTo)}`)}); }
</script>`;
    headers.set('Content-Type', 'text/html; charset=utf-8');
    headers.set('Cache-Control', 'no-store');
    return new Response(body, { headers });
  }
  if (outcome.ok) return redirect(redirectTo, { headers });
  return redirect(`/auth?error=${outcome.reason}&redirectTo=${encodeURIComponent(redirectTo)}`, { headers });
}
