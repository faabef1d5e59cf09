import * as z from 'zod/mini';

/**
 * First-party analytics events (spec §7) and the bounds their props must keep, so a visitor cannot fill the
 * events table with junk. Unknown props are dropped. Amounts (`value`, `cart_value`) are integer minor units of
 * the event's `currency` (EUR when it has none: events from before there were two), like every amount in Kopi.
 */
const text = z.string().check(z.maxLength(200));
const shortText = z.string().check(z.maxLength(50));
const cents = z.int().check(z.gte(0), z.lte(100_000_000));
const count = z.int().check(z.gte(0), z.lte(10_000));
const quantity = z.int().check(z.gte(1), z.lte(999));
const currency = z.enum(['EUR', 'PLN']);

/** A product and how many of it: the props of add_to_cart / remove_from_cart, and one item of a purchase. */
const productLine = z.object({ product_id: text, quantity: z.optional(quantity), value: z.optional(cents), currency: z.optional(currency) });

export const eventPropsSchemas = {
  page_view: z.object({ page_path: text }),
  add_to_cart: productLine,
  remove_from_cart: productLine,
  cookie_consent: z.object({ consent_given: z.boolean() }),
  begin_checkout: z.object({ cart_value: z.optional(cents), currency: z.optional(currency), items_count: z.optional(count) }),
  checkout_attempt_guest: z.object({ cart_value: cents, currency: z.optional(currency), items_count: count }),
  checkout_completed: z.object({ transaction_id: z.optional(text) }),
  purchase: z.object({
    transaction_id: text,
    currency: z.string().check(z.regex(/^[A-Z]{3}$/)),
    value: cents,
    items: z.array(productLine).check(z.maxLength(50)),
  }),
  login: z.object({ method: shortText }),
  sign_up: z.object({ method: shortText }),
  password_reset_requested: z.object({}),
} as const;

export type AnalyticsEventName = keyof typeof eventPropsSchemas;

/** Events only the server records (when an order becomes paid): `/api/events` refuses them from browsers. */
export const serverOnlyEvents: ReadonlySet<AnalyticsEventName> = new Set(['purchase', 'checkout_completed']);
export const analyticsEventNames = Object.keys(eventPropsSchemas) as AnalyticsEventName[];
export type EventProps<N extends AnalyticsEventName> = z.infer<(typeof eventPropsSchemas)[N]>;

/** A random id the browser keeps in localStorage after consent (never a cookie). */
export const visitorIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/));

const envelope = <N extends AnalyticsEventName>(name: N) =>
  z.object({
    name: z.literal(name),
    props: eventPropsSchemas[name],
    path: z.string().check(z.maxLength(200), z.startsWith('/')),
    visitorId: visitorIdSchema,
  });

/** What the browser sends to /api/events: `{ name, props, path, visitorId }`. */
export const analyticsEventSchema = z.discriminatedUnion('name', [
  envelope('page_view'),
  envelope('add_to_cart'),
  envelope('remove_from_cart'),
  envelope('cookie_consent'),
  envelope('begin_checkout'),
  envelope('checkout_attempt_guest'),
  envelope('checkout_completed'),
  envelope('purchase'),
  envelope('login'),
  envelope('sign_up'),
  envelope('password_reset_requested'),
]);

export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;
