import express, { type Router } from 'express';
import type { Logger } from 'pino';
import { type PaymentServices, handlePaymentEvent } from '~/modules/checkout/index.server';

/**
 * `POST /webhooks/stripe`: the raw body's signature is verified with the webhook secret (a missing, forged or
 * stale signature gets 400 and changes nothing); each event id is processed once (a repeat gets 200); an
 * unexpected error gets 500 so Stripe retries. The body is bounded before it is read (server/body-limit.ts).
 */
export function stripeWebhookRouter(services: PaymentServices & { log: Logger }): Router {
  const router = express.Router();
  const { payments: provider, log } = services;
  router.post('/webhooks/stripe', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    if (!provider.parseWebhook) {
      res.status(404).json({ error: 'Stripe payments are not enabled' });
      return;
    }
    const signature = req.get('stripe-signature');
    const body: unknown = req.body;
    if (!signature || !Buffer.isBuffer(body) || body.length === 0) {
      res.status(400).json({ error: 'Missing signature or body' });
      return;
    }
    let event;
    try {
      event = provider.parseWebhook(body, signature);
    } catch (error) {
      log.warn({ errorName: (error as Error)?.name }, 'stripe webhook rejected: bad signature');
      res.status(400).json({ error: 'Invalid signature' });
      return;
    }
    try {
      const outcome = await handlePaymentEvent(services, event);
      log.info({ eventId: event.id, kind: event.kind, outcome }, 'stripe webhook processed');
      res.json({ received: true, outcome });
    } catch (error) {
      log.error({ err: error, eventId: event.id, kind: event.kind }, 'stripe webhook failed');
      res.status(500).json({ error: 'Webhook processing failed' });
    }
  });
  return router;
}
