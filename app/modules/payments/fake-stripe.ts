/**
 * Test helper: a tiny local stand-in for api.stripe.com that records each request the `stripe` SDK makes
 * and answers with PaymentIntent objects shaped as in Stripe's API reference. Not used by the app.
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
  setStatus(id: string, status: string, amountReceived?: number): void;
  close(): Promise<void>;
};

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

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const intents = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, string>();
  let counter = 0;
  const fake: FakeStripe = {
    url: '',
    requests,
    intents,
    failWith: 0,
    setStatus(id, status, amountReceived) {
      const intent = intents.get(id);
      if (intent) Object.assign(intent, { status, amount_received: amountReceived ?? intent.amount });
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
