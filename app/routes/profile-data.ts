import { redirect } from 'react-router';
import { appContext } from '~/context';
import { pathFor, requireUser, shopperContext } from '~/http/shopper.server';
import { customerDataRequest, exportFileName } from '~/modules/privacy/index.server';
import type { Route } from './+types/profile-data';

/**
 * `POST /profile/data`: everything the shop keeps about the signed-in customer, as a JSON file (GDPR art. 15 and
 * 20). A POST, not a link: it is logged and counted, so no prefetch or crawler may set it off. Over the limit, back
 * to the profile's data tab, which says so.
 */
export async function action({ url, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireUser(shopper, url);
  const outcome = await customerDataRequest(app.db, user.id, app.limits);
  if (!outcome.ok) return redirect(pathFor(shopper, `/profile?tab=data${outcome.reason === 'rate_limited' ? '&limited=yes' : ''}`), 303);
  return new Response(`${JSON.stringify(outcome.data, null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName()}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

export function loader({ context }: Route.LoaderArgs) {
  return redirect(pathFor(context.get(shopperContext), '/profile?tab=data'));
}
