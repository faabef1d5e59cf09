/**
 * Who is asking: the shopper of one request (user, language, cart, and the cookies the response will set),
 * resolved once by the root route's middleware and read by every loader and action with
 * `context.get(shopperContext)`. A visitor without cookies costs no database query here.
 */
import { type MiddlewareFunction, createContext, redirect } from 'react-router';
import { appContext, type AppContext } from '~/context';
import { type SessionUser, completeSignIn, deleteSession, getSessionUser } from '~/modules/accounts/index.server';
import { type Locale, defaultLocale, isLocale } from '~/modules/i18n/index.server';
import { localeOfPath, localePath } from '~/modules/i18n/paths';
import { type Currency, isCurrency, requestCurrency } from '~/modules/pricing/index.server';
import { CookieJar, cookieValue, readCookie } from './cookies.server';

export type Shopper = {
  user: SessionUser | null;
  locale: Locale;
  /** The cart this request works with: the customer's own when signed in, else the guest cookie's. */
  cartId: string | null;
  /** The guest cart from the cookie (merged into the customer's at sign-in). */
  guestCartId: string | null;
  sessionToken: string | null;
  /** The cookies this response sets. */
  cookies: CookieJar;
  /** The number of items in the cart, once something counted them for this request. */
  cartCount?: number;
  /** The country the shopper chose for delivery prices (a served one is checked where it is used). */
  country: string | null;
  /** What prices are shown and charged in: the shopper's choice, else the owner's default for the language. */
  currency: Currency;
};

export const shopperContext = createContext<Shopper>();

/** The name the header greets a customer by: the first word of the name they gave, else their email's local part. */
export const greetingName = (user: SessionUser): string => user.displayName.trim().split(/\s+/)[0] || user.email.split('@')[0];

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;
const cartIdPattern = /^[A-Za-z0-9_-]{16,64}$/;
const isToken = (value: unknown): value is string => typeof value === 'string' && tokenPattern.test(value);
const isCartId = (value: unknown): value is string => typeof value === 'string' && cartIdPattern.test(value);
const isCountryCode = (value: unknown): value is string => typeof value === 'string' && /^[A-Z]{2}$/.test(value);

/**
 * The shopper a request's cookies name (the signed cookies verified, the session looked up), with the cookie
 * changes that reading them calls for (a legacy cookie re-issued signed, an ended session cleared, a session
 * kept alive) in `shopper.cookies`. `own`: the request carries a session, a cart, a currency or a country of its own.
 */
export async function readShopper(app: Pick<AppContext, 'db' | 'cookies'>, header: string | null, pathname: string): Promise<{ shopper: Shopper; own: boolean }> {
  const cookies = new CookieJar(app.cookies);
  const [signedToken, signedCart, language, country, chosenCurrency] = await Promise.all([
    readCookie(app.cookies.session, header, isToken),
    readCookie(app.cookies.cart, header, isCartId),
    readCookie(app.cookies.language, header, isLocale),
    readCookie(app.cookies.country, header, isCountryCode),
    readCookie(app.cookies.currency, header, isCurrency),
  ]);
  // Cookies from before they were signed (until the next release): accepted once, then re-issued signed.
  const sessionToken = signedToken ?? legacyValue(header, 'kopi_session', isToken);
  const guestCartId = signedCart ?? legacyValue(header, 'kopi_cart', isCartId);
  if (sessionToken && !signedToken) cookies.set('session', sessionToken);
  if (guestCartId && !signedCart) cookies.set('cart', guestCartId);

  const session = sessionToken ? await getSessionUser(app.db, sessionToken) : null;
  if (sessionToken && !session) cookies.clear('session');
  if (session?.refreshed) cookies.set('session', sessionToken);
  const user = session?.user ?? null;
  // The cart a request works on: a signed-in customer's own (found by user, so every device shares it; it came
  // with the session), otherwise the guest cart the cookie names.
  const cartId = session ? session.cartId : guestCartId;

  // A storefront page's URL names its language; the back office follows the cookie.
  const locale = localeOfPath(pathname) ?? language ?? defaultLocale;
  const currency = await requestCurrency(app.db, locale, chosenCurrency);
  const shopper = { user, locale, cartId, guestCartId, sessionToken: session ? sessionToken : null, cookies, country, currency };
  // Anything rendered for a session (even one that has ended), a cart, or a currency or country of the shopper's
  // own is theirs alone.
  return { shopper, own: sessionToken !== null || guestCartId !== null || chosenCurrency !== null || country !== null };
}

/** Whether a response for this shopper is theirs alone: no shared cache (a CDN keyed by the URL) may keep it. */
export const isPrivateResponse = (shopper: Shopper, own: boolean): boolean =>
  own || (['session', 'cart', 'currency', 'country'] as const).some((name) => shopper.cookies.changes(name));

export const shopperMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const app = context.get(appContext);
  const { shopper, own } = await readShopper(app, request.headers.get('cookie'), new URL(request.url).pathname);
  context.set(shopperContext, shopper);
  const response = await next();
  await shopper.cookies.writeTo(response.headers);
  if (isPrivateResponse(shopper, own)) response.headers.set('Cache-Control', 'private, no-store');
  return response;
};

function legacyValue(header: string | null, name: string, isValid: (value: unknown) => value is string): string | null {
  const value = header ? cookieValue(header, name) : null;
  return value !== null && isValid(value) ? value : null;
}

/** The signed-in user, or a redirect to the login page that comes back to `url` afterwards. */
export function requireUser(shopper: Shopper, url: URL): SessionUser {
  if (shopper.user) return shopper.user;
  throw redirect(localePath(shopper.locale, `/auth?mode=login&redirectTo=${encodeURIComponent(url.pathname + url.search)}`));
}

/** An admin, or a redirect home: nobody else learns which admin pages exist. */
export function requireAdmin(shopper: Shopper): SessionUser {
  if (shopper.user?.isAdmin) return shopper.user;
  throw redirect(localePath(shopper.locale, '/'));
}

/**
 * Signs the shopper in (password, sign-up, OpenID Connect): the old session ends, a new one starts, the guest
 * cart joins the customer's, and the response carries the new session cookie and the event for analytics.
 */
/** `confirmed`: the sign-in confirmed who the customer is (asked again at the provider), as deleting an account needs. */
export async function startSession(app: AppContext, shopper: Shopper, userId: string, event: { name: 'login' | 'sign_up'; method: string }, { confirmed = false } = {}) {
  const { sessionToken } = await completeSignIn(app.db, { userId, previousSessionToken: shopper.sessionToken, guestCartId: shopper.guestCartId, confirmed });
  shopper.cookies.set('session', sessionToken);
  shopper.cookies.clear('cart');
  tellBrowser(shopper, event.name, { method: event.method });
}

/** Logs out: the session ends on the server, and the next cart is a new, empty guest cart. */
export async function endSession(app: AppContext, shopper: Shopper): Promise<void> {
  if (shopper.sessionToken) await deleteSession(app.db, shopper.sessionToken);
  shopper.cookies.clear('session');
  shopper.cookies.clear('cart');
}

/** Remembers a guest's new cart. */
export function keepGuestCart(shopper: Shopper, cartId: string): void {
  shopper.cookies.set('cart', cartId);
}

/** `target` (as the English site spells it) in the shopper's language: `/cart` → `/pl/cart` on Polish pages. */
export const pathFor = (shopper: Shopper, target: string): string => localePath(shopper.locale, target);

export function chooseLanguage(shopper: Shopper, locale: Locale): void {
  shopper.cookies.set('language', locale);
}

/** An event the server completed, for the browser to track if the visitor consented (app/lib/analytics.ts). */
export function tellBrowser(shopper: Shopper, name: string, props: Record<string, string | number | boolean> = {}): void {
  shopper.cookies.set('event', { name, props });
}

/** Remembers the currency a shopper chose (the switch in the header); this response is priced in it. */
export function chooseCurrency(shopper: Shopper, currency: Currency): void {
  shopper.cookies.set('currency', currency);
}

/** Remembers the country a shopper chose for delivery prices (the cart, the checkout). */
export function keepCountry(shopper: Shopper, country: string): void {
  if (shopper.country === country) return;
  shopper.cookies.set('country', country);
  shopper.country = country;
}
