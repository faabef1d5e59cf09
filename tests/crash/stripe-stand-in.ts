/**
 * The crash test's Stripe, in a process of its own (it outlives every kill of the shop): the API stand-in
 * of app/modules/payments/fake-stripe.ts, plus what Stripe.js and Stripe's webhook sender do.
 *   POST /__confirm/:id  confirms a PaymentIntent as the Payment Element would with 4242 4242 4242 4242
 *                        and answers with it (the order id is in its metadata); then its signed
 *                        payment_intent.succeeded event is sent to the shop every 500 ms until answered 2xx.
 *   GET  /__state        every PaymentIntent, and how many events still wait to be delivered.
 * Usage: node --import tsx tests/crash/stripe-stand-in.ts PORT WEBHOOK_URL WEBHOOK_SECRET
 */
import Stripe from 'stripe';
import { paymentIntentJson, startFakeStripe } from '../doubles/fake-stripe';

const [port, webhookUrl, secret] = process.argv.slice(2);
const undelivered = new Map<string, string>();
let delivered = 0;

const fake = await startFakeStripe({
  port: Number(port),
  control(req, url, _body, send) {
    const confirm = /^\/__confirm\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && confirm) {
      const intent = fake.intents.get(confirm[1]);
      if (!intent) {
        send(404, { error: 'no such PaymentIntent' });
        return true;
      }
      if (intent.status !== 'succeeded') {
        fake.setStatus(confirm[1], 'succeeded');
        const eventId = `evt_${confirm[1].slice(3)}`;
        undelivered.set(
          eventId,
          JSON.stringify({
            id: eventId,
            object: 'event',
            api_version: '2025-01-27.acacia',
            created: Math.floor(Date.now() / 1000),
            livemode: false,
            pending_webhooks: 1,
            request: { id: null, idempotency_key: null },
            type: 'payment_intent.succeeded',
            data: {
              object: paymentIntentJson({
                id: String(intent.id),
                amount: Number(intent.amount),
                currency: String(intent.currency),
                metadata: intent.metadata as Record<string, string>,
                status: 'succeeded',
                amountReceived: Number(intent.amount),
              }),
            },
          }),
        );
      }
      send(200, fake.intents.get(confirm[1]));
      return true;
    }
    if (req.method === 'GET' && url.pathname === '/__state') {
      send(200, { intents: [...fake.intents.values()], undelivered: undelivered.size, delivered });
      return true;
    }
    return false;
  },
});

// Stripe's webhook sender: every event until the shop answers 2xx, whatever happened to the shop meanwhile.
async function deliver() {
  for (const [id, payload] of undelivered) {
    try {
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
        body: payload,
        signal: AbortSignal.timeout(5000),
      });
      await response.body?.cancel();
      if (response.ok) {
        undelivered.delete(id);
        delivered++;
      }
    } catch {
      // The shop is down (killed) or slow: the next round tries again.
    }
  }
  setTimeout(deliver, 500);
}
void deliver();
process.send?.({ ready: fake.url });
