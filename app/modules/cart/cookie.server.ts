/** The guest cart cookie: an opaque cart id, readable only by the server. */
export const CART_COOKIE = 'kopi_cart';
const MAX_AGE_SECONDS = 90 * 24 * 60 * 60;
const cartIdPattern = /^[A-Za-z0-9_-]{16,64}$/;

/** The cart id from the request's cookie, or null when absent or not shaped like one of our ids. */
export function readCartId(request: Request): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== CART_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return cartIdPattern.test(value) ? value : null;
  }
  return null;
}

/** A Set-Cookie value that keeps the cart for 90 days. */
export function cartCookie(cartId: string, secure: boolean): string {
  if (!cartIdPattern.test(cartId)) throw new Error('Invalid cart id');
  return `${CART_COOKIE}=${cartId}; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** A Set-Cookie value that forgets the cart (logout starts a new, empty guest cart). */
export function clearCartCookie(secure: boolean): string {
  return `${CART_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
