/**
 * A re-sent "Add to cart" changes the cart once; a deliberate second click adds a second bag. Over HTTP against
 * the production build with the page cache on, as browsers without JavaScript post the forms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestShop, rawRequest, startTestShop } from './test-shop';

const form = 'application/x-www-form-urlencoded';

describe('a re-sent "Add to cart"', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.close());

  const post = (fields: Record<string, string>, cookie?: string) =>
    rawRequest(shop.port, {
      method: 'POST',
      path: '/cart',
      headers: { 'content-type': form, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
  const add = (requestKey: string | undefined, cookie?: string) =>
    post({ intent: 'add', productId: shop.productId, quantity: '1', redirectTo: '/cart', ...(requestKey ? { requestKey } : {}) }, cookie);
  const cookieOf = (response: { headers: { 'set-cookie'?: string[] } }) =>
    (response.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  /** The quantity of the test product in the cart the cookie names, as the cart page shows it (0: no line). */
  const quantityIn = async (cookie: string) => {
    const page = await rawRequest(shop.port, { path: '/cart', headers: { cookie } });
    return Number(/data-testid="line-quantity"[^>]*>(\d+)</.exec(page.body)?.[1] ?? 0);
  };
  /** The form key in the home page's "Add to cart" form. */
  const keyOnHome = async () => {
    const home = await rawRequest(shop.port, { path: '/' });
    expect(home.status).toBe(200);
    const key = /name="requestKey" value="([\w-]+)"/.exec(home.body)?.[1];
    expect(key).toMatch(/^[\w-]{22}$/);
    return { key: key!, cache: home.headers['x-page-cache'] };
  };

  it('sent twice in sequence adds one bag, and a deliberate second click a second one', async () => {
    const { key } = await keyOnHome();
    const first = await add(key);
    expect(first.status).toBe(302);
    const cookie = cookieOf(first);
    expect(cookie).toMatch(/^kopi_cart=/);
    const again = await add(key, cookie);
    expect(again.status).toBe(302); // answered as if it had succeeded
    expect(again.headers.location).toBe('/cart');
    expect(await quantityIn(cookie)).toBe(1);

    // The page the shopper comes back to carries a fresh key: the next click is a new bag.
    const { key: next } = await keyOnHome();
    expect(next).not.toBe(key);
    await add(next, cookie);
    expect(await quantityIn(cookie)).toBe(2);
  });

  it('sent by script to a shop reached at another address than PUBLIC_URL adds the bag; from another site, nothing', async () => {
    const viaScript = (origin: string, cookie?: string) =>
      rawRequest(shop.port, {
        method: 'POST',
        path: '/cart.data',
        headers: { 'content-type': form, origin, ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams({ intent: 'add', productId: shop.productId, quantity: '1' }).toString(),
      });
    // The test shop's PUBLIC_URL is http://127.0.0.1:3999; the browser reached it at its own port.
    const here = await viaScript(`http://127.0.0.1:${shop.port}`);
    expect(here.status).toBe(200);
    const cookie = cookieOf(here);
    expect(await quantityIn(cookie)).toBe(1);
    const elsewhere = await viaScript('https://other.example', cookie);
    expect(elsewhere.status).toBe(403);
    expect(await quantityIn(cookie)).toBe(1);
  });

  it('sent five times at once by a signed-in customer adds one bag', async () => {
    const { cookie } = await shop.customer();
    const key = 'concurrent-key-0123456789';
    const answers = await Promise.all(Array.from({ length: 5 }, () => add(key, cookie)));
    expect(answers.map((a) => a.status)).toEqual([302, 302, 302, 302, 302]);
    expect(await quantityIn(cookie)).toBe(1);
    // Two different clicks at once are two bags.
    await Promise.all([add('click-one-0123456789ab', cookie), add('click-two-0123456789ab', cookie)]);
    expect(await quantityIn(cookie)).toBe(3);
  });

  it('a retry whose first answer (and its cookie) was lost finds the cart the first one made', async () => {
    const key = 'lost-answer-0123456789';
    const first = await add(key);
    const retry = await add(key); // the browser never stored the first cookie
    const cookie = cookieOf(retry);
    expect(cookie).toMatch(/^kopi_cart=/);
    expect(cookie).toBe(cookieOf(first));
    expect(await quantityIn(cookie)).toBe(1);
  });

  it('two visitors on the same cached page each get their own bag', async () => {
    const a = await keyOnHome();
    const b = await keyOnHome();
    expect(b.cache).toBe('hit');
    expect(b.key).not.toBe(a.key);
    const cookieA = cookieOf(await add(a.key));
    const cookieB = cookieOf(await add(b.key));
    expect(cookieA).not.toBe(cookieB);
    expect(await quantityIn(cookieA)).toBe(1);
    expect(await quantityIn(cookieB)).toBe(1);
  });

  it('without a key every post adds (older pages still work), and a bad key is refused', async () => {
    const cookie = cookieOf(await add(undefined));
    await add(undefined, cookie);
    expect(await quantityIn(cookie)).toBe(2);
    const bad = await add('not a key!', cookie);
    expect(bad.status).toBe(400);
    expect(await quantityIn(cookie)).toBe(2);
  });

  it('− and + set the number they show, so sending one twice moves the quantity once', async () => {
    const cookie = cookieOf(await add(undefined));
    const set = (quantity: number) => post({ intent: 'set', variantId: shop.variantId, quantity: String(quantity), redirectTo: '/cart' }, cookie);
    await set(3);
    await set(3);
    expect(await quantityIn(cookie)).toBe(3);
    await Promise.all([set(2), set(2)]);
    expect(await quantityIn(cookie)).toBe(2);
    await set(0);
    await set(0);
    expect(await quantityIn(cookie)).toBe(0);
    // The page's buttons post exactly that.
    await add(undefined, cookie);
    const page = await rawRequest(shop.port, { path: '/cart', headers: { cookie } });
    expect(page.body).toMatch(/name="intent" value="set"[^]*?name="quantity" value="0"/);
    expect(page.body).toMatch(/name="intent" value="set"[^]*?name="quantity" value="2"/);
    expect(page.body).not.toMatch(/value="increment"|value="decrement"/);
  });
});
