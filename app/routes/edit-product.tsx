import { data } from 'react-router';
import { requireAdmin } from '~/modules/accounts/index.server';
import type { Route } from './+types/edit-product';
import { appContext } from '~/context';

/**
 * Product editing is admin-only: everyone else is sent home before anything about the product is read.
 * The editor itself arrives with catalogue management; until then an admin gets the shop's 404 page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  await requireAdmin(request, app);
  throw data(null, { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  await requireAdmin(request, app);
  throw data(null, { status: 404 });
}

export default function EditProduct() {
  return null;
}
