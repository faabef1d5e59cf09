/**
 * The request pipeline against the production build: each finding of the attack review (issue 7), and the
 * test that guards it. Nothing a client sends may cause a 5xx; bodies are bounded before they are read;
 * redirects stay on the shop; abuse limits hold per address and per email.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestPasswordReset } from '~/modules/accounts/index.server';
import { type TestShop, rawRequest, startTestShop } from './test-shop';

const form = 'application/x-www-form-urlencoded';
const count = async (shop: TestShop, table: 'users' | 'contact_messages' | 'mail_outbox' | 'analytics_events') =>
  Number((await shop.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('the request pipeline', () => {
  let shop: TestShop;
  const send = (options: Parameters<typeof rawRequest>[1]) => rawRequest(shop.port, options);
  beforeAll(async () => {
    shop = await startTestShop({ RATE_LIMIT_FACTOR: '1' }, { captureLogs: true });
  });
  afterAll(() => shop.close());

  describe('client input never causes a server error', () => {
    // Every route that reads a form (logout reads none: it ends the session whatever the body).
    const formRoutes = ['/cart', '/contact', '/auth', '/auth/reset', '/language', '/profile', '/checkout'];

    it.each(formRoutes)('POST %s with a JSON body answers 415', async (path) => {
      const { cookie } = await shop.customer();
      const response = await send({ method: 'POST', path, headers: { 'content-type': 'application/json', cookie }, body: '{"intent":"add"}' });
      expect(response.status).toBe(415);
    });

    it.each(formRoutes)('POST %s with a broken multipart body answers 400', async (path) => {
      const { cookie } = await shop.customer();
      const response = await send({
        method: 'POST',
        path,
        headers: { 'content-type': 'multipart/form-data; boundary=x', cookie },
        body: '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nadd\r\n--y--',
      });
      expect(response.status).toBe(400);
    });

    it('answers a translated page for an HTML client and JSON for an API one', async () => {
      const page = await send({ method: 'POST', path: '/contact', headers: { 'content-type': 'application/json', accept: 'text/html' }, body: '{}' });
      expect(page.status).toBe(415);
      expect(page.body).toContain('accepts only what its own form sends');
      const polish = await send({ method: 'GET', path: '/%ff', headers: { accept: 'text/html', cookie: 'lang=InBsIg%3D%3D.x' } });
      expect(polish.status).toBe(400);
      expect(polish.body).toContain('<html lang="pl"');
      const api = await send({ method: 'POST', path: '/api/events', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' });
      expect(api.status).toBe(415);
      expect(JSON.parse(api.body)).toMatchObject({ error: 'unsupported' });
    });

    it.each([
      ['a missing picture', '/images/nope.png', 404],
      ['a path out of the uploads', '/images/../package.json', 403],
      ['an encoded climb', '/images/..%2f..%2fpackage.json', 403],
      ['a byte that is not UTF-8', '/%ff', 400],
      ['a lone surrogate', '/product/%ED%A0%80', 400],
      ['a truncated escape', '/product/%E', 400],
      ['an unknown product', '/product/nope', 404],
      ['a NUL in the path', '/product/a%00b', 404],
    ])('%s (%s) answers %i', async (_what, path, status) => {
      const response = await send({ path, headers: { accept: 'text/html' } });
      expect(response.status).toBe(status);
      expect(response.body).not.toMatch(/at .+\.js:\d+/);
    });

    it.each(['TRACE', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND'])('%s answers 405 on every path, logged as a refusal', async (method) => {
      const { cookie } = await shop.customer();
      for (const path of ['/', '/pl/about', `/product/${shop.productId}`, '/cart', '/admin', '/webhooks/stripe', '/api/events', '/nope']) {
        const before = shop.logs.length;
        const response = await send({ method, path, headers: { accept: 'text/html', cookie } });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.allow).toBe('GET, HEAD, POST');
        const logged = shop.logs.slice(before);
        expect(logged.filter((line) => line.level >= 50), `${method} ${path}`).toEqual([]);
        expect(logged.some((line) => line.msg === 'request refused')).toBe(true);
      }
      const polish = await send({ method, path: '/pl', headers: { accept: 'text/html' } });
      expect(polish.body).toContain('<html lang="pl"');
      expect(polish.body).toContain('Błąd 405');
    });

    it('a POST to a page without a form answers 405, logged as a refusal', async () => {
      const before = shop.logs.length;
      const response = await send({ method: 'POST', path: '/about', headers: { 'content-type': form, accept: 'text/html' }, body: 'a=b' });
      expect(response.status).toBe(405);
      expect(shop.logs.slice(before).filter((line) => line.level >= 50)).toEqual([]);
    });

    it('answers a Stripe webhook over 1 MB with 413', async () => {
      const response = await send({ method: 'POST', path: '/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, body: `{"x":"${'a'.repeat(1_100_000)}"}` });
      expect(response.status).toBe(413);
    });

    it('a redirect target holding NUL, CR/LF or characters beyond Latin-1 signs up once and lands on a safe page', async () => {
      for (const redirectTo of ['/a\u0000b', '/x\r\nSet-Cookie: a=b', '/żółw☕', '/\u2028']) {
        const email = `weird.${Math.random().toString(36).slice(2)}@example.test`;
        const body = new URLSearchParams({ intent: 'signup', name: 'Ola', email, password: 'correct horse battery', redirectTo }).toString();
        const response = await send({ method: 'POST', path: '/auth', headers: { 'content-type': form }, body });
        expect(response.status, redirectTo).toBe(302);
        expect(response.headers.location).toMatch(/^\/[\x21-\x7e]*$/);
        expect(response.headers['set-cookie']?.join('\n')).not.toContain('a=b');
        expect(await shop.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
      }
    });
  });

  describe('redirects stay on the shop', () => {
    it.each([
      '/%09/evil.example',
      '/%5C/evil.example',
      '/%5Cevil.example',
      '//evil.example',
      '%2F%2Fevil.example',
      'https://evil.example',
      '/%0d%0a/evil.example',
      '%09//evil.example',
      '/%E2%80%A8/evil.example',
    ])('/auth?redirectTo=%s for a signed-in customer goes home', async (target) => {
      const { cookie } = await shop.customer();
      const response = await send({ path: `/auth?redirectTo=${target}`, headers: { cookie } });
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe('/');
    });

    it('keeps a real page of the shop', async () => {
      const { cookie } = await shop.customer();
      const response = await send({ path: `/auth?redirectTo=${encodeURIComponent('/product/abc?q=1')}`, headers: { cookie } });
      expect(response.headers.location).toBe('/product/abc?q=1');
    });
  });

  describe('bodies are bounded before anything reads them', () => {
    it('a 20 MB form post is answered 413 in under a second, and nothing is stored', async () => {
      const before = await count(shop, 'contact_messages');
      const body = Buffer.alloc(20 * 1024 * 1024, 'a');
      const response = await send({ method: 'POST', path: '/contact', headers: { 'content-type': form, 'content-length': String(body.length) }, body });
      expect(response.status).toBe(413);
      expect(response.ms).toBeLessThan(1000);
      expect(await count(shop, 'contact_messages')).toBe(before);
    });

    it('a body sent without a length is cut off at the limit', async () => {
      function* chunks() {
        for (let i = 0; i < 2000; i++) yield Buffer.alloc(64 * 1024, i === 0 ? 'name=' : 'a');
      }
      const response = await send({ method: 'POST', path: '/contact', headers: { 'content-type': form, 'transfer-encoding': 'chunked' }, chunks: chunks() });
      expect(response.status).toBe(413);
      expect(response.ms).toBeLessThan(1000);
    });

    it('a 100 MB multipart upload to a form route is refused before it is read', async () => {
      const response = await send({
        method: 'POST',
        path: '/contact',
        headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(100 * 1024 * 1024) },
        body: '--x\r\n',
      });
      expect(response.status).toBe(413);
    });
  });

  describe('abuse limits', () => {
    const signUpBody = (i: number | string) => new URLSearchParams({ intent: 'signup', name: 'Ola', email: `ola.${i}.${Date.now()}@example.test`, password: 'correct horse battery' }).toString();

    it('30 customers signing up from one address (a carrier NAT, an office) all get accounts; a burst from it stops at 50 in the hour', async () => {
      const before = await count(shop, 'users');
      // X-Forwarded-For is not trusted by default: every request comes from the same socket address.
      for (let i = 0; i < 30; i++) {
        const response = await send({ method: 'POST', path: '/auth', headers: { 'content-type': form }, body: signUpBody(i) });
        expect(response.status, `sign-up ${i + 1}`).not.toBe(429);
      }
      expect((await count(shop, 'users')) - before).toBe(30);
      const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => send({ method: 'POST', path: '/auth', headers: { 'content-type': form }, body: signUpBody(`burst.${i}`) })));
      // Attempts are counted before the work, so a burst can only be refused more, never let through more.
      const created = (await count(shop, 'users')) - before;
      expect(created).toBeGreaterThan(30);
      expect(created).toBeLessThanOrEqual(50);
      expect(burst.filter((r) => r.status === 429)).toHaveLength(60 - created);
      expect(burst.find((r) => r.status === 429)?.body).toContain('Too many requests. Please try again later.');
    }, 60_000);

    it('30 contact messages from one address: at most 20 reach the shop', async () => {
      const before = await count(shop, 'contact_messages');
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const body = new URLSearchParams({ name: 'Bot', email: `bot.${i}@example.test`, subject: 'Hi', message: 'Buy my stuff' });
          return send({ method: 'POST', path: '/contact', headers: { 'content-type': form, 'x-forwarded-for': `203.0.113.${i}` }, body: body.toString() });
        }),
      );
      const stored = (await count(shop, 'contact_messages')) - before;
      expect(stored).toBeGreaterThan(0);
      expect(stored).toBeLessThanOrEqual(20);
      expect(results.filter((r) => r.status === 429)).toHaveLength(30 - stored);
    });
  });

  describe('responses', () => {
    it('personal pages are private and not stored; every response has a Permissions-Policy', async () => {
      const { cookie } = await shop.customer();
      for (const path of ['/profile', '/profile.data', '/cart', '/cart.data', '/checkout', '/']) {
        const response = await send({ path, headers: { cookie } });
        expect(response.headers['cache-control'], path).toBe('private, no-store');
      }
      const guest = await send({ path: '/about' });
      expect(guest.headers['cache-control'] ?? '').not.toContain('private');
      expect(guest.headers['permissions-policy']).toContain('camera=()');
      expect(guest.headers['permissions-policy']).toContain('geolocation=()');
    });

    it('a cart started by a guest makes that guest\'s pages private too', async () => {
      const body = new URLSearchParams({ intent: 'add', productId: shop.productId, quantity: '1' }).toString();
      const added = await send({ method: 'POST', path: '/cart', headers: { 'content-type': form }, body });
      expect(added.status).toBe(200);
      expect(added.headers['cache-control']).toBe('private, no-store');
      const cookie = added.headers['set-cookie']!.map((c) => c.split(';')[0]).join('; ');
      expect(cookie).toMatch(/^kopi_cart=[^;]+\.[^;]+$/); // signed
      const cart = await send({ path: '/cart', headers: { cookie } });
      expect(cart.body).toContain('Gayo');
      expect(cart.headers['cache-control']).toBe('private, no-store');
    });

    it('a password-reset page is never cached: a spent link says so at once', async () => {
      const { email } = await shop.customer();
      await requestPasswordReset(shop.db, { email, locale: 'en', publicUrl: new URL(shop.base) });
      const mail = await shop.db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', email).executeTakeFirstOrThrow();
      const token = /token=([\w-]+)/.exec(mail.text_body)![1];
      const path = `/auth/reset?token=${token}`;
      for (let i = 0; i < 2; i++) {
        const page = await send({ path });
        expect(page.status).toBe(200);
        expect(page.headers['x-page-cache']).toBeUndefined();
        expect(page.headers['cache-control']).toBe('no-store');
        expect(page.headers['referrer-policy']).toBe('same-origin');
        expect(page.body).toContain('name="token"');
      }
      const body = new URLSearchParams({ token, password: 'a new long password' }).toString();
      const reset = await send({ method: 'POST', path: '/auth/reset', headers: { 'content-type': form }, body });
      expect(reset.status).toBe(302);
      const spent = await send({ path });
      expect(spent.body).not.toContain('name="token"');
      expect(spent.body).toContain('This reset link is invalid or has expired.');
    });

    it('a forged or unsigned-with-our-secret cookie is as good as none', async () => {
      const { cookie } = await shop.customer();
      const forged = cookie.replace(/\.[^.]+$/, '.AAAA');
      const response = await send({ path: '/profile', headers: { cookie: forged } });
      expect(response.status).toBe(302);
      expect(response.headers.location).toMatch(/^\/auth\?mode=login/);
    });
  });

  it('the analytics endpoint refuses a purchase from a browser', async () => {
    const before = await count(shop, 'analytics_events');
    const purchase = { name: 'purchase', props: { transaction_id: 'x', currency: 'EUR', value: 99_999_99, items: [] }, path: '/', visitorId: 'Qm9vbXRvd24tdmlzaXRvcg' };
    const response = await send({ method: 'POST', path: '/api/events', headers: { 'content-type': 'application/json' }, body: JSON.stringify(purchase) });
    expect(response.status).toBe(400);
    expect(await count(shop, 'analytics_events')).toBe(before);
  });

  it('compresses pages quickly and the built files thoroughly, in both encodings a browser offers', async () => {
    const fetchRaw = (path: string, encoding: string, cookie = '') =>
      new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: shop.port, path, headers: { 'accept-encoding': encoding, cookie } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    // A page rendered for a signed-in customer, so nothing serves it from a cache.
    const { cookie } = await shop.customer();
    const plain = (await fetchRaw('/', 'identity', cookie)).bytes;
    const gzip = await fetchRaw('/', 'gzip', cookie);
    const brotli = await fetchRaw('/', 'br', cookie);
    expect([gzip.encoding, brotli.encoding]).toEqual(['gzip', 'br']);
    const page = zlib.gunzipSync(gzip.bytes).toString();
    expect(page).toContain('<html');
    expect(zlib.brotliDecompressSync(brotli.bytes).toString()).toContain('<html');
    // The fast level: nearer level 3's size than the default's (the nonce differs per request, not the length).
    const level = (n: number) => zlib.gzipSync(Buffer.from(page), { level: n }).length;
    expect(Math.abs(gzip.bytes.length - level(3))).toBeLessThan(Math.abs(gzip.bytes.length - level(6)));
    expect(plain.length).toBe(Buffer.byteLength(page));
    // A built script keeps the default level (its size is the first visit's budget).
    const script = /\/assets\/[\w.-]+\.js/.exec(page)?.[0];
    expect(script).toBeDefined();
    const asset = await fetchRaw(script!, 'gzip');
    expect(asset.encoding).toBe('gzip');
    const source = zlib.gunzipSync(asset.bytes);
    expect(asset.bytes.length).toBe(zlib.gzipSync(source, { level: 6 }).length);
  });
});

describe('TRUST_PROXY', () => {
  it('decides whose X-Forwarded-For counts: none by default, the configured proxy when set', async () => {
    const shop = await startTestShop({ TRUST_PROXY: 'loopback' });
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => {
          const body = new URLSearchParams({ name: 'Ola', email: `ola.${i}@example.test`, subject: 'Hi', message: 'Hello' }).toString();
          // Behind a trusted proxy on 127.0.0.1 each of these is a different client.
          return rawRequest(shop.port, { method: 'POST', path: '/contact', headers: { 'content-type': form, 'x-forwarded-for': `203.0.113.${i}` }, body });
        }),
      );
      expect(results.every((r) => r.status === 200)).toBe(true);
    } finally {
      await shop.close();
    }
  });
});

describe('the shop-wide ceiling', () => {
  it('cuts off sign-ups spread over many addresses at the (scaled) ceiling, in the visitor’s language, writing nothing', async () => {
    // RATE_LIMIT_FACTOR 0.05 makes the ceiling of 200 sign-ups an hour 10; behind a trusted proxy each request
    // below comes from an address of its own, so only the ceiling can stop them.
    const shop = await startTestShop({ TRUST_PROXY: 'loopback', RATE_LIMIT_FACTOR: '0.05' });
    try {
      const signUp = (i: number, path = '/auth') => {
        const body = new URLSearchParams({ intent: 'signup', name: 'Ola', email: `ola.${i}@example.test`, password: 'correct horse battery' }).toString();
        return rawRequest(shop.port, { method: 'POST', path, headers: { 'content-type': form, 'x-forwarded-for': `198.51.100.${i}` }, body });
      };
      for (let i = 1; i <= 10; i++) expect((await signUp(i)).status, `sign-up ${i}`).not.toBe(429);
      const users = await count(shop, 'users');
      const rows = Number((await shop.db.selectFrom('rate_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const english = await signUp(11);
      expect(english.status).toBe(429);
      expect(english.body).toContain('Too many requests. Please try again later.');
      const polish = await signUp(12, '/pl/auth');
      expect(polish.status).toBe(429);
      expect(polish.body).toContain('Zbyt wiele prób. Spróbuj ponownie później.');
      expect(await count(shop, 'users')).toBe(users);
      expect(Number((await shop.db.selectFrom('rate_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(rows);
    } finally {
      await shop.close();
    }
  });
});

describe('a shop served over https', () => {
  it('names the session cookie __Host-, and keeps HSTS to its own host unless told otherwise', async () => {
    for (const [env, subdomains] of [[{}, false], [{ HSTS_INCLUDE_SUBDOMAINS: 'true' }, true]] as const) {
      const shop = await startTestShop({ PUBLIC_URL: 'https://shop.example.test', ...env });
      try {
        const page = await rawRequest(shop.port, { path: '/about' });
        expect(page.headers['strict-transport-security']).toBe(`max-age=31536000${subdomains ? '; includeSubDomains' : ''}`);
        const email = `https.${Math.random().toString(36).slice(2)}@example.test`;
        const body = new URLSearchParams({ intent: 'signup', name: 'Ola', email, password: 'correct horse battery' }).toString();
        const signUp = await rawRequest(shop.port, { method: 'POST', path: '/auth', headers: { 'content-type': form, origin: 'https://shop.example.test' }, body });
        const session = signUp.headers['set-cookie']!.find((c) => c.includes('kopi_session='))!;
        expect(session).toMatch(/^__Host-kopi_session=[^;]+; Max-Age=\d+; Path=\/; .*HttpOnly; Secure; SameSite=Lax$/);
        expect(session).not.toMatch(/Domain=/i);
        // The prefixed cookie signs the shopper in, and keeps their pages out of the shared cache.
        const cookie = session.split(';')[0];
        const profile = await rawRequest(shop.port, { path: '/profile', headers: { cookie } });
        expect(profile.status).toBe(200);
        expect(profile.headers['cache-control']).toBe('private, no-store');
      } finally {
        await shop.close();
      }
    }
  });
});
