import { appContext } from '~/context';
import { mediaType, readText } from '~/http/body.server';
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
    return invalidChoice();
  }
  const parsed = consentChoiceSchema.safeParse(json);
  if (!parsed.success) return invalidChoice();

  const { user } = context.get(shopperContext);
  await recordConsent(context.get(appContext).db, { ...parsed.data, userId: user?.id ?? null });
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

const invalidChoice = () => failureResponse('invalid', 'invalid_consent');
