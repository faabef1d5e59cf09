import { Download, Search, ShieldCheck, Trash2, UserRound } from 'lucide-react';
import { Form, Link, data, useNavigation } from 'react-router';
import { appContext } from '~/context';
import { field, readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { formatDate } from '~/lib/format';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { type CustomerMatch, deleteAccount, eraseGuest, findCustomers } from '~/modules/privacy/index.server';
import type { Route } from './+types/customers';

/**
 * Requests that come by mail (GDPR): the owner finds the customer by email, downloads what the shop keeps about
 * them, or deletes their account as the customer could themselves — logged, with the same refusals.
 */
const MAX_QUERY = 254;

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const matches = await findCustomers(app.db, q);
  const problem = url.searchParams.get('problem') === 'notFound' ? 'notFound' : null;
  return { title: getT(shopper.locale)('admin.customers.title'), q, matches, problem, confirming: url.searchParams.get('delete') };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result = { ok: true; done: 'deleted' | 'erased' } | { ok: false; problem: 'notFound' | 'guestNotFound' | 'admin' | 'openOrders' | 'confirm' | 'reviews' | 'hasAccount' };

/** Which card's confirmation is open: an account's id, or `guest:` and the address. */
const cardKey = (match: CustomerMatch) => match.userId ?? `guest:${match.email}`;

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const owner = requireAdmin(shopper);
  const form = await readForm(request);
  const intent = field(form, 'intent');
  if (intent === 'erase') {
    if (field(form, 'confirm') !== 'yes') return data<Result>({ ok: false, problem: 'confirm' }, { status: 400 });
    const erased = await eraseGuest(app.db, { email: field(form, 'email'), owner, locale: shopper.locale, taxYears: app.config.retention.taxYears });
    if (!erased.ok) {
      const problem = ({ not_found: 'guestNotFound', open_orders: 'openOrders', has_account: 'hasAccount' } as const)[erased.reason];
      return data<Result>({ ok: false, problem }, { status: erased.reason === 'not_found' ? 404 : 409 });
    }
    app.kickMail();
    return data<Result>({ ok: true, done: 'erased' });
  }
  if (intent !== 'delete') return data<Result>({ ok: false, problem: 'notFound' }, { status: 400 });
  const reviews = field(form, 'reviews');
  if (reviews !== 'keep' && reviews !== 'remove') return data<Result>({ ok: false, problem: 'reviews' }, { status: 400 });
  if (field(form, 'confirm') !== 'yes') return data<Result>({ ok: false, problem: 'confirm' }, { status: 400 });
  const userId = field(form, 'userId');
  if (!userId || userId === owner.id) return data<Result>({ ok: false, problem: userId ? 'admin' : 'notFound' }, { status: userId ? 409 : 400 });
  // The customer's language is not known once the account is gone; the confirmation goes in the owner's.
  const outcome = await deleteAccount(app.db, { userId, reviews, locale: shopper.locale, owner, taxYears: app.config.retention.taxYears });
  if (!outcome.ok) {
    const problem = ({ not_found: 'notFound', admin: 'admin', open_orders: 'openOrders' } as const)[outcome.reason];
    return data<Result>({ ok: false, problem }, { status: outcome.reason === 'not_found' ? 404 : 409 });
  }
  app.kickMail();
  return data<Result>({ ok: true, done: 'deleted' });
}

export default function AdminCustomersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const { q, matches, problem, confirming } = loaderData;
  const result = actionData as Result | undefined;
  const failure = result && !result.ok ? result.problem : problem;
  return (
    <div className="max-w-4xl">
      <h1 className="text-3xl font-semibold md:text-4xl">{t('admin.customers.heading')}</h1>
      <p className="mt-2 text-muted">{t('admin.customers.intro')}</p>

      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor="customer-q" className="field-label">{t('admin.customers.search')}</label>
          <input id="customer-q" name="q" type="search" defaultValue={q} maxLength={MAX_QUERY} autoComplete="off" className="field-input" aria-describedby="customer-q-hint" />
          <p id="customer-q-hint" className="mt-1.5 text-xs text-muted">{t('admin.customers.searchHint')}</p>
        </div>
        <button type="submit" className="btn-primary mb-6 inline-flex items-center gap-2">
          <Search aria-hidden="true" className="h-4 w-4" />
          {t('admin.customers.find')}
        </button>
      </Form>

      <div aria-live="polite">
        {result?.ok && <p role="status" className="mt-2 rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20">{t(`admin.customers.${result.done}`)}</p>}
        {failure && <p role="alert" className="mt-2 rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20">{t(`admin.customers.problems.${failure}`)}</p>}
      </div>

      {q.length >= 3 && matches.length === 0 && <p className="mt-6 rounded-3xl bg-paper p-8 text-center text-muted ring-1 ring-sand">{t('admin.customers.none', { q })}</p>}
      <ul className="mt-6 grid gap-4" data-testid="customer-matches">
        {matches.map((match) => (
          <CustomerCard key={cardKey(match)} match={match} confirming={confirming === cardKey(match)} q={q} />
        ))}
      </ul>
    </div>
  );
}

function CustomerCard({ match, confirming, q }: { match: CustomerMatch; confirming: boolean; q: string }) {
  const { t, locale } = useI18n();
  const busy = useNavigation().state === 'submitting';
  return (
    <li className="rounded-3xl bg-paper p-5 ring-1 ring-sand md:p-6" data-testid="customer-match">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex items-start gap-3">
          <UserRound aria-hidden="true" className="mt-1 h-5 w-5 text-roast-600" />
          <div>
            <p className="font-semibold break-all">{match.email}</p>
            <p className="text-sm text-muted">
              {match.userId
                ? [match.name, t('admin.customers.since', { date: formatDate(match.createdAt ?? '', locale) }), t('admin.customers.orders', { count: match.orders })].filter(Boolean).join(' · ')
                : t('admin.customers.guest', { count: match.orders })}
            </p>
            {match.isAdmin && (
              <p className="mt-1 inline-flex items-center gap-1 text-xs font-semibold text-leaf-dark"><ShieldCheck aria-hidden="true" className="h-3.5 w-3.5" />{t('admin.customers.admin')}</p>
            )}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Form method="post" action="/admin/customers/data" reloadDocument>
            <input type="hidden" name="email" value={match.email} />
            {match.userId && <input type="hidden" name="userId" value={match.userId} />}
            <button type="submit" className="btn-outline inline-flex items-center gap-2 text-sm"><Download aria-hidden="true" className="h-4 w-4" />{t('admin.customers.download')}</button>
          </Form>
          {!match.isAdmin && !confirming && (
            <Link to={`/admin/customers?q=${encodeURIComponent(q)}&delete=${encodeURIComponent(cardKey(match))}`} className="btn-outline inline-flex items-center gap-2 text-sm text-cherry">
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              {t(match.userId ? 'admin.customers.delete' : 'admin.customers.erase')}
            </Link>
          )}
        </div>
      </div>
      {confirming && !match.userId && (
        <Form method="post" className="mt-5 grid gap-4 rounded-2xl bg-cherry-light/60 p-5 ring-1 ring-cherry/20" aria-labelledby="confirm-guest">
          <h2 id="confirm-guest" className="font-semibold text-cherry">{t('admin.customers.eraseTitle', { email: match.email })}</h2>
          <p className="text-sm">{t('admin.customers.eraseText')}</p>
          <input type="hidden" name="intent" value="erase" />
          <input type="hidden" name="email" value={match.email} />
          <label className="flex items-start gap-2 text-sm font-medium">
            <input type="checkbox" name="confirm" value="yes" required className="mt-0.5 h-4 w-4 accent-cherry" />
            {t('admin.customers.confirmBox')}
          </label>
          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" disabled={busy} className="btn-primary bg-cherry hover:bg-cherry/90">{t('admin.customers.confirmErase')}</button>
            <Link to={`/admin/customers?q=${encodeURIComponent(q)}`} className="text-sm font-semibold underline underline-offset-4">{t('admin.customers.cancel')}</Link>
          </div>
        </Form>
      )}
      {confirming && match.userId && (
        <Form method="post" className="mt-5 grid gap-4 rounded-2xl bg-cherry-light/60 p-5 ring-1 ring-cherry/20" aria-labelledby={`confirm-${match.userId}`}>
          <h2 id={`confirm-${match.userId}`} className="font-semibold text-cherry">{t('admin.customers.confirmTitle', { email: match.email })}</h2>
          <p className="text-sm">{t('admin.customers.confirmText')}</p>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="userId" value={match.userId} />
          <fieldset>
            <legend className="text-sm font-semibold">{t('admin.customers.reviews')}</legend>
            <div className="mt-2 flex flex-wrap gap-4 text-sm">
              <label className="flex items-center gap-2"><input type="radio" name="reviews" value="keep" defaultChecked className="accent-leaf" />{t('admin.customers.reviewsKeep')}</label>
              <label className="flex items-center gap-2"><input type="radio" name="reviews" value="remove" className="accent-leaf" />{t('admin.customers.reviewsRemove')}</label>
            </div>
          </fieldset>
          <label className="flex items-start gap-2 text-sm font-medium">
            <input type="checkbox" name="confirm" value="yes" required className="mt-0.5 h-4 w-4 accent-cherry" />
            {t('admin.customers.confirmBox')}
          </label>
          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" disabled={busy} className="btn-primary bg-cherry hover:bg-cherry/90">{t('admin.customers.confirmDelete')}</button>
            <Link to={`/admin/customers?q=${encodeURIComponent(q)}`} className="text-sm font-semibold underline underline-offset-4">{t('admin.customers.cancel')}</Link>
          </div>
        </Form>
      )}
    </li>
  );
}
