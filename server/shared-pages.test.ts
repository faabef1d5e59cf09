/**
 * Catalogue pages for shoppers with a cookie are rendered once per URL, kind of shopper and cart count, and
 * filled in per response: each shopper must get exactly the page a full render would have given them, and
 * nobody else's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToCart, ensureUserCart } from '~/modules/cart/index.server';
import { updateProduct } from '~/modules/catalog/index.server';
import { type TestShop, startTestShop } from './test-shop';

let shop: TestShop;
/** The same shop (same database and secret) with PAGE_CACHE=false: every page rendered in full. */
let rendered: TestShop;
beforeAll(async () => {
  shop = await startTestShop();
  rendered = await startTestShop({ DATA_DIR: shop.config.dataDir, PAGE_CACHE: 'false' });
  // The second shop added its product: let both see the catalogue version settle (they poll every 500 ms).
  await new Promise((resolve) => setTimeout(resolve, 1200));
});
afterAll(async () => {
  await rendered?.close();
  await shop?.close();
});

const get = (target: TestShop, path: string, cookie: string) => fetch(target.base + path, { headers: { cookie } });
/** The per-response tokens are set to fixed values, so two responses can be compared byte for byte. */
const normalized = (html: string) =>
  html
    .replace(/nonce="[^"]+"/g, 'nonce="N"')
    .replace(/name="requestKey" value="[^"]+"/g, 'REQUESTKEY')
    .replace(/127\.0\.0\.1:\d+/g, 'HOST');

/**
 * Asks until the page comes from the shared cache: the earlier tests' catalogue changes reach the shop through its
 * watcher (every 500 ms), and a page kept before the last of them is dropped.
 */
async function sharedOnce(target: TestShop, path: string, cookie: string) {
  const deadline = Date.now() + 3000;
  let answeredBy: string | null = null;
  while (Date.now() < deadline && answeredBy !== 'shared') {
    const page = await get(target, path, cookie);
    await page.text();
    answeredBy = page.headers.get('x-page-cache');
    if (answeredBy !== 'shared') await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(answeredBy, path).toBe('shared');
}

async function customerWithCart(name: string, quantity: number) {
  const account = await shop.customer(undefined, name);
  await addToCart(shop.db, await ensureUserCart(shop.db, account.userId), shop.variantId, quantity);
  return account;
}

describe('pages shared by shoppers with a cookie', () => {
  const pages = () => ['/', '/pl', `/product/${shop.productId}`, `/pl/product/${shop.productId}`, '/categories', '/pl/categories?category=wholeBean', '/about'];

  it('give every signed-in customer the bytes a full render gives them, with their own name', async () => {
    const zofia = await customerWithCart('Zofia Żółć-Nowak Jr.', 2);
    const ola = await customerWithCart('Ola', 2);
    for (const path of pages()) {
      await get(shop, path, zofia.cookie);
      const hit = await get(shop, path, ola.cookie);
      expect(hit.headers.get('x-page-cache'), path).toBe('shared');
      const html = await hit.text();
      expect(html).toContain('Ola');
      expect(html, 'nobody else’s name').not.toContain('Zofia');
      expect(html).not.toContain('kopiname');
      const full = normalized(await (await get(rendered, path, ola.cookie)).text());
      expect(normalized(html), path).toBe(full);

      const again = await get(shop, path, zofia.cookie);
      expect(again.headers.get('x-page-cache')).toBe('shared');
      expect(normalized(await again.text()), path).toBe(normalized(await (await get(rendered, path, zofia.cookie)).text()));
    }
  });

  it('keep the contact form, which a customer finds filled in with their own name and email, to each customer', async () => {
    const [zofia, ola] = [await customerWithCart('Zofia', 1), await customerWithCart('Ola', 1)];
    for (const account of [zofia, ola, zofia]) {
      const page = await get(shop, '/pl/contact', account.cookie);
      expect(page.headers.get('x-page-cache')).toBeNull();
      const html = await page.text();
      expect(html).toContain(`value="${account.email}"`);
      expect(html).not.toContain((account === ola ? zofia : ola).email);
    }
    // Guests share one page, with nothing filled in.
    const cart = await addToCart(shop.db, null, shop.variantId, 1);
    if (!cart.ok) throw new Error('no cart');
    const guest = await shop.guestCookie(cart.cartId);
    await get(shop, '/contact', guest);
    const shared = await get(shop, '/contact', guest);
    expect(shared.headers.get('x-page-cache')).toBe('shared');
    expect(await shared.text()).not.toContain('@example.test');
  });

  it('give a guest with a cart the page with their count, and fresh tokens in every response', async () => {
    const { db, variantId } = shop;
    const cart = await addToCart(db, null, variantId, 3);
    if (!cart.ok) throw new Error('no cart');
    const cookie = await shop.guestCookie(cart.cartId);
    const first = await get(shop, '/', cookie);
    const second = await get(shop, '/', cookie);
    expect(second.headers.get('x-page-cache')).toBe('shared');
    const [a, b] = [await first.text(), await second.text()];
    expect(b).toMatch(/data-testid="cart-count"[^>]*>3</);
    expect(/nonce="([^"]+)"/.exec(a)![1]).not.toBe(/nonce="([^"]+)"/.exec(b)![1]);
    expect(second.headers.get('content-security-policy')).toContain(`'nonce-${/nonce="([^"]+)"/.exec(b)![1]}'`);
    expect(second.headers.get('cache-control')).toBe('private, no-store');
    expect(normalized(b)).toBe(normalized(await (await get(rendered, '/', cookie)).text()));
  });

  it('follow the cart count and the catalogue', async () => {
    const account = await customerWithCart('Ola', 1);
    const path = `/product/${shop.productId}`;
    await get(shop, path, account.cookie);
    await addToCart(shop.db, await ensureUserCart(shop.db, account.userId), shop.variantId, 1);
    expect(await (await get(shop, path, account.cookie)).text()).toMatch(/data-testid="cart-count"[^>]*>2</);

    await updateProduct(shop.db, shop.productId, {
      category: 'wholeBean',
      priceCents: 1390,
      translations: { en: { name: 'Gayo Renamed', description: 'Chocolate.' }, pl: { name: 'Gayo', description: 'Czekolada.' } },
      images: [],
    });
    // The shop notices a change made elsewhere within a poll (500 ms) and renders afresh.
    const deadline = Date.now() + 3000;
    let html = '';
    while (Date.now() < deadline && !html.includes('Gayo Renamed')) {
      html = await (await get(shop, path, account.cookie)).text();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(html).toContain('Gayo Renamed');
  });

  it('render in full for a name that HTML or JSON would write differently, and for the owner', async () => {
    // The header greets by the first word of the name: here, one HTML and JSON would both have to escape.
    const odd = await customerWithCart(`O'Brien<b>"x"</b>&co Smith`, 1);
    const first = await get(shop, '/about', odd.cookie);
    const second = await get(shop, '/about', odd.cookie);
    expect(second.headers.get('x-page-cache')).toBeNull();
    expect(await first.text()).toContain('O&#x27;Brien&lt;b&gt;&quot;x&quot;&lt;/b&gt;&amp;co');
    await second.text();

    const owner = await shop.admin();
    await get(shop, `/product/${shop.productId}`, owner.cookie);
    const page = await get(shop, `/product/${shop.productId}`, owner.cookie);
    expect(page.headers.get('x-page-cache')).toBeNull();
  });

  it('still set the cookies a shopper needs: a cart cookie from before cookies were signed, an ended session', async () => {
    const cart = await addToCart(shop.db, null, shop.variantId, 2);
    if (!cart.ok) throw new Error('no cart');
    const signed = await shop.guestCookie(cart.cartId);
    await sharedOnce(shop, '/about', signed);
    // The same cart named by the old, unsigned cookie: the page it shares, and the cookie re-issued signed.
    const legacy = await get(shop, '/about', `kopi_cart=${cart.cartId}`);
    expect(await legacy.text()).toMatch(/data-testid="cart-count"[^>]*>2</);
    expect(legacy.headers.get('set-cookie')).toContain(signed);

    const account = await customerWithCart('Ola', 1);
    await sharedOnce(shop, '/about', account.cookie);
    await shop.db.deleteFrom('sessions').where('user_id', '=', account.userId).execute();
    const ended = await get(shop, '/about', account.cookie);
    const html = await ended.text();
    expect(html).not.toContain('data-testid="greeting"');
    expect(ended.headers.get('set-cookie')).toMatch(/kopi_session=;.*Max-Age=0/i);
  });

  it('never answer a data request or a private page', async () => {
    const account = await customerWithCart('Ola', 1);
    for (const path of ['/cart', '/profile', '/checkout', '/contact', '/_root.data', `/product/${shop.productId}.data`]) {
      await get(shop, path, account.cookie);
      const again = await get(shop, path, account.cookie);
      expect(again.headers.get('x-page-cache'), path).toBeNull();
      expect(again.headers.get('content-type') ?? '', path).not.toMatch(path.endsWith('.data') ? /text\/html/ : /^$/);
    }
  });
});
