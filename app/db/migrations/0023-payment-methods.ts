/**
 * Payment methods besides cards (issue 33): the profile's preference offers what the shop takes — card, BLIK,
 * Przelewy24 — instead of PayPal and bank transfer, which it never took (a bank transfer is what Przelewy24
 * does, so that preference becomes it; PayPal becomes a card). The test provider's simulated payments learn the
 * asynchronous methods: the method, what the simulated bank will answer, and when.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('profiles').set({ payment_method: 'przelewy24' }).where('payment_method', '=', 'bankTransfer').execute();
  await db.updateTable('profiles').set({ payment_method: 'creditCard' }).where('payment_method', '=', 'paypal').execute();
  /** blik | przelewy24: the last asynchronous attempt (null for cards and before any). */
  await db.schema.alterTable('test_payments').addColumn('method', 'text').execute();
  /** What the simulated bank answers: succeeded | declined | expired (null: not answered yet). */
  await db.schema.alterTable('test_payments').addColumn('outcome', 'text').execute();
  /** When the answer arrives (or, unanswered, the attempt expires). */
  await db.schema.alterTable('test_payments').addColumn('action_until', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('test_payments').dropColumn('action_until').execute();
  await db.schema.alterTable('test_payments').dropColumn('outcome').execute();
  await db.schema.alterTable('test_payments').dropColumn('method').execute();
}
