import { appContext } from '~/context';
import { readBeaconJson } from '~/http/body.server';
import { shopperContext } from '~/http/shopper.server';
import { failureResponse } from '~/lib/failure';
import { consentChoiceSchema } from '~/modules/privacy/consent.schema';
import { recordConsent } from '~/modules/privacy/index.server';
import type { Route } from './+types/api.consent';

/**
 * POST /api/consent — the cookie banner's choice from `app/lib/analytics.ts`, recorded with its time and the
 * banner's version as proof of consent: `{ analytics, version, visitorId }` as `application/json` (or
 * `text/plain`, the way `navigator.sendBeacon` sends a Blob). No loader: a GET gets 405 from the router.
 * Sets no cookies. The customer is the session's, never the body's.
 */
const MAX_BODY_BYTES = 1024;

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBeaconJson(request, MAX_BODY_BYTES, invalidChoice);
  if (!body.ok) return body.response;
  const json = body.json;
  const parsed = consentChoiceSchema.safeParse(json);
  if (!parsed.success) return invalidChoice();

  const { user } = context.get(shopperContext);
  await recordConsent(context.get(appContext).db, { ...parsed.data, userId: user?.id ?? null });
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

const invalidChoice = () => failureResponse('invalid', 'invalid_consent');
