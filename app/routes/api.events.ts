import { appContext } from '~/context';
import { readBeaconJson } from '~/http/body.server';
import { shopperContext } from '~/http/shopper.server';
import { failureResponse } from '~/lib/failure';
import { analyticsEventSchema, serverOnlyEvents } from '~/modules/analytics/analytics.schema';
import { recordEvent } from '~/modules/analytics/index.server';
import { analyticsAllowed } from '~/modules/privacy/index.server';
import type { Route } from './+types/api.events';

/**
 * POST /api/events — one analytics event from `app/lib/analytics.ts` (sent only after cookie consent).
 * JSON as `application/json`, or as `text/plain` the way `navigator.sendBeacon` sends a Blob. No loader:
 * a GET gets 405 from the router. Sets no cookies. Purchases are recorded by the server when an order is
 * paid; a browser cannot report one. Events of a visitor id whose latest recorded choice (/api/consent) is a
 * decline are dropped, with the same answer as a stored one.
 */
const MAX_BODY_BYTES = 8 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBeaconJson(request, MAX_BODY_BYTES, invalidEvent);
  if (!body.ok) return body.response;
  const json = body.json;
  const parsed = analyticsEventSchema.safeParse(json);
  if (!parsed.success || serverOnlyEvents.has(parsed.data.name)) return invalidEvent();

  const { name, props, path, visitorId } = parsed.data;
  const { db } = context.get(appContext);
  // A beacon already on its way, or a script that kept the id, must not outlive a withdrawal of consent.
  if (!(await analyticsAllowed(db, visitorId))) return noContent();
  const { user } = context.get(shopperContext);
  await recordEvent(db, { name, props, path, visitorId, userId: user?.id ?? null });
  return noContent();
}

const noContent = () => new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });

const invalidEvent = () => failureResponse('invalid', 'invalid_event');
