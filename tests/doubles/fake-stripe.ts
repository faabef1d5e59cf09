/**
 * Test helper: a tiny local stand-in for api.stripe.com that records each request the `stripe` SDK makes
 * and answers with PaymentIntent objects shaped as in Stripe's API reference. Not used by the app.
 *
 * It confirms PaymentIntents as Stripe.js does for BLIK and Przelewy24 (`POST /v1/payment_intents/:id/confirm`
 * with `payment_method_data[type]` blik or p24): the intent waits in `requires_action` (`blik_authorize`, or a
 * `redirect_to_url` to the bank), BLIK only in złoty as on Stripe; `settle` then plays the bank's answer (paid,
 * or back to `requires_payment_method` with the error Stripe gives) and returns the event Stripe would send.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: URLSearchParams };

export type FakeStripe = {
  url: string;
  requests: RecordedRequest[];
  intents: Map<string, Record<string, unknown>>;
  /** Makes the next requests fail with this HTTP status (0 = answer normally). */
  failWith: number;
  refunds: Map<string, Record<string, unknown>>;
  /** The status new refunds get (Stripe answers `pending` for some payment methods, `succeeded` for cards). */
  refundStatus: 'succeeded' | 'pending';
  setStatus(id: string, status: string, amountReceived?: number): void;
  /** The bank answers a waiting BLIK or Przelewy24 payment; returns the event Stripe sends (null: nothing was waiting). */
  settle(id: string, outcome: 'succeeded' | 'declined' | 'expired'): Record<string, unknown> | null;
  close(): Promise<void>;
};

/** A webhook event as Stripe sends it, for a PaymentIntent as it is now. */
export function eventJson(id: string, type: string, object: Record<string, unknown>) {
  return {
    id,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object: structuredClone(object) },
  };
}

export function paymentIntentJson(fields: { id: string; amount: number; currency: string; metadata: Record<string, string>; status?: string; amountReceived?: number; receiptEmail?: string | null }) {
  return {
    id: fields.id,
    object: 'payment_intent',
    amount: fields.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: fields.amountReceived ?? 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: { allow_redirects: 'always', enabled: true },
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${fields.id}_secret_Y9ZpTf0QdF0kzLmS0DtlNq2xm`,
    confirmation_method: 'automatic',
    created: 1680800504,
    currency: fields.currency,
    customer: null,
    description: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: { id: 'pmc_1MtwBwLkdIwHu7ixik9Lms9h', parent: null },
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card', 'blik', 'p24', 'link'],
    processing: null,
    receipt_email: fields.receiptEmail ?? null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: fields.status ?? 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
}

/** A Refund object as in Stripe's API reference. */
export function refundJson(fields: { id: string; amount: number; currency: string; paymentIntent: string; metadata: Record<string, string>; status: string }) {
  return {
    id: fields.id,
    object: 'refund',
    amount: fields.amount,
    balance_transaction: `txn_${fields.id.slice(3)}`,
    charge: chargeId(fields.paymentIntent),
    created: 1692942318,
    currency: fields.currency,
    destination_details: { card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' }, type: 'card' },
    metadata: fields.metadata,
    payment_intent: fields.paymentIntent,
    reason: 'requested_by_customer',
    receipt_number: null,
    source_transfer_reversal: null,
    status: fields.status,
    transfer_reversal: null,
  };
}

export const chargeId = (paymentIntent: string) => `ch_${paymentIntent.slice(3)}`;

/** A Charge object (the `charge.refunded` event's data) as in Stripe's API reference, refunds not expanded. */
export function chargeJson(fields: { paymentIntent: string; amount: number; amountRefunded: number; currency?: string }) {
  return {
    id: chargeId(fields.paymentIntent),
    object: 'charge',
    amount: fields.amount,
    amount_captured: fields.amount,
    amount_refunded: fields.amountRefunded,
    balance_transaction: 'txn_3MmlLrLkdIwHu7ix0uke3Ezy',
    captured: true,
    created: 1679090539,
    currency: fields.currency ?? 'eur',
    livemode: false,
    metadata: {},
    paid: true,
    payment_intent: fields.paymentIntent,
    payment_method: 'pm_1MmlLrLkdIwHu7ixIJwJnvSd',
    refunded: fields.amountRefunded >= fields.amount,
    status: 'succeeded',
  };
}

/**
 * `port` 0 picks a free one. `control` sees every request first (the crash test's stand-in adds its own
 * endpoints with it) and answers it when it returns true.
 */
export async function startFakeStripe({
  port = 0,
  control,
}: { port?: number; control?: (req: http.IncomingMessage, url: URL, body: URLSearchParams, send: (status: number, json: unknown) => void) => boolean } = {}): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const intents = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, string>();
  let counter = 0;
  const refunds = new Map<string, Record<string, unknown>>();
  const fake: FakeStripe = {
    url: '',
    requests,
    intents,
    refunds,
    refundStatus: 'succeeded',
    failWith: 0,
    setStatus(id, status, amountReceived) {
      const intent = intents.get(id);
      if (intent) Object.assign(intent, { status, amount_received: amountReceived ?? intent.amount });
    },
    settle(id, outcome) {
      const intent = intents.get(id);
      if (!intent || intent.status !== 'requires_action') return null;
      if (outcome === 'succeeded') {
        Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, next_action: null, latest_charge: chargeId(id) });
        return eventJson(`evt_${id.slice(3)}_${++counter}`, 'payment_intent.succeeded', intent);
      }
      const type = (intent.payment_method_types as string[])[0];
      const error =
        outcome === 'expired'
          ? { type: 'invalid_request_error', code: 'payment_intent_payment_attempt_expired', message: 'The payment attempt expired before the customer authorized it.' }
          : { type: 'card_error', code: 'payment_method_provider_decline', message: 'The payment was declined by the customer’s bank.' };
      Object.assign(intent, { status: 'requires_payment_method', next_action: null, payment_method: null, last_payment_error: { ...error, payment_method: { type } } });
      return eventJson(`evt_${id.slice(3)}_${++counter}`, 'payment_intent.payment_failed', intent);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = new URLSearchParams(req.method === 'GET' ? url.search : raw);
      requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++counter}` });
        res.end(JSON.stringify(json));
      };
      if (control?.(req, url, body, send)) return;
      if (fake.failWith) return send(fake.failWith, { error: { type: 'api_error', message: 'Simulated outage' } });
      if (req.headers.authorization !== 'Bearer sk_test_kopi') {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const key = String(req.headers['idempotency-key'] ?? '');
        const existing = key ? byKey.get(key) : undefined;
        if (existing) return send(200, intents.get(existing));
        const id = `pi_3Mtw${String(++counter).padStart(4, '0')}LkdIwHu7ix28a3tqPa`;
        const metadata: Record<string, string> = {};
        for (const [k, v] of body) {
          const m = /^metadata\[(.+)\]$/.exec(k);
          if (m) metadata[m[1]] = v;
        }
        const intent = paymentIntentJson({
          id,
          amount: Number(body.get('amount')),
          currency: String(body.get('currency')),
          metadata,
          receiptEmail: body.get('receipt_email'),
        });
        intents.set(id, intent);
        if (key) byKey.set(key, id);
        return send(200, intent);
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        const key = String(req.headers['idempotency-key'] ?? '');
        const existing = key ? byKey.get(key) : undefined;
        if (existing) return send(200, refunds.get(existing));
        const intentId = String(body.get('payment_intent'));
        const intent = intents.get(intentId);
        if (!intent) return send(400, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_intent', message: `No such payment_intent: '${intentId}'` } });
        if (intent.status !== 'succeeded') {
          return send(400, { error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'This PaymentIntent does not have a successful charge to refund.' } });
        }
        const received = Number(intent.amount_received);
        const already = [...refunds.values()].filter((r) => r.payment_intent === intentId && r.status !== 'failed').reduce((sum, r) => sum + Number(r.amount), 0);
        const amount = body.has('amount') ? Number(body.get('amount')) : received - already;
        if (already >= received) {
          return send(400, { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${chargeId(intentId)} has already been refunded.` } });
        }
        if (amount > received - already) {
          return send(400, { error: { type: 'invalid_request_error', code: 'amount_too_large', param: 'amount', message: `Refund amount (€${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (€${((received - already) / 100).toFixed(2)})` } });
        }
        const metadata: Record<string, string> = {};
        for (const [k, v] of body) {
          const m = /^metadata\[(.+)\]$/.exec(k);
          if (m) metadata[m[1]] = v;
        }
        const id = `re_3Mtw${String(++counter).padStart(4, '0')}LkdIwHu7ix0rxM7nKd`;
        const refund = refundJson({ id, amount, currency: String(intent.currency), paymentIntent: intentId, metadata, status: fake.refundStatus });
        refunds.set(id, refund);
        if (key) byKey.set(key, id);
        return send(200, refund);
      }
      const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(url.pathname);
      if (req.method === 'POST' && cancel) {
        const intent = intents.get(cancel[1]);
        if (!intent) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } });
        if (!['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'].includes(String(intent.status))) {
          return send(400, {
            error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.` },
          });
        }
        Object.assign(intent, { status: 'canceled', canceled_at: Math.floor(Date.now() / 1000), cancellation_reason: body.get('cancellation_reason') ?? null, next_action: null });
        return send(200, intent);
      }
      const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(url.pathname);
      if (req.method === 'POST' && confirm) {
        const intent = intents.get(confirm[1]);
        if (!intent) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } });
        const type = body.get('payment_method_data[type]');
        if (intent.status === 'succeeded') {
          return send(400, { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'This PaymentIntent has already succeeded.' } });
        }
        if (intent.status === 'canceled') {
          return send(400, { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'This PaymentIntent was canceled and can no longer be confirmed.' } });
        }
        if (type === 'blik') {
          if (intent.currency !== 'pln') {
            return send(400, { error: { type: 'invalid_request_error', code: 'payment_intent_invalid_parameter', param: 'payment_method_data[type]', message: 'The payment method type "blik" is invalid for currency "' + String(intent.currency) + '".' } });
          }
          if (!/^\d{6}$/.test(body.get('payment_method_options[blik][code]') ?? '')) {
            return send(400, { error: { type: 'invalid_request_error', code: 'parameter_invalid_string', param: 'payment_method_options[blik][code]', message: 'The BLIK code must be 6 digits.' } });
          }
          Object.assign(intent, { status: 'requires_action', payment_method: `pm_blik_${++counter}`, payment_method_types: ['blik'], last_payment_error: null, next_action: { type: 'blik_authorize' } });
          return send(200, intent);
        }
        if (type === 'p24') {
          const returnUrl = body.get('return_url') ?? '';
          Object.assign(intent, {
            status: 'requires_action',
            payment_method: `pm_p24_${++counter}`,
            payment_method_types: ['p24'],
            last_payment_error: null,
            next_action: { type: 'redirect_to_url', redirect_to_url: { url: `${fake.url}/__bank/${intent.id}`, return_url: returnUrl } },
          });
          return send(200, intent);
        }
        return send(400, { error: { type: 'invalid_request_error', code: 'parameter_missing', param: 'payment_method_data[type]', message: 'Missing required param: payment_method_data[type].' } });
      }
      const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && retrieve) {
        const intent = intents.get(retrieve[1]);
        return intent ? send(200, intent) : send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } });
      }
      if (req.method === 'GET' && url.pathname === '/v1/payment_intents') {
        return send(200, { object: 'list', data: [...intents.values()].slice(0, 1), has_more: false, url: '/v1/payment_intents' });
      }
      send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
