import autocannon from 'autocannon';

type Row = { name: string; rps: number; p99: number; problems: string };

/** Login throughput (argon2id verifies on every request) and signed-in vs guest latency for one page. */
export async function authFigures(base: string, pagePath: string, seconds: number): Promise<Row[]> {
  const email = `bench-${Date.now()}@example.test`;
  const password = 'bench-password-123';
  const headers = { origin: base, 'content-type': 'application/x-www-form-urlencoded' };
  const signUp = await fetch(`${base}/auth?mode=signup`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ intent: 'signup', name: 'Bench', email, password, redirectTo: '/' }),
    redirect: 'manual',
  });
  const session = signUp.headers.getSetCookie().find((c) => c.startsWith('kopi_session='))?.split(';')[0];
  if (signUp.status !== 302 || !session) throw new Error(`sign-up for the benchmark failed (${signUp.status})`);

  const rows: Row[] = [];
  const login = await autocannon({
    url: `${base}/auth`,
    method: 'POST',
    headers,
    body: new URLSearchParams({ intent: 'login', email, password, redirectTo: '/' }).toString(),
    // Fewer parallel logins than the per-account limit (5 attempts in flight count as a burst).
    connections: 4,
    duration: seconds,
  });
  rows.push({ name: 'POST /auth (login, argon2id)', rps: login.requests.average, p99: login.latency.p99, problems: describe(login, 302) });

  for (const [name, cookie] of [
    ['guest, no cookies (page cache)', undefined],
    ['guest with a cookie (rendered)', 'lang=en'],
    ['signed in', session],
  ] as const) {
    const result = await autocannon({ url: base + pagePath, headers: cookie ? { cookie } : {}, connections: 16, duration: seconds });
    rows.push({ name: `GET ${pagePath}: ${name}`, rps: result.requests.average, p99: result.latency.p99, problems: describe(result, 200) });
  }
  return rows;
}

function describe(result: { errors: number; timeouts: number; non2xx: number; statusCodeStats?: Record<string, { count: number }> }, expected: number) {
  const other = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => Number(code) !== expected);
  const parts = other.map(([code, { count }]) => `${count}× ${code}`);
  if (result.errors + result.timeouts) parts.push(`${result.errors + result.timeouts} errors`);
  return parts.join(', ');
}
