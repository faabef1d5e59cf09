import { redirect } from 'react-router';
import { appContext } from '~/context';
import { endSession, pathFor, shopperContext } from '~/http/shopper.server';
import type { Route } from './+types/logout';

/** Ends the session on the server; the next cart is a new, empty guest cart. Back to the home page in the same language. */
export async function action({ context }: Route.ActionArgs) {
  const shopper = context.get(shopperContext);
  await endSession(context.get(appContext), shopper);
  return redirect(pathFor(shopper, '/'));
}

export function loader({ context }: Route.LoaderArgs) {
  return redirect(pathFor(context.get(shopperContext), '/'));
}
