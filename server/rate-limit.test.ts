import express from 'express';
import { describe, expect, it } from 'vitest';
import { rateLimit } from './rate-limit';

describe('rateLimit', () => {
  it('answers 429 past the limit within the window', async () => {
    const app = express();
    app.use(rateLimit({ limit: 3, windowMs: 60_000 }));
    app.post('/x', (_req, res) => res.status(204).end());
    const server = app.listen(0);
    const port = (server.address() as { port: number }).port;
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await fetch(`http://127.0.0.1:${port}/x`, { method: 'POST' })).status);
      expect(statuses).toEqual([204, 204, 204, 429, 429]);
    } finally {
      server.close();
    }
  });
});
