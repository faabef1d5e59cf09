/**
 * Kopi on several machines, on this one, for tests/nodes: a fresh PostgreSQL database, a local S3-compatible
 * server (s3rver), the local OpenID Connect provider, two app nodes started at the same moment with their own
 * DATA_DIRs and ports, and Debian's nginx in front alternating between them (round robin). nginx adds
 * `X-Kopi-Node` (the node's address) to every answer, so a journey can see which node served what.
 *
 * Ports: NODES_PORT (nginx, 3400); the nodes listen on NODES_PORT + 1 and + 2; the provider on + 90.
 * The database: a new one next to NODES_DATABASE_URL or TEST_DATABASE_URL (its role may create databases),
 * dropped when this process is stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider } from './oidc-provider.js';
import { startS3Server } from './s3-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const base = process.env.NODES_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!base) {
  console.error('The two-node journey needs PostgreSQL: set NODES_DATABASE_URL or TEST_DATABASE_URL.');
  process.exit(1);
}
if (!fs.existsSync(path.join(root, 'build/server/index.js'))) {
  console.error('Run `npm run build` first.');
  process.exit(1);
}
const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
if (!nginxBinary) {
  console.error('The two-node journey needs nginx (apt-get install nginx).');
  process.exit(1);
}

const PORT = Number(process.env.NODES_PORT ?? 3400);
const nodePorts = [PORT + 1, PORT + 2];
const shopUrl = `http://127.0.0.1:${PORT}`;
const work = path.join(root, 'test-results', `nodes-${PORT}`);
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

const name = `kopi_nodes_${Date.now()}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
// Playwright may stop this process before it can drop its database: earlier runs' are dropped here.
for (const { datname } of (await admin.query("select datname from pg_database where datname like 'kopi\\_nodes\\_%'")).rows) {
  await admin.query(`drop database if exists ${datname} with (force)`).catch(() => {});
}
await admin.query(`create database ${name}`);
await admin.end();
const databaseUrl = Object.assign(new URL(base), { pathname: `/${name}` }).href;
fs.writeFileSync(path.join(work, 'database-url'), databaseUrl);

const s3 = await startS3Server('kopi-nodes');
for (const method of ['warn', 'info'] as const) {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider ')) return;
    original(...args);
  };
}
const oidc = await startOidcProvider({ port: PORT + 90, redirectUri: `${shopUrl}/auth/google/callback` });

const nodes: ChildProcess[] = nodePorts.map((port, i) => {
  const dataDir = path.join(work, `node-${i + 1}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'both-nodes-sign-cookies-with-this-one-secret',
    PUBLIC_URL: shopUrl,
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SEED_DEMO: 'true',
    GOOGLE_CLIENT_ID: OIDC_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: OIDC_CLIENT_SECRET,
    OIDC_ISSUER: oidc.issuer,
    // Nothing leaves this machine (no locker is searched and no invoice issued here).
    INPOST_API_URL: 'http://127.0.0.1:9',
    NBP_API_URL: 'http://127.0.0.1:9',
    ...s3.env,
  };
  delete (env as Record<string, unknown>).SMTP_URL;
  return spawn(process.execPath, [path.join(root, 'server.js')], { cwd: dataDir, env, stdio: 'inherit' });
});

const prefix = path.join(work, 'nginx');
fs.mkdirSync(path.join(prefix, 'logs'), { recursive: true });
const conf = path.join(prefix, 'nginx.conf');
fs.writeFileSync(
  conf,
  `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream kopi {
${nodePorts.map((port) => `    server 127.0.0.1:${port} max_fails=2 fail_timeout=5s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${PORT};
    client_max_body_size 81m;
    location / {
      proxy_pass http://kopi;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout http_502 http_503 http_504;
      add_header X-Kopi-Node $upstream_addr always;
    }
  }
}
`,
);
let nginx: ChildProcess | null = null;
let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  nginx?.kill('SIGTERM');
  await Promise.all(nodes.map((node) => (node.exitCode === null ? new Promise((resolve) => { node.once('exit', resolve); node.kill('SIGTERM'); }) : null)));
  oidc.server.closeAllConnections();
  oidc.server.close();
  await s3.close();
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`).catch(() => {});
  await client.end();
  process.exit(code);
}
// Registered before waiting for the nodes: a node that dies while starting, or Playwright giving up, stops the rest.
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
for (const node of nodes) node.on('exit', (code) => !stopping && stop(code ?? 1));

// nginx takes traffic once *both* nodes are ready: its /readyz (what Playwright waits for) answers as soon as one
// is, and a request sent to a node still starting would mark that node down for fail_timeout — the journey that
// checks both nodes answer would then see only one.
for (const port of nodePorts) {
  const deadline = Date.now() + 110_000;
  while (!(await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false))) {
    if (stopping) await new Promise(() => {}); // stop() ends the process
    if (Date.now() > deadline) {
      console.error(`The node on ${port} did not become ready.`);
      await stop(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
nginx = spawn(nginxBinary, ['-c', conf, '-p', prefix], { stdio: 'inherit' });
nginx.on('exit', (code) => !stopping && stop(code ?? 1));
