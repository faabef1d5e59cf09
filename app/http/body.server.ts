/**
 * Reading request bodies without ever throwing an unexpected error: a body of the wrong type answers 415, one
 * over the limit 413 (the rest is not read), one that cannot be parsed 400. Express refuses bodies whose
 * declared length is over the limit before React Router sees them (server/body-limit.ts); the limit here
 * also catches bodies sent without a length.
 */
import { fail, failureResponse } from '~/lib/failure';

/** Forms and JSON: tens of kB is far more than the longest contact message in any encoding. */
export const FORM_LIMIT_BYTES = 64 * 1024;

/** The owner's product form with its pictures: 8 of at most 10 MB each, and the form around them. */
export const UPLOAD_LIMIT_BYTES = 81 * 1024 * 1024;

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** The media type of the request's body, lower-cased, without parameters. */
export const mediaType = (request: Request) => (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();

/** The body's bytes, at most `limit` of them; more is a 413, and reading stops there. */
export async function readBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= limit)) fail('too_large', 'errors.tooLarge');
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        fail('too_large', 'errors.tooLarge');
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    // The client went away, or the body stream broke (a limit enforced further down, a bad chunk).
    fail((error as { status?: number })?.status === 413 ? 'too_large' : 'invalid', 'errors.invalidBody');
  }
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text; bytes that are not UTF-8 are a 400. */
export async function readText(request: Request, limit = FORM_LIMIT_BYTES): Promise<string> {
  const bytes = await readBytes(request, limit);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    fail('invalid', 'errors.invalidBody');
  }
}

/**
 * A small JSON body posted by the page's own script (`/api/events`, `/api/consent`): POST only (else 405), as
 * `application/json` or `text/plain` — the way `navigator.sendBeacon` sends a Blob — (else 415), at most `limit`
 * bytes (else 413). Its parsed value, or the answer to send instead; a body that is no JSON answers `invalid`.
 */
export async function readBeaconJson(request: Request, limit: number, invalid: () => Response): Promise<{ ok: true; json: unknown } | { ok: false; response: Response }> {
  if (request.method !== 'POST') return { ok: false, response: Response.json({ error: 'method_not_allowed' }, { status: 405, headers: { Allow: 'POST' } }) };
  const type = mediaType(request);
  if (type !== 'application/json' && type !== 'text/plain') return { ok: false, response: failureResponse('unsupported') };
  try {
    return { ok: true, json: JSON.parse(await readText(request, limit)) };
  } catch (error) {
    return { ok: false, response: error instanceof Response ? error : invalid() };
  }
}

/**
 * The submitted form (urlencoded or multipart). Anything else is a 415, a body over `limit` a 413, and a body
 * that does not parse as its declared type a 400.
 */
export async function readForm(request: Request, { limit = FORM_LIMIT_BYTES } = {}): Promise<FormData> {
  const type = mediaType(request);
  if (!FORM_TYPES.has(type)) fail('unsupported', 'errors.unsupportedBody');
  const bytes = await readBytes(request, limit);
  try {
    return await new Response(new Uint8Array(bytes), { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
  } catch {
    fail('invalid', 'errors.invalidBody');
  }
}

/** A form field as text: a missing field or a file is '' (forms never send a file where text belongs). */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** A form with files (the owner's product form): null when it is larger than UPLOAD_LIMIT_BYTES altogether. */
export async function readUpload(request: Request): Promise<FormData | null> {
  try {
    return await readForm(request, { limit: UPLOAD_LIMIT_BYTES });
  } catch (error) {
    if (error instanceof Response && error.status === 413) return null;
    throw error;
  }
}
