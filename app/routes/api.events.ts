import { analyticsEventSchema } from '~/modules/analytics/analytics.schema';
import { recordEvent } from '~/modules/analytics/index.server';
import { appContext } from '~/context';
import type { Route } from './+types/api.events';

/**
 * POST /api/events — one analytics event from `app/lib/analytics.ts` (sent only after cookie consent).
 * JSON as `application/json`, or as `text/plain` the way `navigator.sendBeacon` sends a Blob. No loader:
 * a GET gets 405 from the router. Sets no cookies.
 */
const MAX_BODY_BYTES = 8 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  if (request.method !== 'POST') {
    return Response.json({ error: 'method_not_allowed' }, { status: 405, headers: { Allow: 'POST' } });
  }
  const type = request.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && type !== 'text/plain') return invalidEvent();

  const body = await readBody(request, MAX_BODY_BYTES);
  if (body === null) return invalidEvent();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return invalidEvent();
  }
  const parsed = analyticsEventSchema.safeParse(json);
  if (!parsed.success) return invalidEvent();

  const { name, props, path, visitorId } = parsed.data;
  // userId stays null until sign-in exists; then it comes from the session, never from the body.
  await recordEvent(app.db, { name, props, path, visitorId, userId: null });
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

const invalidEvent = () =>
  Response.json({ error: 'invalid_event' }, { status: 400, headers: { 'Cache-Control': 'no-store' } });

/** The body as UTF-8 text, or null when it is larger than `limit` bytes or not valid UTF-8. Stops reading at the limit. */
async function readBody(request: Request, limit: number): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const bytes = new Uint8Array(limit);
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel();
      return null;
    }
    bytes.set(value, size);
    size += value.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, size));
  } catch {
    return null;
  }
}
