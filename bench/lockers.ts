/**
 * Locker search at checkout, as a shopper makes it: a signed-in customer with a cart asks for the delivery step
 * with a search (`/checkout?step=delivery&method=…&lockerQuery=…`), one request at a time, against InPost's
 * Points API stand-in (tests/doubles/inpost-points.js, a process of its own). "Cold" is each query's first
 * search (the shop asks the stand-in), "warm" the same queries again (the shop's ten-minute memory). The time is
 * the whole page: the delivery step rendered with the lockers found.
 */
import { performance } from 'node:perf_hooks';
import { percentile } from './http';
import { signUpCustomers } from './shopper';

const QUERIES = ['Kraków', 'Warszawa', 'Gdańsk', 'Wrocław', 'Poznań', '31-147', '00-640', '80-827', '50-024', '61-888', 'KRA01M', 'WAW114M', 'GDA08A', '30-504', '02-508'];
const WARM_ROUNDS = 10;

export type LockerRow = { searches: string; count: number; p50: number; p95: number; max: number; problems: string };

export async function lockerSearchFigures(base: string, productId: string): Promise<LockerRow[]> {
  const [customer] = await signUpCustomers(base, `bench-lockers-${Date.now()}-`, 1);
  const added = await customer.post('/cart', { intent: 'add', productId, quantity: '1', redirectTo: '/cart' });
  if (added.status !== 302) throw new Error(`adding to the cart answered ${added.status}`);
  const first = await customer.get('/checkout?step=delivery');
  // The locker's radio, whatever the order of its attributes.
  const lockerInput = first.body.match(/<input[^>]*name="methodId"[^>]*>/g)?.find((input) => input.includes('data-kind="locker"'));
  const lockerMethod = lockerInput ? /value="([^"]+)"/.exec(lockerInput)?.[1] : undefined;
  if (!lockerMethod) throw new Error('the delivery step offers no locker');

  const problems = new Map<string, number>();
  const search = async (query: string) => {
    const started = performance.now();
    const page = await customer.get(`/checkout?step=delivery&method=${lockerMethod}&lockerQuery=${encodeURIComponent(query)}`);
    const ms = performance.now() - started;
    const found = (page.body.match(/name="lockerCode"/g) ?? []).length;
    if (page.status !== 200 || found === 0) problems.set(`${query}: ${page.status}, ${found} lockers`, 1);
    return ms;
  };
  const cold: number[] = [];
  for (const query of QUERIES) cold.push(await search(query));
  const warm: number[] = [];
  for (let round = 0; round < WARM_ROUNDS; round++) for (const query of QUERIES) warm.push(await search(query));
  const row = (searches: string, times: number[]): LockerRow => ({
    searches,
    count: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    problems: [...problems.keys()].join(', '),
  });
  return [row('cold (the stand-in asked)', cold), row('warm (remembered)', warm)];
}
