import { Building2, FlaskConical } from 'lucide-react';
import { Form, data, redirect, useNavigation } from 'react-router';
import { appContext } from '~/context';
import { privatePageHeaders } from '~/http/private-page.server';
import { field, readForm } from '~/http/body.server';
import { pathFor, shopperContext } from '~/http/shopper.server';
import { formatPrice } from '~/lib/format';
import { safeRedirect } from '~/lib/safe-redirect';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { answerTestBank, testBankPayment } from '~/modules/payments/index.server';
import { isCurrency } from '~/modules/pricing/currencies';
import type { Route } from './+types/test-bank';

/**
 * The test provider's stand-in for a Przelewy24 bank (only with PAYMENT_PROVIDER=test, so the demo and the tests
 * work offline): the amount, Approve and Decline. Either answer sends the shopper back to the shop's waiting page,
 * which reads the payment's state; a page left unanswered expires. Nothing here marks an order paid.
 */
async function waitingPayment(context: Route.LoaderArgs['context'], paymentId: string) {
  const app = context.get(appContext);
  const payment = app.payments.name === 'test' ? await testBankPayment(app.db, paymentId) : null;
  if (!payment) throw data(null, { status: 404 });
  return payment;
}

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const shopper = context.get(shopperContext);
  const payment = await waitingPayment(context, params.paymentId);
  return {
    amount: { cents: payment.amountCents, currency: isCurrency(payment.currency) ? payment.currency : 'EUR' },
    returnTo: safeRedirect(url.searchParams.get('return'), pathFor(shopper, `/checkout?step=waiting&order=${payment.orderId}&method=przelewy24`)),
    meta: { title: `${getT(shopper.locale)('checkout.testBank.title')} · Kopi` },
    messages: getMessages(shopper.locale, 'checkout'),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const payment = await waitingPayment(context, params.paymentId);
  const form = await readForm(request);
  const answer = field(form, 'answer');
  if (answer !== 'approve' && answer !== 'decline') throw data(null, { status: 400 });
  await answerTestBank(app.db, params.paymentId, answer === 'approve');
  return redirect(safeRedirect(form.get('returnTo'), pathFor(shopper, `/checkout?step=waiting&order=${payment.orderId}&method=przelewy24`)));
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];
export const headers: Route.HeadersFunction = () => privatePageHeaders;

export default function TestBankPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const busy = useNavigation().state === 'submitting';
  const { amount, returnTo } = loaderData;
  return (
    <div className="container-page py-14 md:py-20">
      <section className="mx-auto max-w-lg rounded-3xl bg-paper p-8 ring-1 ring-sand" aria-labelledby="bank-heading" data-testid="test-bank">
        <p className="flex items-start gap-3 rounded-2xl bg-leaf-light px-4 py-3 text-sm text-leaf-dark">
          <FlaskConical aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <span>{t('checkout.testBank.notice')}</span>
        </p>
        <div className="mt-6 flex items-center gap-3">
          <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-sand/70 text-roast">
            <Building2 aria-hidden="true" className="h-6 w-6" />
          </span>
          <h1 id="bank-heading" className="text-3xl font-semibold">{t('checkout.testBank.heading')}</h1>
        </div>
        <dl className="mt-6 grid gap-2 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-muted">{t('checkout.testBank.merchant')}</dt>
            <dd className="font-semibold">Kopi</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted">{t('checkout.testBank.amount')}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="bank-amount">{formatPrice(amount.cents, amount.currency, locale)}</dd>
          </div>
        </dl>
        <p className="mt-4 text-sm text-muted">{t('checkout.testBank.question')}</p>
        <Form method="post" className="mt-6 grid gap-3 sm:grid-cols-2">
          <input type="hidden" name="returnTo" value={returnTo} />
          <button type="submit" name="answer" value="decline" className="btn-outline py-3" disabled={busy}>{t('checkout.testBank.decline')}</button>
          <button type="submit" name="answer" value="approve" className="btn-primary py-3" disabled={busy}>{t('checkout.testBank.approve')}</button>
        </Form>
      </section>
    </div>
  );
}
