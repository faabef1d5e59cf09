import { appContext } from '~/context';
import { mediaType, readText } from '~/http/body.server';
import { shopperContext } from '~/http/shopper.server';
import { failureResponse } from '~/lib/failure';
import { analyticsEventSchema, serverOnlyEvents } from '~/modules/analytics/analytics.schema';
import { recordEvent } from '~/modules/analytics/index.server';
import type { Route } from './+types/api.events';

/**
 * POST /api/events — one analytics event from `app/lib/analytics.ts` (sent only after cookie consent).
 * JSON as `application/json`, or as `text/plain` the way `navigator.sendBeacon` sends a Blob. No loader:
 * a GET gets 405 from the router. Sets no cookies. Purchases are recorded by the server when an order is
 * paid; a browser cannot report one.
 */
const MAX_BODY_BYTES = 8 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') {
    return Response.json({ error: 'method_not_allowed' }, { status: 405, headers: { Allow: 'POST' } });
  }
  const type = mediaType(request);
  if (type !== 'application/json' && type !== 'text/plain') return failureResponse('unsupported');
  let json: unknown;
  try {
    json = JSON.parse(await readText(request, MAX_BODY_BYTES));
  } catch (error) {
    if (error instanceof Response) return error;
    return invalidEvent();
  }
  const parsed = analyticsEventSchema.safeParse(json);
  if (!parsed.success || serverOnlyEvents.has(parsed.data.name)) return invalidEvent();

  const { name, props, path, visitorId } = parsed.data;
  const { user } = context.get(shopperContext);
  await recordEvent(context.get(appContext).db, { name, props, path, visitorId, userId: user?.id ?? null });
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

const invalidEvent = () => failureResponse('invalid', 'invalid_event');
