import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { fail } from '~/lib/failure';
import type { Route } from './+types/edit-product';

/**
 * Product editing is admin-only: everyone else is sent home before anything about the product is read.
 * The editor itself arrives with catalogue management; until then an admin gets the shop's 404 page.
 */
export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context.get(shopperContext));
  fail('not_found');
}

export async function action({ context }: Route.ActionArgs) {
  requireAdmin(context.get(shopperContext));
  fail('not_found');
}

export default function EditProduct() {
  return null;
}
