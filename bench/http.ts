import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';

export type LoadResult = { rps: number; p99: number; errors: number; non2xx: number };

/**
 * Starts the production server (`server.js` of the checkout in `cwd`, this one by default) on a fresh data
 * directory (or the one already there, with `keepData`) and waits until it is ready.
 */
export async function startShop(port: number, dataDir: string, env: Record<string, string> = {}, { keepData = false, cwd = process.cwd() } = {}): Promise<ChildProcess> {
  if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, ['server.js'], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', SESSION_SECRET: 'the-bench-shops-sign-their-cookies-with-this', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_URL: `http://127.0.0.1:${port}`,
      // One machine plays every customer: the abuse limits would stop the load, not measure it.
      RATE_LIMIT_FACTOR: '100000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the shop exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGTERM');
  throw new Error('the shop did not become ready within 120 s');
}

export async function stopShop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The floor: a bare Node server answering every path with fixed bytes from memory. */
export async function startFloor(port: number, pages: Map<string, Buffer>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const body = pages.get(req.url ?? '/') ?? pages.values().next().value!;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

export async function load(url: string, seconds: number, connections = 32, headers: Record<string, string> = {}): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1, headers });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export const here = (...parts: string[]) => path.join(process.cwd(), ...parts);
