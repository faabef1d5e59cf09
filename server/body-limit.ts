import { Transform } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { sendFailure } from './errors';

/**
 * Bounds every request body before anything reads it. A declared length over the route's limit is answered
 * 413 at once, without reading the body (and the connection closes, so the rest is never read either); a
 * body sent without a length is counted as it streams (`limitedBody`) and cut off at the limit.
 */
export function bodyLimit(limitFor: (req: Request) => number | Promise<number>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    let limit: number;
    try {
      limit = await limitFor(req);
    } catch (error) {
      next(error);
      return;
    }
    const declared = req.get('content-length');
    if (declared !== undefined && !(Number(declared) <= limit)) {
      req.log?.info({ declared, limit }, 'request body over the limit');
      sendFailure(req, res, 'too_large');
      return;
    }
    res.locals.bodyLimit = limit;
    next();
  };
}

/** The request body as a stream that fails with a 413 error once it passes `limit` bytes. */
export function limitedBody(req: Request, limit: number): Transform {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > limit) callback(Object.assign(new Error('request body over the limit'), { status: 413 }));
      else callback(null, chunk);
    },
  });
  req.on('error', (error) => counter.destroy(error));
  return req.pipe(counter);
}
