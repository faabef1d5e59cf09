import { redirect } from 'react-router';
import type { AppContext } from '~/context';
import { type SessionLookup, getSessionUser, readSessionToken, sessionCookie } from './sessions.server';
import type { SessionUser } from './users.server';

const cache = new WeakMap<AppContext, Promise<SessionLookup | null>>();

function lookup(request: Request, context: AppContext): Promise<SessionLookup | null> {
  let found = cache.get(context);
  if (!found) {
    found = getSessionUser(context.db, readSessionToken(request));
    cache.set(context, found);
  }
  return found;
}

/** The signed-in user of this request (looked up once per request, roles read from the database). */
export async function getRequestUser(request: Request, context: AppContext): Promise<SessionUser | null> {
  return (await lookup(request, context))?.user ?? null;
}

/**
 * The Set-Cookie value that extends the session cookie, when the server just extended the session
 * (at most once a day), so the browser keeps it as long as the server does.
 */
export async function refreshedSessionCookie(request: Request, context: AppContext): Promise<string | null> {
  const found = await lookup(request, context);
  const token = readSessionToken(request);
  return found?.refreshed && token ? sessionCookie(token, context.config.secureCookies) : null;
}

/** The signed-in user, or a redirect to the login page that comes back to `url` (the route's own) afterwards. */
export async function requireUser(request: Request, context: AppContext, url: URL): Promise<SessionUser> {
  const user = await getRequestUser(request, context);
  if (user) return user;
  throw redirect(`/auth?mode=login&redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** An admin, or a redirect home: nobody else learns what admin pages exist. */
export async function requireAdmin(request: Request, context: AppContext): Promise<SessionUser> {
  const user = await getRequestUser(request, context);
  if (!user?.isAdmin) throw redirect('/');
  return user;
}
