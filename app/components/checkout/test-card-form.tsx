import { CreditCard, FlaskConical } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Form, useNavigation } from 'react-router';
import { revealMessage } from '~/lib/navigation-focus';
import { formatCardNumber, formatCvc, formatExpiry } from '~/modules/checkout/card-format';
import { useT } from '~/modules/i18n/react';

/**
 * Rewrites a card field as it is typed (the caret goes to the end only when the text changed, which is
 * where typing happens). Deletions pass `deleting`, so Backspace can remove the expiry's slash.
 */
function reformat(event: React.FormEvent<HTMLInputElement>, format: (value: string, deleting: boolean) => string) {
  const input = event.currentTarget;
  const deleting = ((event.nativeEvent as InputEvent).inputType ?? '').startsWith('delete');
  const formatted = format(input.value, deleting);
  if (formatted !== input.value) input.value = formatted;
}

/**
 * The built-in test provider's card form. The number groups itself in fours and the expiry takes "1230"
 * as 12/30, so the numeric keypad (no slash on it) is enough. The server charges the simulated card; the
 * browser only checks the format first. Clearly a test: nothing is ever charged.
 */
export function TestCardForm({ orderId, amount, error }: { orderId: string; amount: string; error?: string | null }) {
  const t = useT();
  const navigation = useNavigation();
  const paying = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'pay';
  const locked = useRef(false);
  useEffect(() => {
    if (navigation.state === 'idle') locked.current = false;
  }, [navigation.state]);
  const busy = paying;
  return (
    <Form
      method="post"
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        // The Pay button cannot submit twice: the first submission disables it until the answer arrives.
        if (locked.current) {
          event.preventDefault();
          return;
        }
        locked.current = true;
      }}
    >
      <TestNotice text={t('checkout.test.notice')} />
      <input type="hidden" name="intent" value="pay" />
      <input type="hidden" name="orderId" value={orderId} />
      <div>
        <label htmlFor="card-number" className="field-label">{t('checkout.card.number')}</label>
        <div className="relative">
          <CreditCard aria-hidden="true" className="pointer-events-none absolute top-1/2 left-4 h-4 w-4 -translate-y-1/2 text-muted" />
          <input
            id="card-number"
            name="cardNumber"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="4242 4242 4242 4242"
            required
            maxLength={23}
            onInput={(e) => reformat(e, formatCardNumber)}
            aria-invalid={error === 'invalid_number' ? true : undefined}
            aria-describedby={error === 'invalid_number' ? 'card-error' : undefined}
            className="field-input pl-11 tabular-nums"
          />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-4">
        <div>
          <label htmlFor="card-expiry" className="field-label">{t('checkout.card.expiry')}</label>
          <input
            id="card-expiry"
            name="cardExpiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder={t('checkout.card.expiryPlaceholder')}
            required
            maxLength={7}
            onInput={(e) => reformat(e, formatExpiry)}
            aria-invalid={error === 'invalid_expiry' ? true : undefined}
            aria-describedby={error === 'invalid_expiry' ? 'card-error' : undefined}
            className="field-input tabular-nums"
          />
        </div>
        <div>
          <label htmlFor="card-cvc" className="field-label">{t('checkout.card.cvc')}</label>
          <input
            id="card-cvc"
            name="cardCvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            required
            maxLength={4}
            onInput={(e) => reformat(e, formatCvc)}
            aria-invalid={error === 'invalid_cvc' ? true : undefined}
            aria-describedby={error === 'invalid_cvc' ? 'card-error' : undefined}
            className="field-input tabular-nums"
          />
        </div>
      </div>
      <PaymentError error={error ?? null} id="card-error" />
      <button type="submit" className="btn-primary w-full py-3.5 text-base" disabled={busy} aria-busy={busy}>
        {busy ? t('checkout.processing') : t('checkout.pay', { amount })}
      </button>
    </Form>
  );
}

/** Says the form is a test payment (nothing is ever charged), with what to type. */
export function TestNotice({ text }: { text: string }) {
  return (
    <p className="flex items-start gap-3 rounded-2xl bg-leaf-light px-4 py-3 text-sm text-leaf-dark">
      <FlaskConical aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
      <span>{text}</span>
    </p>
  );
}

/**
 * Why a payment was refused, in an alert region. The reason, not the top of the page, is what the shopper needs
 * to see (on a phone too): it is brought into view once the answer is in.
 */
export function PaymentError({ error, id }: { error: string | null; id: string }) {
  const t = useT();
  const message = useRef<HTMLParagraphElement>(null);
  const navigation = useNavigation();
  useEffect(() => {
    if (error && navigation.state === 'idle') revealMessage(message.current);
  }, [error, navigation.state]);
  return (
    <div role="alert">
      {error && (
        <p ref={message} id={id} className="scroll-mt-28 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry focus:outline-none">
          {t(`checkout.errors.${error}`)}
        </p>
      )}
    </div>
  );
}
