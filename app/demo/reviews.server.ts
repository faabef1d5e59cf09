/**
 * The demo shop's customers, their delivered orders and their reviews (app/demo/reviews.ts).
 * The customers cannot sign in (no password, an address under .invalid), their orders are marked as paid
 * through "demo" (no payment provider knows them, so nothing can be charged or refunded), and the reviews
 * go through `saveReview`, which checks the delivered order like for anyone else.
 */
import { SHIPPED_RATES, orderVat } from '~/modules/tax/index.server';
import type { Executor } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type DemoCustomer, demoCustomers } from '~/demo/reviews';
import { type OptionKind, type Variant, variantLabel } from '~/modules/catalog/index.server';
import { getT } from '~/modules/i18n/index.server';
import { saveReview } from '~/modules/reviews/index.server';

const DAY_MS = 86_400_000;

/** The demo coffees as seeded: by demo key, the product, its price, name and picture, and the variant bought. */
export type DemoMade = Map<string, { id: string; priceCents: number; name: string; image: string | null; variant?: Variant; options?: OptionKind[] }>;

/** Seeds the demo customers' orders and reviews; `products` maps a demo key to its product and the variant bought. */
export async function seedDemoReviews(
  trx: Executor,
  products: DemoMade,
  now = new Date(),
  customers: DemoCustomer[] = demoCustomers,
): Promise<number> {
  let count = 0;
  for (const customer of customers) {
    const lines = customer.reviews.map((review) => products.get(review.product)).filter((p) => p !== undefined);
    if (lines.length === 0) continue;
    const ordered = new Date(now.getTime() - customer.orderedDaysAgo * DAY_MS);
    const at = (days: number) => new Date(ordered.getTime() + days * DAY_MS).toISOString();
    // A shop whose demo coffees were all deleted seeds them again on its next start: its demo customers stay.
    const existing = await trx.selectFrom('users').select('id').where('email', '=', customer.email).executeTakeFirst();
    const userId = existing?.id ?? newId();
    if (!existing) {
      await trx
        .insertInto('users')
        .values({ id: userId, email: customer.email, display_name: customer.name, password_hash: null, is_admin: 0, disabled: 1, photo_url: null, created_at: at(0), updated_at: at(0) })
        .execute();
    }
    const orderId = newId();
    // Taxed as every order was then: Polish VAT on coffee.
    const vat = orderVat(lines.map((line) => ({ grossCents: line.priceCents, rateBp: SHIPPED_RATES.PL.coffee })), 0);
    await trx
      .insertInto('orders')
      .values({
        id: orderId,
        user_id: userId,
        user_email: customer.email,
        locale: customer.locale,
        cart_id: null,
        total_cents: lines.reduce((sum, line) => sum + line.priceCents, 0),
        currency: 'EUR',
        payment_provider: 'demo',
        payment_intent_id: null,
        payment_client_secret: null,
        cart_fingerprint: `demo-${orderId}`,
        payment_status: 'succeeded',
        shipping_status: 'delivered',
        shipping_full_name: customer.name,
        shipping_address: 'Demo Street 1',
        shipping_city: customer.locale === 'pl' ? 'Kraków' : 'Berlin',
        shipping_zip_code: customer.locale === 'pl' ? '30-001' : '10115',
        created_at: at(0),
        paid_at: at(0),
        visitor_id: null,
        carrier: null,
        tracking_number: null,
        shipped_at: at(1),
        delivered_at: at(3),
        cancelled_at: null,
        tax_country: 'PL',
        vat_cents: vat.lines.reduce((sum, p) => sum + p.vatCents, 0),
        delivery_tax: '[]',
      })
      .execute();
    await trx
      .insertInto('order_lines')
      .values(
        lines.map((line, position) => ({
          order_id: orderId,
          position,
          product_id: line.id,
          variant_id: line.variant?.id ?? null,
          sku: line.variant?.sku ?? null,
          title: line.name,
          variant_label: line.variant ? variantLabel(line.variant, line.options ?? [], getT(customer.locale), customer.locale) : '',
          net_weight_grams: line.variant?.netWeightGrams ?? null,
          unit_price_cents: line.priceCents,
          quantity: 1,
          image: line.image,
          tax_rate_bp: vat.lines[position]!.rateBp,
          net_cents: vat.lines[position]!.netCents,
          vat_cents: vat.lines[position]!.vatCents,
        })),
      )
      .execute();
    for (const [i, review] of customer.reviews.entries()) {
      const product = products.get(review.product);
      if (!product) continue;
      const outcome = await saveReview(trx, { userId, displayName: customer.name }, product.id, { rating: review.rating, body: review.body, locale: customer.locale }, new Date(ordered.getTime() + (5 + i) * DAY_MS));
      if (outcome.ok) count += 1;
    }
  }
  return count;
}
