/** The withdrawal mails name where the money goes back, as the order was paid (issue 50, point 16). */
import { describe, expect, it } from 'vitest';
import { getT } from '~/modules/i18n/index.server';
import type { OrderRecord } from '~/modules/orders/index.server';
import { withdrawalAcknowledgementMail, withdrawalRefundMail } from './withdrawal-mail.server';
import type { Withdrawal, WithdrawableOrder } from './withdrawals.server';

const withdrawal = (locale: 'en' | 'pl'): Withdrawal =>
  ({
    id: 'w1',
    orderId: 'order-abcdef',
    name: 'Ola',
    email: 'ola@example.test',
    lines: [{ position: 0, productId: 'p1', title: 'Gayo — 250 g', quantity: 1, unitPriceCents: 2190, paidCents: 2190 }],
    reason: null,
    locale,
    createdAt: '2026-12-02T10:00:00.000Z',
    refundDueAt: '2026-12-16T10:00:00.000Z',
    amountCents: 2190,
    deliveryCents: 0,
  }) as Withdrawal;

/** The part of a text after its placeholder, as the mail must contain it. */
const tail = (t: ReturnType<typeof getT>, key: string) => t(key, { date: 'X' }).split('X').at(-1)!.trim();

describe('withdrawal mails', () => {
  for (const locale of ['en', 'pl'] as const) {
    it(`say where the refund goes: BLIK's bank account, Przelewy24's, the card, or the way it was paid (${locale})`, () => {
      const t = getT(locale);
      for (const [paidWith, suffix] of [['blik', 'Blik'], ['przelewy24', 'Przelewy24'], ['card', ''], [null, 'Unknown']] as const) {
        const ack = withdrawalAcknowledgementMail(withdrawal(locale), { id: 'order-abcdef', label: 'ABCDEF', createdAt: '2026-11-20T10:00:00.000Z', paidWith, guestKey: null } as unknown as WithdrawableOrder);
        expect(ack.text).toContain(tail(t, `withdrawal.mail.refund${suffix}`));
        const refund = withdrawalRefundMail(withdrawal(locale), { id: 'order-abcdef', currency: 'EUR', paidWith, userId: 'u1', guestKey: null } as unknown as OrderRecord, 2190);
        expect(refund.text).toContain(t(`withdrawal.refundMail.when${suffix}`));
      }
      const blik = withdrawalAcknowledgementMail(withdrawal(locale), { id: 'order-abcdef', label: 'ABCDEF', createdAt: '2026-11-20T10:00:00.000Z', paidWith: 'blik', guestKey: null } as unknown as WithdrawableOrder);
      expect(blik.text).not.toContain(tail(t, 'withdrawal.mail.refund'));
    });
  }
});
