import { CheckCircle2, Undo2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Form, Link, data, useNavigation } from 'react-router';
import { FormField } from '~/components/ui/form-field';
import { formatDate, formatDateTime } from '~/lib/format';
import { field, readForm } from '~/http/body.server';
import { privatePageHeaders } from '~/http/private-page.server';
import { shopperContext } from '~/http/shopper.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { getGuestOrder } from '~/modules/orders/index.server';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import {
  type WithdrawableOrder,
  findOrderForWithdrawal,
  findOwnOrderForWithdrawal,
  requestWithdrawal,
  withdrawalLimited,
} from '~/modules/withdrawals/index.server';
import { type WithdrawalErrors, parseWithdrawalForm, withdrawalLimits } from '~/modules/withdrawals/withdrawal.schema';
import type { Route } from './+types/withdraw';
import { appContext } from '~/context';

/**
 * "Withdraw from contract here" (art. 11a of Directive 2011/83/EU): step 1 asks for the name, the order's
 * number and email (filled in when a signed-in customer comes from My Orders) and an optional reason; step 2
 * shows the order's lines, all chosen, and "Confirm withdrawal". Plain forms, so it works without JavaScript.
 */
type Values = { name: string; orderNumber: string; email: string; reason: string };
type OrderSummary = Pick<WithdrawableOrder, 'label' | 'createdAt' | 'closesAt' | 'lines'>;
type Result =
  | { step: 'details'; values: Values; errors?: WithdrawalErrors; problem?: string; status?: number }
  | { step: 'review'; values: Values; order: OrderSummary; errors?: WithdrawalErrors }
  | { step: 'done'; email: string; at: string; refundDueAt: string };

const emptyValues: Values = { name: '', orderNumber: '', email: '', reason: '' };

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { locale, user } = context.get(shopperContext);
  const t = getT(locale);
  let prefill = emptyValues;
  const orderId = url.searchParams.get('order');
  const key = url.searchParams.get('key');
  if (user && orderId) {
    const order = await findOwnOrderForWithdrawal(app.db, user.id, orderId);
    if (order) prefill = { name: order.fullName, orderNumber: order.label, email: order.email, reason: '' };
  } else if (orderId && key) {
    // A guest from their order's private page.
    const order = await getGuestOrder(app.db, app.storage, orderId, key);
    if (order) prefill = { name: order.shipping.fullName, orderNumber: order.label, email: order.email, reason: '' };
  }
  return data(
    {
      prefill,
      meta: { title: `${t('withdrawal.title')} · Kopi`, description: t('withdrawal.metaDescription') },
      messages: getMessages(locale, 'withdrawal', 'checkout'),
    },
    // Filled in with someone's name and email (from My Orders, or a guest's key): not for a shared cache.
    prefill === emptyValues ? undefined : { headers: privatePageHeaders },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.meta.title },
  { name: 'description', content: loaderData?.meta.description },
  { name: 'robots', content: 'noindex' },
];

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const { locale } = context.get(shopperContext);
  const form = await readForm(request);
  const intent = field(form, 'intent');
  const confirm = intent === 'confirm';
  const parsed = parseWithdrawalForm(form, { requireLines: confirm });
  const values: Values = { name: parsed.data.name, orderNumber: parsed.data.orderNumber, email: parsed.data.email, reason: parsed.data.reason };
  const details = (status: number, extra: Partial<Extract<Result, { step: 'details' }>>) => data<Result>({ step: 'details', values, ...extra }, { status });

  if (intent === 'change') return data<Result>({ step: 'details', values });
  if (!parsed.ok && (!confirm || !parsed.errors.lines || Object.keys(parsed.errors).length > 1)) {
    return details(400, { errors: parsed.errors });
  }
  if (await withdrawalLimited(app.db, app.limits, values.email, app.clientIp)) return details(429, { problem: 'withdrawal.errors.limited' });
  const order = await findOrderForWithdrawal(app.db, values.orderNumber, values.email);
  if (!order) return details(400, { errors: { orderNumber: 'withdrawal.errors.orderUnknown' } });
  const t = getT(locale);
  const refusal = (status: WithdrawableOrder['status']) =>
    status === 'closed' ? t('withdrawal.errors.closed', { date: formatDate(order.closesAt ?? order.createdAt, locale) }) : t(`withdrawal.errors.${status}`);
  if (order.status !== 'open') return details(409, { problem: refusal(order.status) });
  const summary: OrderSummary = { label: order.label, createdAt: order.createdAt, closesAt: order.closesAt, lines: order.lines };
  if (!confirm) return data<Result>({ step: 'review', values, order: summary });
  if (!parsed.ok) return data<Result>({ step: 'review', values, order: summary, errors: parsed.errors }, { status: 400 });

  const outcome = await requestWithdrawal(
    app.db,
    order,
    { name: values.name, email: values.email, positions: parsed.data.positions, reason: values.reason, locale },
    { contactTo: app.config.contactTo, publicUrl: app.config.publicUrl.toString() },
  );
  if (!outcome.ok) {
    if (outcome.reason === 'no_lines') return data<Result>({ step: 'review', values, order: summary, errors: { lines: 'withdrawal.errors.linesRequired' } }, { status: 400 });
    return details(409, { problem: refusal(outcome.reason) });
  }
  app.kickMail();
  return data<Result>({ step: 'done', email: outcome.withdrawal.email, at: outcome.withdrawal.createdAt, refundDueAt: outcome.withdrawal.refundDueAt });
}

export default function WithdrawPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const result = actionData as Result | undefined;
  return (
    <div className="container-page py-10 md:py-14">
      <div className="max-w-2xl">
        <p className="eyebrow">{t('legal.heading')}</p>
        <h1 className="mt-2 text-4xl font-semibold md:text-5xl">{result?.step === 'done' ? t('withdrawal.done.title') : t('withdrawal.title')}</h1>
        {result?.step !== 'done' && <p className="mt-4 text-lg text-muted">{t('withdrawal.intro')}</p>}
      </div>
      <div className="mt-10 max-w-2xl">
        {result?.step === 'done' ? (
          <Done result={result} />
        ) : result?.step === 'review' ? (
          <Review result={result} />
        ) : (
          <Details values={result?.values ?? loaderData.prefill} errors={result?.step === 'details' ? result.errors : undefined} problem={result?.step === 'details' ? result.problem : undefined} />
        )}
      </div>
    </div>
  );
}

function useFocusFirstError(errors: WithdrawalErrors | undefined, form: React.RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    const first = errors && (Object.keys(errors) as (keyof WithdrawalErrors)[]).find((k) => errors[k]);
    if (first) form.current?.querySelector<HTMLElement>(first === 'lines' ? 'input[name="line"]' : `[name="${first}"]`)?.focus();
  }, [errors, form]);
}

function Details({ values, errors: serverErrors = {}, problem }: { values: Values; errors?: WithdrawalErrors; problem?: string }) {
  const { t } = useI18n();
  const path = useLocalePath();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = useNavigation().state === 'submitting';
  // The browser checks the same way first (the server checks again): nothing is sent while a field is wrong.
  const [clientErrors, setClientErrors] = useState<WithdrawalErrors | null>(null);
  const errors = clientErrors ?? serverErrors;
  useFocusFirstError(errors, formRef);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const check = parseWithdrawalForm(new FormData(event.currentTarget), { requireLines: false });
    if (check.ok) return setClientErrors(null);
    event.preventDefault();
    setClientErrors(check.errors);
  };
  return (
    <section aria-labelledby="details-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand md:p-8">
      <h2 id="details-heading" className="sr-only">{t('withdrawal.title')}</h2>
      <div role="alert">{problem && <p className="mb-5 rounded-2xl bg-cherry-light px-4 py-3 text-cherry" data-testid="withdrawal-problem">{t(problem)}</p>}</div>
      <Form ref={formRef} method="post" action={path('/withdraw')} noValidate className="grid gap-5" key={JSON.stringify(values)} onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="find" />
        <FormField name="name" label={t('withdrawal.fields.name')} defaultValue={values.name} error={errors.name} autoComplete="name" maxLength={withdrawalLimits.name} required />
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField name="orderNumber" label={t('withdrawal.fields.orderNumber')} hint={t('withdrawal.fields.orderNumberHint')} defaultValue={values.orderNumber} error={errors.orderNumber} maxLength={withdrawalLimits.orderNumber} autoCapitalize="characters" required />
          <FormField name="email" type="email" label={t('withdrawal.fields.email')} defaultValue={values.email} error={errors.email} autoComplete="email" maxLength={withdrawalLimits.email} required />
        </div>
        <Reason value={values.reason} error={errors.reason} />
        <div>
          <button type="submit" className="btn-primary px-7 py-3" disabled={busy}>{t('withdrawal.continue')}</button>
        </div>
      </Form>
    </section>
  );
}

function Reason({ value, error }: { value: string; error?: string }) {
  const { t } = useI18n();
  return (
    <div>
      <label htmlFor="field-reason" className="field-label">{t('withdrawal.fields.reason')}</label>
      <textarea
        id="field-reason"
        name="reason"
        rows={3}
        defaultValue={value}
        maxLength={withdrawalLimits.reason}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'field-reason-error field-reason-hint' : 'field-reason-hint'}
        className="field-input"
      />
      <p id="field-reason-hint" className="mt-1.5 text-xs text-muted">{t('withdrawal.fields.reasonHint')}</p>
      {error && <p id="field-reason-error" className="field-error">{t(error)}</p>}
    </div>
  );
}

function Review({ result }: { result: Extract<Result, { step: 'review' }> }) {
  const { t, locale } = useI18n();
  const path = useLocalePath();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = useNavigation().state === 'submitting';
  useFocusFirstError(result.errors, formRef);
  const { order, values } = result;
  const linesError = result.errors?.lines;
  return (
    <section aria-labelledby="review-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand md:p-8">
      <h2 id="review-heading" className="text-2xl font-semibold">{t('withdrawal.review.heading')}</h2>
      <p className="mt-2 text-sm text-muted">
        {order.closesAt ? t('withdrawal.review.open', { date: formatDate(order.closesAt, locale) }) : t('withdrawal.review.openUndelivered')}
      </p>
      <Form ref={formRef} method="post" action={path('/withdraw')} noValidate className="mt-6 grid gap-5">
        {(['name', 'orderNumber', 'email', 'reason'] as const).map((name) => (
          <input key={name} type="hidden" name={name} value={values[name]} />
        ))}
        <fieldset aria-describedby={linesError ? 'lines-error' : 'lines-hint'}>
          <legend className="field-label">{t('withdrawal.review.text', { label: order.label, date: formatDate(order.createdAt, locale) })}</legend>
          <p id="lines-hint" className="text-xs text-muted">{t('withdrawal.fields.linesHint')}</p>
          <ul className="mt-3 grid gap-2" data-testid="withdrawal-lines">
            {order.lines.map((line) => (
              <li key={line.position}>
                <label className="flex cursor-pointer items-center gap-3 rounded-2xl border border-sand bg-cream/60 px-4 py-3 has-[:checked]:border-leaf">
                  <input type="checkbox" name="line" value={line.position} defaultChecked className="h-4 w-4 accent-leaf" />
                  <span className="flex-1 font-medium">{line.quantity} × {line.title || t('product.unnamed')}</span>
                </label>
              </li>
            ))}
          </ul>
          {linesError && <p id="lines-error" className="field-error">{t(linesError)}</p>}
        </fieldset>
        {values.reason && (
          <p className="text-sm text-muted">
            {t('withdrawal.fields.reason')}: <span className="text-roast">{values.reason}</span>
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" name="intent" value="confirm" className="btn-primary px-7 py-3" disabled={busy}>
            <Undo2 aria-hidden="true" className="h-4 w-4" />
            {t('withdrawal.review.confirm')}
          </button>
          <button type="submit" name="intent" value="change" className="btn-ghost" formNoValidate>
            {t('withdrawal.review.change')}
          </button>
        </div>
      </Form>
    </section>
  );
}

function Done({ result }: { result: Extract<Result, { step: 'done' }> }) {
  const { t, locale } = useI18n();
  const path = useLocalePath();
  return (
    <section role="status" className="rounded-3xl bg-paper p-6 ring-1 ring-sand md:p-8" data-testid="withdrawal-done">
      <CheckCircle2 aria-hidden="true" className="h-10 w-10 text-leaf" />
      <p className="mt-4 text-lg font-semibold">{t('withdrawal.done.text', { when: formatDateTime(result.at, locale) })}</p>
      <p className="mt-2 text-muted">{t('withdrawal.done.mail', { email: result.email })}</p>
      <p className="mt-2 text-muted">{t('withdrawal.done.refund', { date: formatDate(result.refundDueAt, locale) })}</p>
      <Link to={path('/')} className="btn-outline mt-6">{t('checkout.continueShopping')}</Link>
    </section>
  );
}
