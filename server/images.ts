import { pipeline } from 'node:stream/promises';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { type Config } from '~/config/env.server';
import { IMMUTABLE, type Storage, imageWidths } from '~/modules/storage/index.server';
import { sendFailure } from './errors';

/** Only the shop's own picture variants are served from the bucket (it may hold other things). */
const keyPattern = new RegExp(`^products/[A-Za-z0-9_-]{1,64}/[A-Za-z0-9_-]{1,100}-(${imageWidths.join('|')})\\.webp$`);

/**
 * Pictures at /images/…: from local disk with express.static, or streamed from the S3 bucket when the pages
 * link here (no S3_PUBLIC_URL). Either way a year of immutable caching (keys are never reused), and a 404
 * for anything missing.
 */
export function imagesRouter(config: Config, storage: Storage, uploadsDir: string): Router {
  const router = express.Router();
  if (!config.s3) {
    // fallthrough: false turns a missing picture into a 404 (and `..` into a 403) for the error handler.
    router.use('/images', express.static(uploadsDir, { immutable: true, maxAge: '1y', index: false, fallthrough: false }));
    return router;
  }
  router.get('/images/{*key}', async (req: Request, res: Response, next: NextFunction) => {
    const key = req.path.slice('/images/'.length);
    if (!keyPattern.test(key)) {
      sendFailure(req, res, 'not_found');
      return;
    }
    try {
      const file = await storage.get(key);
      if (!file) {
        sendFailure(req, res, 'not_found');
        return;
      }
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Cache-Control', IMMUTABLE);
      if (file.size !== undefined) res.setHeader('Content-Length', String(file.size));
      if (req.method === 'HEAD') {
        file.body.destroy();
        res.end();
        return;
      }
      await pipeline(file.body, res);
    } catch (error) {
      if (!res.headersSent) next(error);
      else res.destroy();
    }
  });
  return router;
}
