import { Building2, CreditCard, Smartphone } from 'lucide-react';
import { Form, useNavigation } from 'react-router';
import { useT } from '~/modules/i18n/react';
import type { PaymentMethodKind } from '~/modules/payments/methods';
import { PaymentError, TestCardForm, TestNotice } from './test-card-form';

const icons = { card: CreditCard, blik: Smartphone, przelewy24: Building2 } as const;
/** Errors the card form shows beside its fields; those the BLIK and bank forms show; any other is the payment's. */
const cardErrors = new Set(['card_declined', 'insufficient_funds', 'invalid_number', 'invalid_expiry', 'invalid_cvc']);
const asyncErrors = new Set(['blik_format', 'blik_invalid', 'bank_declined', 'bank_expired']);

/**
 * The test provider's payment methods: a card, BLIK (złoty only) and Przelewy24, chosen with radio buttons; the
 * chosen method's form shows (CSS only, so it works without JavaScript too). The customer's preferred method is
 * chosen first; after a refused attempt, the method it was. Clearly test payments: nothing is ever charged.
 */
export function TestPaymentMethods({
  orderId,
  amount,
  error,
  methods,
  preferred,
  method,
}: {
  orderId: string;
  amount: string;
  error?: string | null;
  methods: PaymentMethodKind[];
  preferred: PaymentMethodKind;
  method?: PaymentMethodKind;
}) {
  const t = useT();
  const chosen = method && methods.includes(method) ? method : preferred;
  const cardError = error && cardErrors.has(error) ? error : null;
  const asyncError = error && asyncErrors.has(error) && chosen !== 'card' ? error : null;
  // Not about one method's fields (sold out meanwhile, the order changed, the service down): above the choice.
  const paymentError = error && !cardError && !asyncError ? error : null;
  const show = (kind: PaymentMethodKind) =>
    ({ card: 'group-has-[#method-card:checked]:grid', blik: 'group-has-[#method-blik:checked]:grid', przelewy24: 'group-has-[#method-przelewy24:checked]:grid' })[kind];
  return (
    <div className="group grid gap-5">
      {paymentError && <PaymentError error={paymentError} id="payment-error" />}
      {methods.length > 1 && (
        <fieldset>
          <legend className="field-label">{t('checkout.methods.legend')}</legend>
          <div className="mt-1 grid gap-2 sm:grid-cols-3">
            {methods.map((kind) => {
              const Icon = icons[kind];
              return (
                <label
                  key={kind}
                  className="relative flex cursor-pointer items-center gap-3 rounded-2xl border-2 border-sand px-4 py-3 text-sm font-semibold has-[:checked]:border-roast has-[:checked]:bg-roast has-[:checked]:text-cream has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-leaf"
                >
                  {/* The whole tile is the radio (transparent on top of it), so a click anywhere chooses it. */}
                  <input type="radio" id={`method-${kind}`} name="method" value={kind} defaultChecked={kind === chosen} className="absolute inset-0 z-10 cursor-pointer opacity-0" data-testid={`method-${kind}`} />
                  <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
                  {t(`checkout.methods.${kind}`)}
                </label>
              );
            })}
          </div>
        </fieldset>
      )}
      <div className={methods.length > 1 ? `hidden ${show('card')}` : 'grid'}>
        <TestCardForm orderId={orderId} amount={amount} error={cardError} />
      </div>
      {methods.includes('blik') && (
        <div className={`hidden ${show('blik')}`}>
          <BlikForm orderId={orderId} amount={amount} error={chosen === 'blik' ? asyncError : null} />
        </div>
      )}
      {methods.includes('przelewy24') && (
        <div className={`hidden ${show('przelewy24')}`}>
          <BankForm orderId={orderId} amount={amount} error={chosen === 'przelewy24' ? asyncError : null} />
        </div>
      )}
    </div>
  );
}

function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
}

/** A BLIK code from the banking app: six digits; the bank then asks the customer to confirm there. */
function BlikForm({ orderId, amount, error }: { orderId: string; amount: string; error: string | null }) {
  const t = useT();
  const busy = useSubmitting('blik');
  const invalid = error === 'blik_format' || error === 'blik_invalid';
  return (
    <Form method="post" noValidate className="grid gap-4" data-testid="blik-form">
      <TestNotice text={t('checkout.blik.testNotice')} />
      <input type="hidden" name="intent" value="blik" />
      <input type="hidden" name="orderId" value={orderId} />
      <div>
        <label htmlFor="blik-code" className="field-label">{t('checkout.blik.code')}</label>
        <input
          id="blik-code"
          name="blikCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          placeholder="000000"
          required
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? 'blik-error blik-hint' : 'blik-hint'}
          className="field-input max-w-48 text-center text-xl tracking-[0.3em] tabular-nums"
        />
        <p id="blik-hint" className="mt-1 text-xs text-muted">{t('checkout.blik.hint')}</p>
      </div>
      <PaymentError error={error} id="blik-error" />
      <button type="submit" className="btn-primary w-full py-3.5 text-base" disabled={busy} aria-busy={busy}>
        {busy ? t('checkout.processing') : t('checkout.blik.pay', { amount })}
      </button>
    </Form>
  );
}

/** Przelewy24: the customer is sent to their bank (here, the shop's stand-in bank page) and comes back. */
function BankForm({ orderId, amount, error }: { orderId: string; amount: string; error: string | null }) {
  const t = useT();
  const busy = useSubmitting('przelewy24');
  return (
    <Form method="post" className="grid gap-4" data-testid="bank-form">
      <TestNotice text={t('checkout.bank.testNotice')} />
      <input type="hidden" name="intent" value="przelewy24" />
      <input type="hidden" name="orderId" value={orderId} />
      <p className="text-sm text-muted">{t('checkout.bank.explain')}</p>
      <PaymentError error={error} id="bank-error" />
      <button type="submit" className="btn-primary w-full py-3.5 text-base" disabled={busy} aria-busy={busy}>
        {busy ? t('checkout.processing') : t('checkout.bank.pay', { amount })}
      </button>
    </Form>
  );
}
