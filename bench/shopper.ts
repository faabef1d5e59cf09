/**
 * A customer as the benches and the crash test play one: a cookie jar and the plain form posts a browser
 * without JavaScript sends, signed up over HTTP, checking out with the test provider's 4242 card.
 */
/** The delivery step's form as a browser sends it: a courier within Poland (migration 0019's rates), to this address, kept in the profile (the box is ticked by default). */
export const ADDRESS = { fullName: 'Bench Customer', address: 'ul. Długa 5', city: 'Gdańsk', zipCode: '80-827', country: 'PL', methodId: 'method-pl-courier', saveToProfile: 'on' };
export const CARD_EXPIRY = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

import { demoProducts } from '../app/demo/products';
import { DEMO_SALE } from '../app/demo/sale';

/** The product ids a page links to (`/product/{id}`), each once, in page order. */
export function productIdsIn(html: string): string[] {
  return [...new Set([...html.matchAll(/href="\/product\/([\w-]+)"/g)].map((m) => m[1]))];
}

/**
 * The demo's coffee on sale (its price read with its sale, its 30 days' lowest price from the history): the
 * product page the benches measure, so the price lookups of issue 34 are in every figure.
 */
export async function saleProductId(base: string): Promise<string> {
  const name = demoProducts.find((p) => p.key === DEMO_SALE)!.en.name;
  const [id] = productIdsIn(await (await fetch(`${base}/?q=${encodeURIComponent(name)}`)).text());
  if (!id) throw new Error(`no product link for ${name}`);
  return id;
}

export class Customer {
  private cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    readonly email: string,
  ) {}

  /** A form post as a browser without JavaScript sends it; redirects are not followed. */
  post(path: string, fields: Record<string, string>): Promise<{ status: number; location: string; body: string }> {
    return this.send('POST', path, fields);
  }

  /** A page as a browser asks for it, with the customer's cookies. */
  get(path: string): Promise<{ status: number; location: string; body: string }> {
    return this.send('GET', path);
  }

  private async send(method: 'GET' | 'POST', path: string, fields?: Record<string, string>) {
    const response = await fetch(this.base + path, {
      method,
      headers: {
        origin: this.base,
        ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        cookie: this.cookieHeader,
      },
      body: fields ? new URLSearchParams(fields) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
    // Only a page is read; anything else is let go, so the connection is free for the next request.
    let body = '';
    if (response.status === 200) body = await response.text();
    else await response.body?.cancel();
    return { status: response.status, location: response.headers.get('location') ?? '', body };
  }

  get signedIn() {
    return this.cookies.has('kopi_session');
  }

  /** The Cookie header this customer's browser sends. */
  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Signs up `count` customers over HTTP, eight at a time (each hashes a password with argon2id). */
export async function signUpCustomers(base: string, emailPrefix: string, count: number): Promise<Customer[]> {
  const customers = Array.from({ length: count }, (_, i) => new Customer(base, `${emailPrefix}${i}@example.test`));
  for (let i = 0; i < customers.length; i += 8) {
    await Promise.all(
      customers.slice(i, i + 8).map(async (customer) => {
        const answer = await customer.post('/auth?mode=signup', {
          intent: 'signup',
          name: 'Bench Customer',
          email: customer.email,
          password: 'bench-password-123',
          redirectTo: '/',
        });
        if (answer.status !== 302 || !customer.signedIn) throw new Error(`sign-up of ${customer.email} failed (${answer.status})`);
      }),
    );
  }
  return customers;
}

export type CheckoutOutcome = { ok: true; orderId: string } | { ok: false; problem: string; orderId?: string };

/**
 * One checkout: add a product (POST /cart), Proceed to Payment with an address (POST /checkout
 * intent=proceed, whose page carries the order id), and Pay with 4242 4242 4242 4242 (POST /checkout
 * intent=pay, answered with a redirect to the success screen).
 */
export async function checkOutOnce(customer: Customer, productId: string): Promise<CheckoutOutcome> {
  const add = await customer.post('/cart', { intent: 'add', productId, quantity: '1', redirectTo: '/cart' });
  if (add.status !== 302) return { ok: false, problem: `add to cart ${add.status}` };
  const proceed = await customer.post('/checkout', { intent: 'proceed', ...ADDRESS });
  const orderId = /name="orderId" value="([^"]+)"/.exec(proceed.body)?.[1];
  if (proceed.status !== 200 || !orderId) return { ok: false, problem: `proceed ${proceed.status}${orderId ? '' : ' without an order id'}` };
  const pay = await customer.post('/checkout', { intent: 'pay', orderId, cardNumber: '4242 4242 4242 4242', cardExpiry: CARD_EXPIRY, cardCvc: '123' });
  if (pay.status !== 302 || pay.location !== `/checkout?step=done&order=${orderId}`) {
    return { ok: false, problem: `pay ${pay.status}${pay.location ? ` → ${pay.location}` : ''}`, orderId };
  }
  return { ok: true, orderId };
}
