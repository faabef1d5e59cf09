#!/usr/bin/env node
// Starts the production build for the Playwright journeys, on a fresh data directory every run, with
// "Continue with Google" pointed at a local OpenID Connect provider (tests/setup/oidc-provider.js) that runs
// in this process. Playwright's `webServer` runs this and waits for /readyz; it stops the process when the
// run ends. Ports: E2E_PORT (the shop, 3100), and the provider, the mail catcher and the stand-ins beside it
// (tests/setup/ports.js); data and the build snapshot go to test-results/e2e-{data,app}-${E2E_PORT}, so two shops
// on different ports do not clash (the storefront's and the back office's journeys each have one).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider } from './oidc-provider.js';
import { E2E_SESSION_SECRET } from './e2e-secret.js';
import { e2eDataDirOf, e2ePorts } from './ports.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverBuild = path.join(root, 'build/server/index.js');

if (!fs.existsSync(serverBuild)) {
  console.error(
    'The browser tests run against the production build, and build/server/index.js is missing.\n' +
      'Run `npm run build` first (`npm test` does it for you).',
  );
  process.exit(1);
}

const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
// InPost's Points API stand-in (tests/doubles/inpost-points.js), its ShipX shipments stand-in (tests/doubles/shipx.js)
// and NBP's exchange-rate API stand-in (tests/doubles/nbp.js, for invoices in euros) each run in a process of their own.
const ports = e2ePorts(E2E_PORT);
const shopUrl = `http://127.0.0.1:${E2E_PORT}`;
const dataDir = e2eDataDirOf(E2E_PORT);
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

// Run a snapshot of the build, so a `npm run build` during the run (another terminal, an editor) cannot pull
// files from under the server. It sits inside the repository, so node_modules resolves as usual.
const appDir = path.join(root, `test-results/e2e-app-${E2E_PORT}`);
fs.rmSync(appDir, { recursive: true, force: true });
fs.mkdirSync(appDir, { recursive: true });
fs.cpSync(path.join(root, 'build'), path.join(appDir, 'build'), { recursive: true });
fs.copyFileSync(path.join(root, 'server.js'), path.join(appDir, 'server.js'));
fs.cpSync(path.join(root, 'scripts'), path.join(appDir, 'scripts'), { recursive: true });
fs.copyFileSync(path.join(root, 'package.json'), path.join(appDir, 'package.json'));

// The provider's development-only notices (in-memory adapter, devInteractions) are expected here.
for (const method of ['warn', 'info']) {
  const original = console[method].bind(console);
  console[method] = (...args) => {
    if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider ')) return;
    original(...args);
  };
}
/** A stand-in in a process of its own, once it answers on `port`. */
async function standIn(file, port) {
  const child = spawn(process.execPath, [path.join(root, 'tests/doubles', file), String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 10_000;
  while (!(await fetch(`http://127.0.0.1:${port}/__requests`).then(() => true, () => false))) {
    if (Date.now() > deadline) throw new Error(`the stand-in ${file} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}
const inpost = await standIn('inpost-points.js', ports.inpost);
const shipx = await standIn('shipx.js', ports.shipx);
const nbp = await standIn('nbp.js', ports.nbp);
// KSeF's stand-in (tests/doubles/ksef.js): the shop sends its invoices there when E2E_KSEF=kopi (the KSeF journeys' shop).
const ksef = await standIn('ksef.js', ports.ksef);
const oidc = await startOidcProvider({ port: ports.oidc, redirectUri: `${shopUrl}/auth/google/callback` });

const env = {
  ...process.env,
  NODE_ENV: 'production',
  PORT: String(E2E_PORT),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  PUBLIC_URL: shopUrl,
  // Mail to the catcher fails while no mail journey runs: those retries are expected, not news.
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  // Known to the journeys, which sign cookies with it (tests/e2e/cookies.ts).
  SESSION_SECRET: E2E_SESSION_SECRET,
  // The journeys are many clients on one machine: each test says who it is with X-Forwarded-For, as a
  // load balancer on this machine would, so the per-address limits apply per test as they would per shopper.
  TRUST_PROXY: 'loopback',
  SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
  CONTACT_TO: 'shop@kopi.test',
  MAIL_FROM: 'Kopi <hello@kopi.test>',
  SEED_DEMO: 'true',
  GOOGLE_CLIENT_ID: OIDC_CLIENT_ID,
  GOOGLE_CLIENT_SECRET: OIDC_CLIENT_SECRET,
  OIDC_ISSUER: oidc.issuer,
  INPOST_API_URL: `http://127.0.0.1:${ports.inpost}`,
  SHIPX_API_URL: `http://127.0.0.1:${ports.shipx}`,
  NBP_API_URL: `http://127.0.0.1:${ports.nbp}`,
  SHIPX_TOKEN: 'shipx-test-token',
  SHIPX_ORGANIZATION_ID: '1234',
  // The seller on invoices.
  SHOP_LEGAL_NAME: 'Kopi Palarnia sp. z o.o.',
  SHOP_ADDRESS: 'ul. Mokotowska 12, 00-640 Warszawa',
  SHOP_TAX_ID: '5260250274',
  SHOP_EMAIL: 'sklep@kopi.test',
  ...(process.env.E2E_KSEF === 'kopi'
    ? { KSEF_SENDER: 'kopi', KSEF_ENV: `http://127.0.0.1:${ports.ksef}/v2`, KSEF_TOKEN: `20261204-EC-0123456789-ABCDEF0123-4F|nip-5260250274|${'e2e0'.repeat(16)}` }
    : {}),
};
// A DATABASE_URL from the developer's shell would point the tests at a real database: never use it here.
delete env.DATABASE_URL;

const child = spawn(process.execPath, [path.join(appDir, 'server.js')], { cwd: dataDir, env, stdio: 'inherit' });
const forward = (signal) => {
  inpost.kill(signal);
  shipx.kill(signal);
  nbp.kill(signal);
  ksef.kill(signal);
  child.kill(signal);
};
process.on('SIGTERM', forward);
process.on('SIGINT', forward);
child.on('exit', (code, signal) => {
  inpost.kill('SIGTERM');
  shipx.kill('SIGTERM');
  nbp.kill('SIGTERM');
  ksef.kill('SIGTERM');
  oidc.server.closeAllConnections();
  oidc.server.close();
  process.exit(code ?? (signal ? 1 : 0));
});
