import { Package } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Form, Link, data, useNavigation } from 'react-router';
import { FormField } from '~/components/ui/form-field';
import { useClientValidation } from '~/lib/use-client-validation';
import { type Profile, paymentMethods, parseProfileForm } from '~/modules/accounts/accounts.schema';
import { getProfile, updateProfile } from '~/modules/accounts/index.server';
import { field, readForm } from '~/http/body.server';
import { OrdersList } from '~/components/orders/orders-list';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { listOrders } from '~/modules/orders/index.server';
import { invoicesByOrder, sellerOf } from '~/modules/invoices/index.server';
import { reviewedProductIds } from '~/modules/reviews/index.server';
import { countCustomerData } from '~/modules/privacy/index.server';
import { YourData } from '~/components/privacy/your-data';
import { ORDERS_PAGE_SIZE, reviewableProductIds } from '~/modules/orders/orders.types';
import { useLocalePath, useT } from '~/modules/i18n/react';
import type { Route } from './+types/profile';
import { appContext } from '~/context';
import { requireUser, shopperContext } from '~/http/shopper.server';

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireUser(shopper, url);
  const { locale } = shopper;
  const asked = url.searchParams.get('tab');
  const tab = asked === 'orders' || asked === 'data' ? asked : 'profile';
  const page = Math.min(Math.max(Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1, 1), 50);
  const orders = tab === 'orders' ? await listOrders(app.db, app.storage, user.id, { limit: page * ORDERS_PAGE_SIZE, offset: 0 }) : null;
  const reviewable = orders?.orders.flatMap(reviewableProductIds) ?? [];
  const reviewed = [...(await reviewedProductIds(app.db, user.id, [...new Set(reviewable)]))];
  const invoices = orders ? Object.fromEntries(await invoicesByOrder(app.db, orders.orders.map((o) => o.id))) : {};
  // Just made from a guest's order: said once, above the orders.
  const joined = tab === 'orders' && url.searchParams.get('joined') === 'yes';
  // The data tab counts what the file would hold.
  const summary = tab === 'data' ? await countCustomerData(app.db, user.id) : null;
  return {
    tab,
    page,
    joined,
    summary,
    limited: tab === 'data' && url.searchParams.get('limited') === 'yes',
    taxYears: app.config.retention.taxYears,
    orders,
    reviewed,
    invoices,
    // The customer may ask for invoices only when the shop can issue them (its legal details are set).
    invoicesAvailable: sellerOf(app.config.seller) !== null,
    user: { displayName: user.displayName, email: user.email },
    profile: await getProfile(app.db, user.id),
    meta: { title: `${getT(locale)('profile.title')} · Kopi` },
    messages: getMessages(locale, 'profile', 'orders', 'cart', 'reviews', 'delivery', 'invoices', 'privacy'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

type ActionResult = { status: 'saved' } | { status: 'invalid'; fieldErrors: Record<string, string | undefined>; values: Record<string, string> } | { status: 'failed'; values: Record<string, string> };

export async function action({ request, url, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireUser(context.get(shopperContext), url);
  const form = await readForm(request);
  const values = Object.fromEntries([...new Set(form.keys())].map((key) => [key, field(form, key)]));
  const parsed = parseProfileForm(form);
  if (!parsed.ok) return data<ActionResult>({ status: 'invalid', fieldErrors: parsed.fieldErrors, values }, { status: 400 });
  try {
    await updateProfile(app.db, user.id, parsed.data);
    return data<ActionResult>({ status: 'saved' });
  } catch (error) {
    app.log.error({ err: error }, 'profile update failed');
    return data<ActionResult>({ status: 'failed', values }, { status: 503 });
  }
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const path = useLocalePath();
  const t = useT();
  const { tab, user } = loaderData;
  const tabClass = (on: boolean) =>
    `shrink-0 rounded-full px-3 py-2.5 text-sm whitespace-nowrap sm:px-5 font-semibold transition-colors ${on ? 'bg-roast text-cream' : 'text-roast hover:bg-roast/5'}`;
  return (
    <div className="container-page py-10 md:py-14">
      <h1 className="text-4xl font-semibold md:text-5xl">{t('profile.title')}</h1>
      <p className="mt-2 text-muted">{t('profile.signedInAs', { name: user.displayName || user.email, email: user.email })}</p>
      <nav aria-label={t('profile.tabsLabel')} className="mt-8 inline-flex max-w-full gap-0.5 overflow-x-auto rounded-full bg-paper p-1 ring-1 ring-sand sm:gap-1">
        <Link to={path('/profile')} className={tabClass(tab === 'profile')} aria-current={tab === 'profile' ? 'page' : undefined}>{t('profile.tabs.profile')}</Link>
        <Link to={path('/profile?tab=orders')} className={tabClass(tab === 'orders')} aria-current={tab === 'orders' ? 'page' : undefined}>{t('profile.tabs.orders')}</Link>
        <Link to={path('/profile?tab=data')} className={tabClass(tab === 'data')} aria-current={tab === 'data' ? 'page' : undefined}>{t('privacy.tab')}</Link>
      </nav>
      {loaderData.joined && (
        <p role="status" className="mt-6 max-w-2xl rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20" data-testid="order-joined">
          {t('profile.orders.joined')}
        </p>
      )}
      <div className="mt-8">
        {tab === 'data' && loaderData.summary ? (
          <YourData summary={loaderData.summary} limited={loaderData.limited} taxYears={loaderData.taxYears} />
        ) : tab === 'profile' ? (
          <ProfileForm profile={loaderData.profile} result={actionData as ActionResult | undefined} />
        ) : loaderData.orders && loaderData.orders.orders.length > 0 ? (
          <OrdersList orders={loaderData.orders.orders} hasMore={loaderData.orders.hasMore} page={loaderData.page} reviewed={loaderData.reviewed} invoices={loaderData.invoices} canAskInvoice={loaderData.invoicesAvailable} />
        ) : (
          <section className="flex flex-col items-center rounded-3xl bg-paper px-6 py-16 text-center ring-1 ring-sand">
            <Package aria-hidden="true" className="h-10 w-10 text-roast-600" />
            <h2 className="mt-4 text-2xl font-semibold">{t('profile.orders.empty')}</h2>
            <p className="mt-2 text-muted">{t('profile.orders.emptyText')}</p>
            <Link to={path('/')} className="btn-primary mt-6">{t('profile.orders.shop')}</Link>
          </section>
        )}
      </div>
    </div>
  );
}

function ProfileForm({ profile, result }: { profile: Profile; result?: ActionResult }) {
  const t = useT();
  const busy = useNavigation().state === 'submitting';
  const values: Record<string, string> = result && result.status !== 'saved' ? result.values : {};
  const initialSame =
    profile.deliveryAddress === profile.address && profile.deliveryCity === profile.city && profile.deliveryZipCode === profile.zipCode;
  const [same, setSame] = useState(values.sameAsShipping ? values.sameAsShipping === 'on' : result ? false : initialSame);
  const validation = useClientValidation(parseProfileForm);
  const clientErrors = validation.errors;
  const errors: Record<string, string | undefined> = clientErrors ?? (result?.status === 'invalid' ? result.fieldErrors : {});
  const statusRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result?.status === 'saved') validation.setErrors(null);
  }, [result]);
  const value = (name: keyof Profile) => values[name] ?? profile[name];

  return (
    <Form
      method="post"
      noValidate
      className="grid gap-8 lg:grid-cols-2"
      onSubmit={validation.onSubmit}
    >
      <div ref={statusRef} className="lg:col-span-2" aria-live="polite" role="status">
        {result?.status === 'saved' && !clientErrors && (
          <p className="rounded-2xl bg-leaf-light px-4 py-3 text-leaf-dark">{t('profile.saved')}</p>
        )}
        {result?.status === 'failed' && <p className="rounded-2xl bg-cherry-light px-4 py-3 text-cherry">{t('profile.failed')}</p>}
      </div>
      <fieldset className="grid gap-4 rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <legend className="float-left mb-2 font-serif text-xl font-semibold">{t('profile.sections.shipping')}</legend>
        <FormField name="fullName" label={t('profile.fields.fullName')} autoComplete="name" defaultValue={value('fullName')} error={errors.fullName} maxLength={120} required />
        <FormField name="address" label={t('profile.fields.address')} autoComplete="street-address" defaultValue={value('address')} error={errors.address} maxLength={200} required />
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <FormField name="city" label={t('profile.fields.city')} autoComplete="address-level2" defaultValue={value('city')} error={errors.city} maxLength={100} required />
          <FormField name="zipCode" label={t('profile.fields.zipCode')} autoComplete="postal-code" defaultValue={value('zipCode')} error={errors.zipCode} maxLength={20} required />
        </div>
        <FormField name="phone" type="tel" label={t('profile.fields.phone')} hint={t('profile.phoneHint')} autoComplete="tel" defaultValue={value('phone')} error={errors.phone} maxLength={30} />
      </fieldset>
      <fieldset className="grid content-start gap-4 rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <legend className="float-left mb-2 font-serif text-xl font-semibold">{t('profile.sections.billing')}</legend>
        <label className="flex items-center gap-3 text-sm font-medium">
          <input type="checkbox" name="sameAsShipping" checked={same} onChange={(e) => setSame(e.currentTarget.checked)} className="h-5 w-5 accent-leaf" />
          {t('profile.fields.sameAsShipping')}
        </label>
        {!same && (
          <>
            <FormField name="deliveryAddress" label={t('profile.fields.address')} id="field-deliveryAddress" autoComplete="billing street-address" defaultValue={value('deliveryAddress')} error={errors.deliveryAddress} maxLength={200} required />
            <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
              <FormField name="deliveryCity" label={t('profile.fields.city')} autoComplete="billing address-level2" defaultValue={value('deliveryCity')} error={errors.deliveryCity} maxLength={100} required />
              <FormField name="deliveryZipCode" label={t('profile.fields.zipCode')} autoComplete="billing postal-code" defaultValue={value('deliveryZipCode')} error={errors.deliveryZipCode} maxLength={20} required />
            </div>
          </>
        )}
      </fieldset>
      <fieldset className="rounded-3xl bg-paper p-6 ring-1 ring-sand lg:col-span-2" aria-describedby="payment-note">
        <legend className="float-left mb-2 font-serif text-xl font-semibold">{t('profile.fields.paymentMethod')}</legend>
        <p id="payment-note" className="clear-both mb-4 text-sm text-muted">
          {t('profile.paymentNote')}
        </p>
        <div className="grid gap-3 sm:grid-cols-3">
          {paymentMethods.map((method) => (
            <label key={method} className="flex cursor-pointer items-center gap-3 rounded-2xl border border-sand-dark bg-cream/40 px-4 py-3 text-sm font-medium has-[:checked]:border-leaf has-[:checked]:bg-leaf-light">
              <input type="radio" name="paymentMethod" value={method} defaultChecked={(values.paymentMethod ?? profile.paymentMethod) === method} className="h-4 w-4 accent-leaf" />
              {t(`profile.paymentMethods.${method}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="lg:col-span-2">
        <button type="submit" className="btn-primary px-8 py-3" disabled={busy}>{t('profile.save')}</button>
      </div>
    </Form>
  );
}
