/** Test helper: the arguments React Router passes a loader or action, with the app and shopper contexts set. */
import { type AppContext, createRouterContext } from '~/context';
import { CookieJar, createKopiCookies } from './cookies.server';
import { type Shopper, shopperContext } from './shopper.server';

export const testCookies = createKopiCookies({ sessionSecrets: ['a-test-secret-that-is-long-enough-to-sign'], secureCookies: false });

export function routeArgs(request: Request, { app, shopper, params = {} }: { app: Partial<AppContext>; shopper?: Partial<Shopper>; params?: Record<string, string> }) {
  const context = createRouterContext({ cookies: testCookies, ...app } as AppContext);
  context.set(shopperContext, {
    user: null,
    locale: 'en',
    cartId: null,
    guestCartId: null,
    sessionToken: null,
    cookies: new CookieJar(testCookies),
    country: null,
    currency: 'EUR',
    ...shopper,
  });
  return { request, context, params, url: new URL(request.url), pattern: new URL(request.url).pathname };
}
