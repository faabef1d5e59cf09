import type { NextFunction, Request, Response } from 'express';

/**
 * A fixed-window request limit per client address, in memory (one process). For cheap, anonymous
 * endpoints such as the analytics beacon; sign-in limits live with the accounts and are stored.
 */
export function rateLimit({ limit, windowMs }: { limit: number; windowMs: number }) {
  let windowStart = Date.now();
  let counts = new Map<string, number>();
  return (req: Request, res: Response, next: NextFunction) => {
    const now = Date.now();
    if (now - windowStart >= windowMs) {
      windowStart = now;
      counts = new Map();
    }
    const key = req.ip ?? 'unknown';
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count > limit) {
      res.setHeader('retry-after', Math.ceil((windowStart + windowMs - now) / 1000));
      res.status(429).json({ error: 'too_many_requests' });
      return;
    }
    next();
  };
}
