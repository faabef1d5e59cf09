import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { limitedBody } from './body-limit';

/** Express request → Fetch Request (what React Router's handler takes), addressed to the shop's own origin. */
export function toFetchRequest(req: ExpressRequest, res: ExpressResponse, origin: string): Request {
  const controller = new AbortController();
  // Only a client gone before the answer was sent aborts (an abort after every response cost a DOMException each).
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  // The request's own origin passed the same-origin guard (a shop reached at another address than PUBLIC_URL, by
  // IP, say); the router checks Origin again against the URL built below, so it is told the shop's origin.
  if (headers.get('origin') === `${req.protocol}://${req.get('host') ?? 'localhost'}`) headers.set('origin', origin);
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const limit = res.locals.bodyLimit as number | undefined;
    init.body = Readable.toWeb(limit === undefined ? req : limitedBody(req, limit)) as ReadableStream;
    init.duplex = 'half';
  }
  // Appended, not resolved: a path such as `//other.example/x` stays a path on this origin.
  return new Request(new URL(`${origin}${req.originalUrl.startsWith('/') ? req.originalUrl : '/'}`), init);
}

/** Copies a Fetch Response onto an Express response, streaming the body. */
export async function sendFetchResponse(res: ExpressResponse, response: Response, body?: string): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  // A body cut off at its limit is not read to the end: close the connection instead of draining it.
  if (response.status === 413) res.setHeader('Connection', 'close');
  // The page's own header wins over the shop-wide default of the same name (a Referrer-Policy, say).
  for (const [key, value] of response.headers) {
    if (key !== 'set-cookie') res.setHeader(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);
  if (body !== undefined) {
    res.end(body);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as NodeReadableStream)
      .on('error', reject)
      .pipe(res)
      .on('finish', resolve)
      .on('error', reject);
  });
}
