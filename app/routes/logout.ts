import { redirect } from 'react-router';
import { clearSessionCookie, deleteSession, readSessionToken } from '~/modules/accounts/index.server';
import { clearCartCookie } from '~/modules/cart/index.server';
import type { Route } from './+types/logout';
import { appContext } from '~/context';

/** Ends the session on the server; the next cart is a new, empty guest cart. */
export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const token = readSessionToken(request);
  if (token) await deleteSession(app.db, token);
  const headers = new Headers();
  headers.append('Set-Cookie', clearSessionCookie(app.config.secureCookies));
  headers.append('Set-Cookie', clearCartCookie(app.config.secureCookies));
  return redirect('/', { headers });
}

export function loader() {
  return redirect('/');
}
