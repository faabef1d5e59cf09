import { redirect } from 'react-router';
import { clearSessionCookie, deleteSession, readSessionToken } from '~/modules/accounts/index.server';
import { clearCartCookie } from '~/modules/cart/index.server';
import type { Route } from './+types/logout';

/** Ends the session on the server; the next cart is a new, empty guest cart. */
export async function action({ request, context }: Route.ActionArgs) {
  const token = readSessionToken(request);
  if (token) await deleteSession(context.db, token);
  const headers = new Headers();
  headers.append('Set-Cookie', clearSessionCookie(context.config.secureCookies));
  headers.append('Set-Cookie', clearCartCookie(context.config.secureCookies));
  return redirect('/', { headers });
}

export function loader() {
  return redirect('/');
}
