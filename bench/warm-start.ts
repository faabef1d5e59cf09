/**
 * A node's first seconds: the shop is restarted on a data directory that already holds a customer with a
 * cart, and from the moment /readyz says ready it gets 40 requests a second for 60 s, as shoppers with
 * cookies make them (signed in, a cart, in Polish; home, product pages, categories, search, the cart) plus
 * cookie-less first visits. Reported: p99 of the first 30 s next to the last 30 s (the budget: within 2×).
 */
import { performance } from 'node:perf_hooks';
import { percentile, startShop, stopShop } from './http';
import { productIdsIn, signUpCustomers } from './shopper';
import { localePath } from '../app/modules/i18n/paths';

export type WarmStartRow = { period: string; requests: number; p50: number; p99: number; max: number; errors: number };

export async function warmStartFigures({ port, dataDir, seconds = 60, rate = 40 }: { port: number; dataDir: string; seconds?: number; rate?: number }): Promise<WarmStartRow[]> {
  const base = `http://127.0.0.1:${port}`;
  let shop = await startShop(port, dataDir);
  const [customer, polish] = await signUpCustomers(base, `bench-warm-${Date.now()}-`, 2);
  const home = await (await fetch(`${base}/`)).text();
  const productIds = productIdsIn(home);
  const products = productIds.map((id) => `/product/${id}`);
  for (const shopper of [customer, polish]) {
    await shopper.post('/cart', { intent: 'add', productId: productIds[0], quantity: '1', redirectTo: '/cart' });
  }
  await stopShop(shop);

  const paths = ['/', ...products.slice(0, 8), '/categories', '/categories?category=groundCoffee', '/?q=chocolate', '/cart', '/about', '/profile'];
  shop = await startShop(port, dataDir, {}, { keepData: true });
  const samples: Array<{ at: number; ms: number; ok: boolean; what: string }> = [];
  try {
    const started = performance.now();
    const running: Promise<void>[] = [];
    for (let i = 0; performance.now() - started < seconds * 1000; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const path = paths[i % paths.length];
      const kind = i % 4; // signed in (en), signed in in Polish, signed in again, a cookie-less first visit
      const t0 = performance.now();
      running.push(
        (kind === 3
          ? fetch(base + path, { redirect: 'manual' }).then(async (r) => ({ status: r.status, body: await r.text() }))
          : kind === 1
            ? polish.get(localePath('pl', path))
            : customer.get(path)
        )
          .then((r) => void samples.push({ at: t0 - started, ms: performance.now() - t0, ok: r.status < 400, what: `${kind} ${path}` }))
          .catch(() => void samples.push({ at: t0 - started, ms: performance.now() - t0, ok: false, what: `${kind} ${path}` })),
      );
    }
    await Promise.all(running);
  } finally {
    await stopShop(shop);
  }
  if (process.env.WARM_DEBUG) {
    for (const s of [...samples].sort((a, b) => b.ms - a.ms).slice(0, 40)) console.log(`${(s.at / 1000).toFixed(1)} s  ${s.ms.toFixed(0)} ms  ${s.what}`);
  }
  const half = (seconds * 1000) / 2;
  const row = (period: string, list: typeof samples): WarmStartRow => {
    const ms = list.map((s) => s.ms);
    return { period, requests: list.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: Math.max(...ms), errors: list.filter((s) => !s.ok).length };
  };
  return [row(`first ${half / 1000} s after ready`, samples.filter((s) => s.at < half)), row(`last ${half / 1000} s`, samples.filter((s) => s.at >= half))];
}
