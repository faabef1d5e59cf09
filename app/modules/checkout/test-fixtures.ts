/** Test helpers for the checkout, orders and payments suites (not used by the app). */
import type { Executor } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { addToCart, ensureUserCart } from '~/modules/cart/index.server';
import { createProduct } from '~/modules/catalog/index.server';
import type { ShippingAddress } from './checkout.schema';

export { nullStorage as storage } from '~/modules/storage/null-storage';

export const address: ShippingAddress = { fullName: 'Ola Nowak', address: 'ul. Kwiatowa 5', city: 'Kraków', zipCode: '30-001' };

export async function createUser(db: Executor, email = `${newId().slice(0, 8).toLowerCase()}@example.com`) {
  const id = newId();
  const at = new Date().toISOString();
  await db.insertInto('users').values({ id, email, display_name: 'Ola', password_hash: null, photo_url: null, created_at: at, updated_at: at }).execute();
  return { id, email };
}

export const createCoffee = (db: Executor, name: string, priceCents: number, images: string[] = []) =>
  createProduct(db, {
    category: 'wholeBean',
    priceCents,
    translations: { en: { name, description: '' }, pl: { name: `${name} PL` } },
    images,
  });

/** A signed-in customer's cart holding the given products and quantities. */
export async function fillCart(db: Executor, userId: string, items: Array<[productId: string, quantity: number]>): Promise<string> {
  const cartId = await ensureUserCart(db, userId);
  for (const [productId, quantity] of items) {
    const result = await addToCart(db, cartId, productId, quantity);
    if (!result.ok) throw new Error('product not found');
  }
  return cartId;
}

export const cartLines = async (db: Executor, cartId: string) =>
  (await db.selectFrom('cart_lines').select(['product_id', 'quantity']).where('cart_id', '=', cartId).orderBy('added_at').execute()).map(
    (r) => [r.product_id, r.quantity] as const,
  );

export const mails = (db: Executor) =>
  db.selectFrom('mail_outbox').select(['to_address', 'subject', 'text_body', 'html_body', 'status']).orderBy('created_at').execute();
