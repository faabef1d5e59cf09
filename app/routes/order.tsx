import { MailCheck, UserPlus } from 'lucide-react';
import { Form, Link, data, redirect, useNavigation } from 'react-router';
import { OrderCard } from '~/components/orders/orders-list';
import { field, readForm } from '~/http/body.server';
import { pathFor, shopperContext } from '~/http/shopper.server';
import { claimGuestOrder, findUserByEmail, requestPasswordReset } from '~/modules/accounts/index.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { getGuestOrder } from '~/modules/orders/index.server';
import type { Route } from './+types/order';
import { appContext } from '~/context';
import { privatePageHeaders } from '~/http/private-page.server';

/**
 * A guest's order (/order/{id}?key=…), from the link in its mails: the order as My Orders shows it, withdrawing
 * from it, and making it an account's with one click (docs/decisions/0022): a new account gets a mail to set
 * its password (nobody is signed in by the click). A wrong key is a plain 404: the
 * page does not tell whether the order exists.
 */
type Result = { ok: false; problem: 'accountExists' | 'otherAccount' | 'gone' };

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const t = getT(shopper.locale);
  const base = { meta: { title: `${t('orders.guest.title')} · Kopi` }, messages: getMessages(shopper.locale, 'orders', 'cart', 'delivery') };
  // Just made an account's: the link has done its work, and the mail to set a password is on its way.
  if (url.searchParams.get('joined') === 'new') return { ...base, joined: true as const };
  const key = url.searchParams.get('key') ?? '';
  const order = await getGuestOrder(app.db, app.storage, params.id, key);
  if (!order) throw data(null, { status: 404 });
  const { email, ...view } = order;
  const signedInAs = shopper.user?.email ?? null;
  return {
    ...base,
    joined: false as const,
    order: view,
    key,
    email,
    signedInAs,
    // Whether "Create my account" can make one, or the visitor signs in to the account the email has.
    accountExists: signedInAs ? false : (await findUserByEmail(app.db, email)) !== null,
  };
}

// The key is the page's secret: never kept by a cache, never sent on to another site (a carrier's tracking page).
export const headers: Route.HeadersFunction = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export async function action({ request, params, url, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const form = await readForm(request);
  const key = field(form, 'key') || (url.searchParams.get('key') ?? '');
  if (field(form, 'intent') !== 'account') return data<Result>({ ok: false, problem: 'gone' }, { status: 400 });
  const signedIn = shopper.user ? { id: shopper.user.id, email: shopper.user.email } : null;
  const outcome = await claimGuestOrder(app.db, { orderId: params.id, key, signedIn });
  if (!outcome.ok) {
    const problem = outcome.reason === 'account_exists' ? 'accountExists' : outcome.reason === 'other_account' ? 'otherAccount' : 'gone';
    return data<Result>({ ok: false, problem }, { status: problem === 'gone' ? 404 : 409 });
  }
  if (outcome.created) {
    // Not signed in here: whoever checked out typed the email, but only its mailbox's owner may use the account.
    // The mail's link sets its first password (Google sign-in with the same address works too).
    await requestPasswordReset(app.db, { email: outcome.email, ip: app.clientIp, locale: shopper.locale, publicUrl: app.config.publicUrl, mail: 'welcome' }, app.limits);
    app.kickMail();
    throw redirect(pathFor(shopper, `/order/${encodeURIComponent(params.id)}?joined=new`));
  }
  throw redirect(pathFor(shopper, '/profile?tab=orders&joined=yes'));
}

export default function GuestOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const path = useLocalePath();
  const busy = useNavigation().state === 'submitting';
  const result = actionData as Result | undefined;
  if (loaderData.joined) {
    return (
      <div className="container-page py-12 md:py-20">
        <section className="mx-auto max-w-xl rounded-3xl bg-paper p-6 text-center ring-1 ring-sand sm:p-10" aria-labelledby="account-ready" data-testid="account-ready">
          <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-leaf-light">
            <MailCheck aria-hidden="true" className="h-8 w-8 text-leaf" />
          </span>
          <h1 id="account-ready" className="mt-5 text-3xl font-semibold">{t('orders.guest.readyTitle')}</h1>
          <p className="mt-3 text-muted">{t('orders.guest.readyText')}</p>
          <Link to={path('/')} className="btn-primary mt-8">{t('checkout.continueShopping')}</Link>
        </section>
      </div>
    );
  }
  const { order, key, email, signedInAs, accountExists } = loaderData;
  const here = path(`/order/${order.id}?key=${encodeURIComponent(key)}`);
  return (
    <div className="container-page py-10 md:py-14">
      <p className="eyebrow">{t('orders.guest.eyebrow')}</p>
      <h1 className="mt-2 text-4xl font-semibold md:text-5xl">{t('orders.guest.title')}</h1>
      <p className="mt-3 max-w-2xl break-words text-muted">{t('orders.guest.intro', { email })}</p>
      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <ul className="grid gap-6">
          <OrderCard order={order} position={1} reviewed={[]} guestKey={key} />
        </ul>
        <section aria-labelledby="guest-account" className="h-fit rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="guest-account">
          <h2 id="guest-account" className="text-xl font-semibold">{t('orders.guest.accountHeading')}</h2>
          <p className="mt-2 text-sm text-muted">{t('orders.guest.accountText')}</p>
          <div aria-live="polite">
            {result && !result.ok && (
              <p role="alert" className="mt-4 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">
                {t(`orders.guest.problems.${result.problem}`, { email })}
              </p>
            )}
          </div>
          {signedInAs && signedInAs.toLowerCase() !== email.toLowerCase() ? (
            <p className="mt-4 text-sm">{t('orders.guest.otherAccount', { email })}</p>
          ) : accountExists ? (
            <Link to={path(`/auth?mode=login&redirectTo=${encodeURIComponent(here)}`)} className="btn-primary mt-5 w-full">
              {t('orders.guest.signInToAdd', { email })}
            </Link>
          ) : (
            <Form method="post" className="mt-5">
              <input type="hidden" name="intent" value="account" />
              <input type="hidden" name="key" value={key} />
              <button type="submit" className="btn-primary w-full" disabled={busy}>
                <UserPlus aria-hidden="true" className="h-4 w-4" />
                {signedInAs ? t('orders.guest.addToMine') : t('orders.guest.createAccount')}
              </button>
            </Form>
          )}
        </section>
      </div>
    </div>
  );
}
