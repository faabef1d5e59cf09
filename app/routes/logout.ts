import { redirect } from 'react-router';
import { appContext } from '~/context';
import { endSession, shopperContext } from '~/http/shopper.server';
import type { Route } from './+types/logout';

/** Ends the session on the server; the next cart is a new, empty guest cart. */
export async function action({ context }: Route.ActionArgs) {
  await endSession(context.get(appContext), context.get(shopperContext));
  return redirect('/');
}

export function loader() {
  return redirect('/');
}
