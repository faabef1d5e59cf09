/**
 * The catalogue pages as shoppers with a cookie see them (a guest with a cart, a signed-in customer), rendered
 * once per URL, kind of shopper, cart count, delivery country and currency, and filled in per response with the few bits that are the
 * shopper's own: the customer's name (and, as on every cached page, the CSP nonce and the form key).
 *
 * What a catalogue page shows of its shopper is the header (cart count, greeting, sign-in or profile links)
 * and the same in the root loader's hydration data. The cart count is part of the key; the name is rendered
 * as a placeholder and replaced in the bytes. The replacement is only made for names that every context the
 * name is written in (HTML text, the JSON of the hydration data) leaves as they are: letters, digits, spaces,
 * dots, hyphens and underscores. Any other name, an admin (whose pages carry the owner's tools), a cart of
 * more than 99 items or any other page is rendered as before.
 */
import { randomBytes } from 'node:crypto';
import type { MiddlewareFunction } from 'react-router';
import { type AppContext, appContext } from '~/context';
import { countCartItems } from '~/modules/cart/index.server';
import { catalogVersion } from '~/modules/catalog/index.server';
import { splitLocale } from '~/modules/i18n/paths';
import { type PageCache, isStorableResponse, withTokens } from './page-cache.server';
import { type Shopper, greetingName, readShopper, shopperContext } from './shopper.server';

/** A name only letters, digits and a few marks make up: written the same in HTML and in JSON. */
const PLAIN_NAME = /^[\p{L}\p{M}\p{N} ._-]{1,100}$/u;
const SHARED_PAGE = /^\/(categories|about|contact|product\/[A-Za-z0-9_-]{1,64})?$/;
/** Pages that show a signed-in customer's own details (the contact form fills in their name and email). */
const GUESTS_ONLY = /^\/contact$/;
const MAX_COUNT = 99;

/** Stands where the name goes while the page is rendered; random per process, so no name can be it. */
const NAME_PLACEHOLDER = `kopiname${randomBytes(12).toString('hex')}`;

const isSharedPagePath = (pathname: string) => SHARED_PAGE.test(splitLocale(pathname).path);

/** Where a shopper's shared page is kept, or null when this page is rendered for them alone. */
async function sharedPageSlot(app: Pick<AppContext, 'db' | 'sharedPages'>, shopper: Shopper, url: URL): Promise<{ key: string; count: number; name: string } | null> {
  const { user } = shopper;
  if (!app.sharedPages || !isSharedPagePath(url.pathname) || user?.isAdmin) return null;
  if (user && GUESTS_ONLY.test(splitLocale(url.pathname).path)) return null;
  const name = user ? greetingName(user) : '';
  if (user && !PLAIN_NAME.test(name)) return null;
  const count = await countCartItems(app.db, shopper.cartId);
  if (count > MAX_COUNT) return null;
  return { key: `${url.pathname}${url.search} ${user ? 'customer' : 'guest'} ${count} ${shopper.country ?? '-'} ${shopper.currency}`, count, name };
}

/**
 * A shared page straight from the cache, answered beside the cookie-less page cache before React Router runs (its
 * route matching, middleware and Fetch `Response`, and the public files' look-up on disk, cost a cached page more
 * than the cache itself): only for a shopper whose cookies need no change, with the headers the root middleware
 * would add. Null when the page is not there: React Router renders it (and keeps it) as below, reading the shopper
 * and the cart count again — once per page, shopper kind and cart count a minute, so not worth passing along.
 */
export async function sharedPageHit(app: Pick<AppContext, 'db' | 'cookies' | 'sharedPages' | 'nonce' | 'formKey'>, url: URL, cookieHeader: string): Promise<{ status: number; headers: Array<[string, string]>; body: Buffer } | null> {
  if (!app.sharedPages || !isSharedPagePath(url.pathname)) return null;
  const { shopper, own } = await readShopper(app, cookieHeader, url.pathname);
  // Cookies to re-issue or clear (a legacy cookie, a session ended or kept alive): React Router's path sets them.
  if (shopper.cookies.changes('session') || shopper.cookies.changes('cart')) return null;
  const slot = await sharedPageSlot(app, shopper, url);
  const cached = slot && app.sharedPages.get(slot.key);
  if (!slot || !cached) return null;
  const headers: Array<[string, string]> = [...cached.headers.filter(([header]) => !own || header !== 'cache-control'), ['x-page-cache', 'shared']];
  if (own) headers.push(['cache-control', 'private, no-store']);
  return { status: cached.status, headers, body: withTokens(cached, { nonce: app.nonce, formKey: app.formKey, name: slot.name }) };
}

export const sharedPagesMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const pages: PageCache | undefined = app.sharedPages;
  const url = new URL(request.url);
  const slot = pages ? await sharedPageSlot(app, shopper, url) : null;
  if (!pages || !slot) return next();
  const { key, count, name } = slot;
  const { user } = shopper;
  const tokens = { nonce: app.nonce, formKey: app.formKey, name };
  const cached = pages.get(key);
  if (cached) return new Response(bytes(withTokens(cached, tokens)), { status: cached.status, headers: [...cached.headers, ['x-page-cache', 'shared']] });

  const version = catalogVersion();
  shopper.cartCount = count;
  if (user) context.set(shopperContext, { ...shopper, user: { ...user, displayName: NAME_PLACEHOLDER } });
  const response = await next();
  if (!isStorableResponse(response)) return response;
  const body = await response.text();
  const headers = [...response.headers].filter(([header]) => header !== 'set-cookie' && header !== 'content-length');
  const page = pages.set(key, { status: 200, headers, body, tokens: { ...tokens, name: user ? NAME_PLACEHOLDER : '' } }, version);
  response.headers.delete('content-length');
  return new Response(bytes(withTokens(page, tokens)), { status: 200, headers: response.headers });
};

const bytes = (buffer: Buffer) => new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.length);
