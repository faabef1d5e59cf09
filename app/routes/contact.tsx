import { Clock, Mail, MapPin, MessageCircle, Phone } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Form, data, useNavigation } from 'react-router';
import { field, readForm } from '~/http/body.server';
import { revealMessage } from '~/lib/navigation-focus';
import { useClientValidation } from '~/lib/use-client-validation';
import { type ContactField, type ContactFieldErrors, contactFields, contactLimits, parseContactForm } from '~/modules/contact/contact.schema';
import { submitContactMessage } from '~/modules/contact/index.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useLocalePath, useT } from '~/modules/i18n/react';
import type { Route } from './+types/contact';
import { appContext } from '~/context';
import { shopperContext } from '~/http/shopper.server';

export async function loader({ context }: Route.LoaderArgs) {
  const { locale, user } = context.get(shopperContext);
  const t = getT(locale);
  return {
    // A signed-in customer is not asked who they are again (the page is then theirs alone: never shared).
    sender: user ? { name: user.displayName, email: user.email } : null,
    meta: { title: `${t('contact.title')} · Kopi`, description: t('contact.metaDescription') },
    messages: getMessages(locale, 'contact'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.meta.title },
  { name: 'description', content: loaderData?.meta.description },
];

type Values = Partial<Record<ContactField, string>>;
type ActionResult =
  | { status: 'sent' }
  | { status: 'invalid'; fieldErrors: ContactFieldErrors; values: Values }
  | { status: 'failed'; values: Values }
  | { status: 'limited'; values: Values };

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const form = await readForm(request);
  const values: Values = Object.fromEntries(contactFields.map((f) => [f, field(form, f)]));
  const parsed = parseContactForm(form);
  if (!parsed.ok) return data<ActionResult>({ status: 'invalid', fieldErrors: parsed.fieldErrors, values }, { status: 400 });
  const { locale, user } = context.get(shopperContext);
  const result = await submitContactMessage(
    app.db,
    { input: parsed.data, locale, contactTo: app.config.contactTo, ip: app.clientIp, log: app.log, userId: user?.id ?? null },
    app.limits,
  );
  if (!result.ok && result.reason === 'rate_limited') return data<ActionResult>({ status: 'limited', values }, { status: 429 });
  if (!result.ok) return data<ActionResult>({ status: 'failed', values }, { status: 503 });
  app.kickMail();
  return data<ActionResult>({ status: 'sent' });
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalePath();
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formAction === path('/contact');
  const validation = useClientValidation(parseContactForm);
  const clientErrors = validation.errors;
  const setClientErrors = validation.setErrors;
  const [sentCount, setSentCount] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmation = useRef<HTMLParagraphElement>(null);
  const result = actionData as ActionResult | undefined;
  const errors = clientErrors ?? (result?.status === 'invalid' ? result.fieldErrors : {});
  const { sender } = loaderData;
  const values: Values = result && result.status !== 'sent' ? result.values : { name: sender?.name, email: sender?.email };

  useEffect(() => {
    if (result?.status === 'sent') {
      formRef.current?.reset();
      setSentCount((n) => n + 1);
    }
  }, [result]);
  // The confirmation sits above the form, off a phone's screen once the form is sent: take the reader to it.
  useEffect(() => {
    if (result?.status === 'sent' && sentCount > 0) {
      revealMessage(confirmation.current);
    }
  }, [result, sentCount]);
  useEffect(() => {
    if (result?.status === 'invalid') focusFirstError(formRef.current, result.fieldErrors);
  }, [result]);

  const field = (name: ContactField, label: string, input: (props: React.InputHTMLAttributes<HTMLInputElement> & React.TextareaHTMLAttributes<HTMLTextAreaElement>) => React.ReactNode) => {
    const error = errors[name];
    return (
      <div>
        <label htmlFor={`contact-${name}`} className="field-label">{label}</label>
        {input({
          id: `contact-${name}`,
          name,
          defaultValue: values[name],
          maxLength: contactLimits[name],
          required: true,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `contact-${name}-error` : undefined,
          className: 'field-input',
          onInput: () => clientErrors?.[name] && setClientErrors({ ...clientErrors, [name]: undefined }),
        })}
        {error && (
          <p id={`contact-${name}-error`} className="field-error">{t(error, { max: contactLimits[name] })}</p>
        )}
      </div>
    );
  };

  return (
    <div className="container-page py-10 md:py-14">
      <div className="max-w-2xl">
        <p className="eyebrow">Kopi</p>
        <h1 className="mt-2 text-4xl font-semibold md:text-5xl">{t('contact.title')}</h1>
        <p className="mt-4 text-lg text-muted">{t('contact.intro')}</p>
      </div>

      <div className="mt-10 grid gap-10 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="form-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand md:p-8">
          <h2 id="form-heading" className="text-2xl font-semibold">{t('contact.form.heading')}</h2>
          <div role="status" aria-live="polite">
            {result?.status === 'sent' && !clientErrors && (
              <p ref={confirmation} tabIndex={-1} className="animate-fade-in mt-4 scroll-mt-28 rounded-2xl bg-leaf-light px-4 py-3 text-leaf-dark focus:outline-none" data-testid="contact-success">
                {t('contact.success')}
              </p>
            )}
          </div>
          <div role="alert">
            {result?.status === 'failed' && (
              <p className="mt-4 rounded-2xl bg-cherry-light px-4 py-3 text-cherry">{t('contact.failure')}</p>
            )}
          </div>
          <Form
            key={sentCount}
            ref={formRef}
            method="post"
            noValidate
            className="mt-6 grid gap-5"
            onSubmit={validation.onSubmit}
          >
            <div className="grid gap-5 sm:grid-cols-2">
              {field('name', t('contact.form.name'), (p) => <input type="text" autoComplete="name" {...p} />)}
              {field('email', t('contact.form.email'), (p) => <input type="email" autoComplete="email" {...p} />)}
            </div>
            {field('subject', t('contact.form.subject'), (p) => <input type="text" {...p} />)}
            {field('message', t('contact.form.message'), (p) => <textarea rows={6} {...p} />)}
            <div>
              <button type="submit" className="btn-primary px-7 py-3" disabled={sending}>
                {sending ? t('contact.form.sending') : t('contact.form.send')}
              </button>
            </div>
          </Form>
        </section>

        <aside aria-labelledby="info-heading" className="h-fit rounded-3xl bg-roast p-6 text-cream md:p-8">
          <h2 id="info-heading" className="text-2xl font-semibold">{t('contact.info.heading')}</h2>
          <ul className="mt-6 space-y-5 text-sm">
            <InfoItem icon={<Mail className="h-5 w-5" />} label={t('contact.info.emailLabel')}>
              <a href={`mailto:${t('contact.info.email')}`} className="underline underline-offset-4">{t('contact.info.email')}</a>
            </InfoItem>
            <InfoItem icon={<Phone className="h-5 w-5" />} label={t('contact.info.phoneLabel')}>{t('contact.info.phone')}</InfoItem>
            <InfoItem icon={<MapPin className="h-5 w-5" />} label={t('contact.info.addressLabel')}>{t('contact.info.address')}</InfoItem>
            <InfoItem icon={<Clock className="h-5 w-5" />} label={t('contact.info.hoursLabel')}>{t('contact.info.hours')}</InfoItem>
            <InfoItem icon={<MessageCircle className="h-5 w-5" />} label="">{t('contact.info.replies')}</InfoItem>
          </ul>
        </aside>
      </div>
    </div>
  );
}

function InfoItem({ icon, label, children }: { icon: React.ReactNode; label: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-3">
      <span aria-hidden="true" className="mt-0.5 text-[#bfe3cf]">{icon}</span>
      <span>
        {label && <span className="block font-semibold">{label}</span>}
        <span className="text-cream/85">{children}</span>
      </span>
    </li>
  );
}

function focusFirstError(form: HTMLFormElement | null, errors: ContactFieldErrors) {
  const first = contactFields.find((f) => errors[f]);
  if (first) form?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
}
