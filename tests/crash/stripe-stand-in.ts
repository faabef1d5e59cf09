/**
 * The crash test's Stripe, in a process of its own (it outlives every kill of the shop): the API stand-in
 * of app/modules/payments/fake-stripe.ts, plus what Stripe.js and Stripe's webhook sender do.
 *   POST /__confirm/:id  confirms a PaymentIntent as the Payment Element would with 4242 4242 4242 4242
 *                        and answers with it (the order id is in its metadata); then its signed
 *                        payment_intent.succeeded event is sent to the shop every 500 ms until answered 2xx.
 *   POST /__blik/:id     confirms a PaymentIntent in złoty with a BLIK code as the Payment Element would: it waits
 *                        in `requires_action` (blik_authorize) until the customer "confirms in the banking app"
 *                        1.5 s later; then its signed payment_intent.succeeded event goes out like the others.
 *   GET  /__state        every PaymentIntent, and how many events still wait to be delivered.
 * Usage: node --import tsx tests/crash/stripe-stand-in.ts PORT WEBHOOK_URL WEBHOOK_SECRET
 */
import Stripe from 'stripe';
import { eventJson, paymentIntentJson, startFakeStripe } from '../doubles/fake-stripe';

/** How long the customer takes to confirm a BLIK payment in the banking app. */
const BLIK_CONFIRM_MS = 1_500;

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
          JSON.stringify(
            eventJson(
              eventId,
              'payment_intent.succeeded',
              paymentIntentJson({
                id: String(intent.id),
                amount: Number(intent.amount),
                currency: String(intent.currency),
                metadata: intent.metadata as Record<string, string>,
                status: 'succeeded',
                amountReceived: Number(intent.amount),
              }),
            ),
          ),
        );
      }
      send(200, fake.intents.get(confirm[1]));
      return true;
    }
    const blik = /^\/__blik\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && blik) {
      const intent = fake.intents.get(blik[1]);
      if (!intent || intent.currency !== 'pln') {
        send(400, { error: 'BLIK needs a PaymentIntent in złoty' });
        return true;
      }
      if (intent.status === 'requires_payment_method') {
        Object.assign(intent, { status: 'requires_action', payment_method_types: ['blik'], next_action: { type: 'blik_authorize' } });
        setTimeout(() => {
          const event = fake.settle(blik[1], 'succeeded');
          if (event) undelivered.set(String(event.id), JSON.stringify(event));
        }, BLIK_CONFIRM_MS).unref();
      }
      send(200, intent);
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
