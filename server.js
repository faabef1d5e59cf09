#!/usr/bin/env node
// Starts Kopi: the production build by default, or Vite's dev server with NODE_ENV=development.
import express from 'express';
import { requireSupportedNode } from './scripts/check-node.js';

requireSupportedNode();

const development = process.env.NODE_ENV === 'development';
// Everything but the dev server is production: React and friends choose their production bundles by this,
// and they read it when the build is imported below.
process.env.NODE_ENV ??= 'production';

async function main() {
  let kopi;
  if (development) {
    const vite = await (await import('vite')).createServer({ server: { middlewareMode: true } });
    const { createServerApp } = await vite.ssrLoadModule('./server/app.ts');
    kopi = await createServerApp({ build: () => vite.ssrLoadModule('virtual:react-router/server-build') });
    const outer = express();
    outer.use(vite.middlewares);
    outer.use(kopi.app);
    kopi.app = outer;
  } else {
    const { createServerApp } = await import('./build/server/index.js');
    kopi = await createServerApp({ clientDir: new URL('./build/client', import.meta.url).pathname });
  }

  const { config, logger } = kopi;
  const server = kopi.app.listen(config.port, config.host, async () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    // /readyz answers 503 until the storefront has been rendered a few times (not in development).
    const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
    if (!development) await kopi.warmUp(`http://${host}:${port}`);
    logger.info({ port, node: process.version, env: config.env }, `Kopi is ready at http://localhost:${port}`);
  });
  server.keepAliveTimeout = 65_000;

  let closing = false;
  const shutdown = (signal) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.warn('forced exit after 10 s');
      process.exit(1);
    }, 10_000);
    force.unref();
    server.close(async () => {
      await kopi.close();
      logger.info('bye');
      process.exit(0);
    });
    // Requests in flight finish; their keep-alive connections close as soon as they fall idle (otherwise
    // each would hold the process until its keep-alive timeout), and their answers say so.
    server.on('request', (_req, res) => {
      if (!res.headersSent) res.setHeader('connection', 'close');
    });
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 50).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  if (error?.name === 'ConfigError') console.error(error.message);
  else console.error('Kopi could not start:', error);
  process.exit(1);
});
