import type { Generated } from 'kysely';

/**
 * Table types. Timestamps are ISO-8601 UTC strings (sortable as text on SQLite and PostgreSQL alike);
 * money is integer cents; booleans are 0/1 integers so one query works on both databases.
 */
export interface Database {
  products: ProductsTable;
  product_translations: ProductTranslationsTable;
  variants: VariantsTable;
  stock_settings: StockSettingsTable;
  delivery_settings: DeliverySettingsTable;
  currency_settings: CurrencySettingsTable;
  price_history: PriceHistoryTable;
  sales: SalesTable;
  sale_targets: SaleTargetsTable;
  discount_codes: DiscountCodesTable;
  discount_code_targets: DiscountCodeTargetsTable;
  discount_code_uses: DiscountCodeUsesTable;
  delivery_zones: DeliveryZonesTable;
  delivery_methods: DeliveryMethodsTable;
  delivery_rates: DeliveryRatesTable;
  stock_variants: StockVariantsTable;
  roast_batches: RoastBatchesTable;
  stock_movements: StockMovementsTable;
  stock_reservations: StockReservationsTable;
  stock_hold_windows: StockHoldWindowsTable;
  stock_alerts: StockAlertsTable;
  withdrawals: WithdrawalsTable;
  reviews: ReviewsTable;
  product_images: ProductImagesTable;
  search_words: SearchWordsTable;
  carts: CartsTable;
  cart_lines: CartLinesTable;
  cart_requests: CartRequestsTable;
  contact_messages: ContactMessagesTable;
  mail_outbox: MailOutboxTable;
  analytics_events: AnalyticsEventsTable;
  users: UsersTable;
  user_identities: UserIdentitiesTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  profiles: ProfilesTable;
  rate_events: RateEventsTable;
  activity_log: ActivityLogTable;
  catalog_state: CatalogStateTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  payment_events: PaymentEventsTable;
  test_payments: TestPaymentsTable;
  test_refunds: TestRefundsTable;
  refunds: RefundsTable;
  tax_settings: TaxSettingsTable;
  tax_rates: TaxRatesTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  consents: ConsentsTable;
  job_runs: JobRunsTable;
  ksef_settings: KsefSettingsTable;
  ksef_contexts: KsefContextsTable;
  ksef_submissions: KsefSubmissionsTable;
}

export interface ProductsTable {
  id: string;
  category: string | null;
  price_cents: number;
  /** The average of the published reviews' stars, to one decimal; kept by app/modules/reviews. */
  rating: Generated<number>;
  /** How many published reviews the product has. */
  review_count: Generated<number>;
  /** Island or region of origin, e.g. "Sumatra" (a proper name, the same in both languages). */
  origin: string | null;
  /** Growing area, e.g. "Aceh Gayo highlands". */
  region: string | null;
  altitude_min: number | null;
  altitude_max: number | null;
  /**
   * The lowest price of the product's active variants and that variant's net weight (the grid's "from €X" and
   * its price per kilogram, and the price sort), kept by the catalogue in the transaction that writes variants.
   */
  net_weight_grams: number | null;
  /** coffee | other: what it is taxed as (migration 0025). */
  tax_class: Generated<string>;
  /** The lowest złoty price of its active variants, in grosze (the price sort of złoty pages; migration 0022). */
  price_pln: Generated<number>;
  /** The options it is sold by, in order: '' (one way), 'size', 'grind', 'size,grind' or 'pack' (migration 0017). */
  options: Generated<string>;
  /** washed | natural | honey | wetHulled | anaerobic */
  process: string | null;
  /** light | medium | mediumDark | dark */
  roast: string | null;
  /** Lower-cased, accent-free text of both languages' name, description, notes and the category labels. */
  search_text: string;
  created_at: string;
  updated_at: string;
}

/** What a shopper buys (migration 0017; docs/decisions/0020). */
export interface VariantsTable {
  id: string;
  product_id: string;
  /** Unique across the shop. */
  sku: string;
  position: number;
  /** The size: net weight in grams; null when not set (products from before weights were kept). */
  net_weight_grams: number | null;
  /** wholeBean | espresso | mokaPot | aeropress | filter | frenchPress (app/modules/catalog/variants.ts) */
  grind: string | null;
  /** Pieces in a pack (drip bags, capsules). */
  pack_count: number | null;
  /** The gross price in euro cents and in grosze (migration 0022). */
  price_cents: number;
  price_pln: number;
  /** 0: switched off by the owner (not shown, not sold). */
  active: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** How a product's stock is kept (migration 0018); a product without a row is not tracked. */
export interface StockSettingsTable {
  product_id: string;
  /** batches | units | untracked */
  mode: string;
  /** Roast batches older than this many days stop counting as stock; null: no limit. */
  sell_within_days: number | null;
  /** What the pages last showed of its stock: a change empties the page caches. */
  shown: Generated<string>;
}

/** What stock needs of a variant (kept by the catalogue): its weight, and its counted units (units mode). */
export interface StockVariantsTable {
  variant_id: string;
  product_id: string;
  net_weight_grams: number | null;
  units: number | null;
}

/** A roast of one coffee: its day, the grams roasted and the grams left (migration 0018). */
export interface RoastBatchesTable {
  id: string;
  product_id: string;
  /** YYYY-MM-DD, the shop's calendar day. */
  roasted_on: string;
  grams_roasted: number;
  grams_left: number;
  note: Generated<string>;
  created_by: string | null;
  created_at: string;
}

/** The stock ledger: every change, never rewritten (roasted, sold, returned, corrected). */
export interface StockMovementsTable {
  id: string;
  product_id: string;
  variant_id: string | null;
  batch_id: string | null;
  order_id: string | null;
  kind: string;
  /** Signed: + into stock, − out of it. */
  grams: number | null;
  units: number | null;
  /** A correction's reason: count | damaged | sample | other. */
  reason: string | null;
  note: Generated<string>;
  actor: string | null;
  created_at: string;
}

/** Grams or units an order going to payment holds for a while. */
export interface StockReservationsTable {
  id: string;
  order_id: string;
  product_id: string;
  variant_id: string;
  quantity: number;
  grams: number | null;
  units: number | null;
  /** live | taken | released */
  status: string;
  expires_at: string;
  created_at: string;
  /** The cart whose order made the hold (migration 0030). */
  holder: string | null;
  /** The client address it came from (`ip:…`), cleared once the hold is not live (migration 0030). */
  client: string | null;
}

/** When each cart's, customer's or client address's window to hold coffee began (migration 0030). */
export interface StockHoldWindowsTable {
  key: string;
  started_at: string;
  held_until: string;
}

/** "Tell me when it's back": one mail when the variant can be bought again. */
export interface StockAlertsTable {
  id: string;
  variant_id: string;
  email: string;
  locale: string;
  /** The random token of the unsubscribe link (it can only cancel this notice). */
  token: string;
  created_at: string;
  notified_at: string | null;
  /** The account that asked while signed in (migration 0027). */
  user_id: Generated<string | null>;
}

export interface ProductTranslationsTable {
  product_id: string;
  locale: string;
  name: string;
  description: string;
  /** Comma-separated tasting notes in this language. */
  tasting_notes: string;
  /** The origin and region in this language; null: as on the product (its English words). */
  origin: string | null;
  region: string | null;
}

/** Every word of products.search_text and how many products contain it (app/db/search-words.server.ts). */
export interface SearchWordsTable {
  word: string;
  product_count: number;
}

export interface ProductImagesTable {
  product_id: string;
  position: number;
  /** Storage key of the image; the sized WebP variants sit beside it (see the storage module). */
  path: string;
  /** Size of the largest stored variant; null for pictures stored before sizes were kept (4:5, 1200 × 1500). */
  width: number | null;
  height: number | null;
}

/** One row (id 1): the catalogue's version, bumped by every catalogue write on any node. */
export interface CatalogStateTable {
  id: number;
  version: number;
  /** Moves when sales, advertised codes or variants change (migration 0024); `instance` names this database. */
  promotions: Generated<number>;
  instance: Generated<string>;
}

export interface ActivityLogTable {
  id: string;
  /** The admin who acted (null when the account is gone; the email stays). */
  actor_id: string | null;
  actor_email: string;
  /** product.created | product.updated | product.deleted | order.… (app/modules/activity) */
  action: string;
  subject_type: string;
  subject_id: string | null;
  /** What the subject was called at the time, e.g. the product's name. */
  subject_label: string;
  /** JSON: what changed, e.g. {"priceCents":[1250,1399]}. */
  details: string;
  created_at: string;
}

export interface CartsTable {
  id: string;
  user_id: string | null;
  created_at: string;
  updated_at: string;
  /** The discount code the shopper entered (migration 0024). */
  discount_code: Generated<string | null>;
}

/** "Add to cart" requests already applied, by request key, kept for a day (a re-sent add changes nothing). */
export interface CartRequestsTable {
  request_key: string;
  cart_id: string;
  created_at: string;
}

export interface CartLinesTable {
  cart_id: string;
  variant_id: string;
  quantity: number;
  added_at: string;
}

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  locale: string;
  created_at: string;
  /** When an admin marked it handled (null: unread). */
  handled_at: string | null;
  handled_by: string | null;
  /** The account that wrote while signed in (migration 0027). */
  user_id: Generated<string | null>;
}

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  reply_to: string | null;
  /** queued | sent | failed (refused for good, parked until the owner sends it again: migration 0031) */
  status: string;
  attempts: Generated<number>;
  /** The attempts the mail server refused with a permanent (5xx) answer (migration 0031). */
  refusals: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** The token of the worker whose lease holds the message (null when nobody holds it). */
  claim_token: string | null;
  /** JSON [{ filename, contentType, base64 }] (migration 0026). */
  attachments: Generated<string | null>;
}

export interface AnalyticsEventsTable {
  id: string;
  name: string;
  props: string;
  path: string | null;
  visitor_id: string | null;
  user_id: string | null;
  created_at: string;
}

// --- accounts (migration 0003) ---------------------------------------------------------------------

export interface UsersTable {
  id: string;
  /** Lower-cased and trimmed; unique. */
  email: string;
  display_name: string;
  /** argon2id PHC string; null for accounts that only sign in with an identity provider. */
  password_hash: string | null;
  is_admin: Generated<number>;
  disabled: Generated<number>;
  photo_url: string | null;
  created_at: string;
  updated_at: string;
  /** When the customer's account was deleted: the row stays as an empty tombstone (migration 0027). */
  deleted_at: Generated<string | null>;
}

export interface UserIdentitiesTable {
  /** The OpenID Connect issuer URL. */
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the session token; the token itself is only in the cookie. */
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  /** When the sign-in that started it confirmed who the customer is (asked again at the provider); else null. */
  confirmed_at: string | null;
}

export interface PasswordResetTokensTable {
  /** SHA-256 (hex) of the token sent by mail. */
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ProfilesTable {
  user_id: string;
  full_name: string;
  address: string;
  city: string;
  zip_code: string;
  delivery_address: string;
  delivery_city: string;
  delivery_zip_code: string;
  /** creditCard | blik | przelewy24 (migration 0023) */
  payment_method: Generated<string>;
  updated_at: string;
  /** What checkout pre-fills: the phone a carrier texts and the country delivered to (migration 0019). */
  phone: Generated<string>;
  country: Generated<string>;
}

export interface RateEventsTable {
  id: string;
  /** signup | contact | login | reset | withdrawal (app/modules/limits) */
  kind: string;
  /** `email:<normalized email>`, `ip:<address>`, both joined by `|`, or `shop` (every attempt of the kind) */
  scope_key: string;
  created_at: string;
}

// --- orders and payments (migration 0004) ----------------------------------------------------------

export interface OrdersTable {
  id: string;
  /** The customer's account; null for a guest's order (migration 0021), whose customer is its email. */
  user_id: string | null;
  user_email: string;
  /** The customer's language when ordering; the confirmation mail is written in it. */
  locale: string;
  /** The cart the order was made from (its ordered quantities leave the cart once paid). */
  cart_id: string | null;
  total_cents: number;
  currency: string;
  /** test | stripe */
  payment_provider: string;
  /** The provider's payment id (Stripe PaymentIntent id); null until the payment is created. */
  payment_intent_id: string | null;
  payment_client_secret: string | null;
  /** SHA-256 of the ordered lines and amount: a pending order is reused for exactly the same cart. */
  cart_fingerprint: string;
  /** pending | succeeded | failed */
  payment_status: string;
  /** processing | shipped | delivered | cancelled */
  shipping_status: string;
  shipping_full_name: string;
  shipping_address: string;
  shipping_city: string;
  shipping_zip_code: string;
  created_at: string;
  paid_at: string | null;
  /** The analytics visitor id of a shopper who consented: the purchase event is recorded with it when paid. */
  visitor_id: string | null;
  /** Set when the owner ships it: a carrier id (app/modules/fulfilment/carriers.ts) and its tracking number. */
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  /** The sum of the refunds made for it (migration 0010). */
  refunded_cents: Generated<number>;
  cancelled_at: string | null;
  /** Paid after its stock was gone: refunded in full and never shipped (migration 0018). */
  stock_short_at: string | null;
  /** A newer order of its cart replaced it (payment_status `replaced`); paid anyway, it is refunded in full (migration 0030). */
  replaced_at: Generated<string | null>;
  /** When the provider confirmed the replaced order's payment cancelled (migration 0030). */
  payment_cancelled_at: Generated<string | null>;
  /** Why its coffee could not be held while it is paid: time, amount or client (migration 0030). */
  hold_refused: Generated<string | null>;
  /** card | blik | przelewy24, as the provider said when it was paid; null when it did not (migration 0032). */
  paid_with: Generated<string | null>;
  /** The goods' total and the delivery's price apart; total_cents is their sum (migration 0019). */
  goods_cents: Generated<number>;
  delivery_cents: Generated<number>;
  /** The cheapest standard delivery for the parcel, at most what was paid: refunded when the whole order is withdrawn from. */
  standard_delivery_cents: Generated<number>;
  /** locker | courier | pickup; null on orders from before delivery was chosen. */
  delivery_kind: string | null;
  delivery_method_id: string | null;
  delivery_country: string | null;
  shipping_phone: Generated<string>;
  /** The locker's code, as chosen. */
  delivery_point: string | null;
  /** The locker's address, or the pickup's address and hours, as the customer was shown them. */
  delivery_point_address: string | null;
  /** The InPost shipment made through ShipX (migration 0020): its id at InPost and its parcel size. */
  shipment_id: string | null;
  shipment_size: string | null;
  /** When creating the shipment began: while it is recent, no second one is created. */
  shipment_started_at: string | null;
  /** The key in a guest's order link (migration 0021); null for a customer's order. */
  guest_key: string | null;
  /** The discount code used, and what it took off the goods and the delivery (migration 0024). */
  discount_code: Generated<string | null>;
  discount_cents: Generated<number>;
  delivery_discount_cents: Generated<number>;
  /** Whose VAT was charged, all of it, and the delivery's parts as JSON (migration 0025). */
  tax_country: string | null;
  /** 1 when the unit prices were converted from Polish VAT to the tax country's (migration 0028). */
  prices_follow_rate: Generated<number>;
  vat_cents: Generated<number>;
  delivery_tax: string | null;
  /** JSON: the buyer's details when they asked for an invoice at checkout (migration 0026). */
  invoice_buyer: Generated<string | null>;
  /** When everything about the customer the law does not need was removed (migration 0027). */
  anonymised_at: Generated<string | null>;
  /** deletion | retention */
  anonymised_by: Generated<string | null>;
}

export interface OrderLinesTable {
  order_id: string;
  position: number;
  product_id: string;
  /** The product's name in the order's language when ordered. */
  title: string;
  unit_price_cents: number;
  quantity: number;
  /** Storage key base of the product's first image, or null. */
  image: string | null;
  /** The variant bought and how it was then: its SKU, its label in the order's language ("1 kg, espresso"), its weight. */
  variant_id: string | null;
  sku: string | null;
  variant_label: Generated<string>;
  net_weight_grams: number | null;
  /** The sale that reduced its price (migration 0024). */
  sale_id: Generated<string | null>;
  /** JSON [{ batchId, roastedOn, grams }]: the roast batches its coffee came from (migration 0018). */
  batches: string | null;
  /** The part of the order's discount this line carries (migration 0024). */
  discount_cents: Generated<number>;
  /** Its VAT as charged: the rate, and what it cost after its discount split into net and VAT (migration 0025). */
  tax_rate_bp: number | null;
  net_cents: number | null;
  vat_cents: number | null;
}

export interface PaymentEventsTable {
  /** The provider's event id (Stripe `evt_…`); each is processed once. */
  event_id: string;
  order_id: string | null;
  type: string;
  created_at: string;
}

export interface TestPaymentsTable {
  id: string;
  idempotency_key: string;
  order_id: string;
  amount_cents: number;
  currency: string;
  client_secret: string;
  /** requires_payment_method | requires_action | succeeded | canceled */
  status: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The last four digits of the card that paid (a refund to 4000 0000 0000 5126 fails, as on Stripe). */
  card_last4: string | null;
  /** blik | przelewy24 (the last asynchronous attempt; null for cards), and what the simulated bank answers and when (migration 0023). */
  method: string | null;
  outcome: string | null;
  action_until: string | null;
}

export interface TestRefundsTable {
  id: string;
  idempotency_key: string;
  payment_id: string;
  amount_cents: number;
  created_at: string;
}

export interface RefundsTable {
  id: string;
  order_id: string;
  /** test | stripe */
  provider: string;
  /** The provider's refund id (Stripe `re_…`); null when known only from a charge's refunded total. */
  provider_refund_id: string | null;
  amount_cents: number;
  /** The VAT in the amount and its parts per rate as JSON (migration 0025). */
  vat_cents: Generated<number>;
  tax: string | null;
  /** pending | succeeded | failed */
  status: string;
  /** The admin who made it; null when it was made outside Kopi (the provider's dashboard). */
  created_by: string | null;
  created_at: string;
  confirmed_at: string | null;
}

export interface WithdrawalsTable {
  id: string;
  order_id: string;
  /** The name the consumer gave. */
  name: string;
  /** The order's email, as the consumer confirmed it. */
  email: string;
  /** JSON: [{ productId, title, quantity }] — the order's lines withdrawn from. */
  lines: string;
  /** Optional; never required. */
  reason: string | null;
  /** The language of the page the consumer used; the acknowledgement is written in it. */
  locale: string;
  created_at: string;
  /** Set when the owner refunded the withdrawn products. */
  refunded_cents: number | null;
  refunded_at: string | null;
  /** The standard delivery refunded with it: set on the withdrawal that completes the order's (migration 0019). */
  delivery_cents: Generated<number>;
}

// --- reviews (migration 0015) ----------------------------------------------------------------------

export interface ReviewsTable {
  id: string;
  product_id: string;
  user_id: string;
  /** The delivered order that made the author a buyer of the product. */
  order_id: string;
  /** 1–5 stars. */
  rating: number;
  /** The review's text; '' when the customer gave stars only. */
  body: string;
  /** The language it was written in (the page's language then). */
  locale: string;
  /** How it is signed in public: the first name and the surname's initial, as when written. */
  author_name: string;
  created_at: string;
  updated_at: string;
  /** The shop's public answer. */
  reply: string | null;
  replied_at: string | null;
  /** Set while hidden by the owner: abuse | personal-data | off-topic (kept with the activity log entry). */
  hidden_reason: string | null;
  hidden_at: string | null;
}

/** Delivery (migration 0019, docs/decisions/0021): one row. */
export interface DeliverySettingsTable {
  id: number;
  packaging_grams: number;
  home_country: string;
  /** 1: guests may order without an account (migration 0021); 0: they sign in first, as the specification says. */
  guest_checkout: Generated<number>;
}

export interface DeliveryZonesTable {
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2 codes, comma-separated and sorted. */
  countries: string;
  position: number;
}

export interface DeliveryMethodsTable {
  id: string;
  zone_id: string;
  /** locker | courier | pickup */
  kind: string;
  position: number;
  active: Generated<number>;
  free_over_cents: number | null;
  /** The threshold in grosze (migration 0022). */
  free_over_pln: number | null;
  pickup_address: Generated<string>;
  pickup_hours_en: Generated<string>;
  pickup_hours_pl: Generated<string>;
}

export interface DeliveryRatesTable {
  method_id: string;
  max_grams: number;
  price_cents: number;
  /** In grosze (migration 0022). */
  price_pln: number;
}

/** The owner's currency settings (one row; migration 0022, docs/decisions/0023). */
export interface CurrencySettingsTable {
  id: number;
  /** EUR | PLN: what each language's pages show a shopper who has not chosen. */
  default_en: string;
  default_pl: string;
  /** Złoty per euro in ten-thousandths, used only to propose złoty prices. */
  rate: number;
  /** 99 | 49 | 00 */
  rounding: string;
}

export interface PriceHistoryTable {
  id: string;
  variant_id: string;
  currency: string;
  price_cents: number;
  regular_cents: number;
  at: string;
  reason: string;
  sale_id: string | null;
}

export interface SalesTable {
  id: string;
  kind: string;
  percent: number | null;
  price_cents: number | null;
  price_pln: number | null;
  scope: string;
  starts_at: string;
  ends_at: string;
  label_en: Generated<string>;
  label_pl: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface SaleTargetsTable {
  sale_id: string;
  target: string;
}

export interface DiscountCodesTable {
  id: string;
  code: string;
  kind: string;
  percent: number | null;
  amount_cents: number | null;
  amount_pln: number | null;
  min_cents: number | null;
  min_pln: number | null;
  starts_at: string | null;
  ends_at: string | null;
  max_uses: number | null;
  max_per_customer: number | null;
  uses: Generated<number>;
  scope: Generated<string>;
  with_sales: Generated<number>;
  advertised: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface DiscountCodeTargetsTable {
  code_id: string;
  target: string;
}

export interface DiscountCodeUsesTable {
  order_id: string;
  code_id: string;
  customer: string;
  email: string;
  status: string;
  expires_at: string;
  created_at: string;
}

/** The shop's VAT setting (one row; migration 0025, docs/decisions/0027). */
export interface TaxSettingsTable {
  id: number;
  oss_registered: Generated<number>;
  /** 1: under OSS, gross prices follow the buyer's country's VAT (migration 0028). */
  prices_follow_rate: Generated<number>;
  updated_at: string | null;
}

/** The owner's VAT rates in place of those Kopi ships with, in basis points. */
export interface TaxRatesTable {
  country: string;
  tax_class: string;
  rate_bp: number;
  updated_at: string;
}

/** Invoice numbers per series and year (migration 0026, docs/decisions/0028). */
export interface InvoiceCountersTable {
  series: string;
  year: number;
  last: Generated<number>;
}

/** An issued invoice or correction: a snapshot that never changes, with its PDF and KSeF XML as issued. */
export interface InvoicesTable {
  id: string;
  number: string;
  series: string;
  year: number;
  seq: number;
  order_id: string;
  kind: string;
  corrects_id: string | null;
  refund_id: string | null;
  locale: string;
  currency: string;
  issued_at: string;
  sale_date: string;
  seller: string;
  buyer: string;
  lines: string;
  totals: string;
  payment: string;
  gross_cents: number;
  vat_cents: number;
  pdf: string | null;
  ksef_xml: string | null;
  ksef_number: string | null;
  /** When the invoice's retention ended and its documents and buyer were removed (migration 0027). */
  purged_at: Generated<string | null>;
  created_by: string | null;
  created_at: string;
}

// --- privacy (migration 0027) ----------------------------------------------------------------------

export interface ConsentsTable {
  id: string;
  visitor_id: string | null;
  user_id: string | null;
  /** 1 accepted statistics, 0 declined or withdrew. */
  analytics: number;
  version: string;
  created_at: string;
}

export interface JobRunsTable {
  name: string;
  /** YYYY-MM-DD (UTC): the last day a node claimed the job. */
  day: string;
  started_at: string | null;
  finished_at: string | null;
  result: string | null;
}

/** Who sends invoices to KSeF, as configured (migration 0034): one row, `shop`. */
export interface KsefSettingsTable {
  id: string;
  /** kopi | accounting */
  sender: string;
  consumer_invoices: Generated<number>;
  sending_since: string | null;
  updated_at: string;
}

/** What every node shares about one KSeF address and seller NIP (migration 0034; docs/decisions/0034). */
export interface KsefContextsTable {
  /** `{API base URL} {NIP}` */
  id: string;
  /** Sealed with a key derived from the KSeF token (app/modules/ksef/seal.server.ts). */
  access_token: string | null;
  access_valid_until: string | null;
  refresh_token: string | null;
  refresh_valid_until: string | null;
  session_reference: string | null;
  /** The open session's AES key and IV, sealed. */
  session_key: string | null;
  session_valid_until: string | null;
  lease_token: string | null;
  lease_until: string | null;
  paused_until: string | null;
  problem: string | null;
  problem_at: string | null;
  problem_token: string | null;
  updated_at: string;
}

/** An invoice to send to KSeF, and what KSeF answered (migration 0034). */
export interface KsefSubmissionsTable {
  invoice_id: string;
  /** waiting | queued | unsure | sent | accepted | refused */
  status: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  claim_token: string | null;
  invoice_hash: string;
  session_reference: string | null;
  invoice_reference: string | null;
  sent_at: string | null;
  offline: Generated<number>;
  deadline: string;
  ksef_number: string | null;
  accepted_at: string | null;
  upo: string | null;
  verification_url: string | null;
  error_code: number | null;
  error_text: string | null;
  created_at: string;
  updated_at: string;
  /** Handed to the buyer offline (KOD II) if KSeF has not accepted it by then (migration 0035); null: it waits. */
  offline_after: string | null;
  handed_over_at: string | null;
  /** SHA-256 (Base64) of the file handed over: a corrected one is sent as KSeF's technical correction of it. */
  handed_over_hash: string | null;
  /** KOD II, signed with the offline certificate, on the PDF handed over. */
  certificate_url: string | null;
}
