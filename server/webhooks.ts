import express, { type Router } from 'express';
import type { Logger } from 'pino';
import type { DB } from '~/db/database.server';
import { handleStripeEvent } from '~/modules/checkout/index.server';
import type { PaymentProvider } from '~/modules/payments/index.server';

export type StripeWebhookOptions = {
  db: DB;
  provider: PaymentProvider;
  log: Logger;
  /** Wakes the mail worker after a paid order queued its mails. */
  kickMail: () => void;
  /** The shop's address for the new-order notification (config.contactTo). */
  contactTo: string;
  /** For the link to My Orders in the confirmation mail (config.publicUrl). */
  publicUrl?: string;
};

/**
 * `POST /webhooks/stripe`: the raw body's signature is verified with the webhook secret (a missing, forged or
 * stale signature gets 400 and changes nothing); each event id is processed once (a repeat gets 200); an
 * unexpected error gets 500 so Stripe retries. Mount it before any JSON body parser.
 */
export function stripeWebhookRouter({ db, provider, log, kickMail, contactTo, publicUrl }: StripeWebhookOptions): Router {
  const router = express.Router();
  router.post('/webhooks/stripe', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
    if (!provider.parseWebhook) {
      res.status(404).json({ error: 'Stripe payments are not enabled' });
      return;
    }
    const signature = req.get('stripe-signature');
    const body: unknown = req.body;
    if (!signature || !Buffer.isBuffer(body)) {
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
      const outcome = await handleStripeEvent(db, provider, event, { contactTo, publicUrl, log });
      log.info({ eventId: event.id, type: event.type, outcome }, 'stripe webhook processed');
      if (outcome === 'paid') kickMail();
      res.json({ received: true, outcome });
    } catch (error) {
      log.error({ err: error, eventId: event.id, type: event.type }, 'stripe webhook failed');
      res.status(500).json({ error: 'Webhook processing failed' });
    }
  });
  return router;
}
