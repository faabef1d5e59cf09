import { redirect } from 'react-router';
import { appContext } from '~/context';
import { field, readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { exportFileName, ownerDataRequest } from '~/modules/privacy/index.server';
import type { Route } from './+types/customer-data';

/**
 * `POST /admin/customers/data`: the owner downloads what the shop keeps about someone who asked by mail — their
 * account (if `userId`) and everything kept under the address. Logged. An unknown or changed account: back to
 * the search, which says so.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const owner = requireAdmin(context.get(shopperContext));
  const form = await readForm(request);
  const email = field(form, 'email').trim().toLowerCase();
  const userId = field(form, 'userId') || null;
  const back = `/admin/customers?q=${encodeURIComponent(email)}`;
  if (!/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email)) return redirect('/admin/customers?problem=notFound', 303);
  const outcome = await ownerDataRequest(app.db, owner, { userId, email });
  if (!outcome.ok) return redirect(`${back}&problem=notFound`, 303);
  return new Response(`${JSON.stringify(outcome.data, null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName().replace('kopi-data', `kopi-data-${email.replace(/[^a-z0-9.-]+/g, '_').slice(0, 60)}`)}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

export function loader() {
  return redirect('/admin/customers');
}
