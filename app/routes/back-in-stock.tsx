import { BellOff } from 'lucide-react';
import { Form, Link, data, useNavigation } from 'react-router';
import { cancelRestockAlert, findRestockAlert } from '~/modules/alerts/index.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useLocalePath, useT } from '~/modules/i18n/react';
import { field, readForm } from '~/http/body.server';
import type { Route } from './+types/back-in-stock';
import { appContext } from '~/context';
import { privatePageHeaders } from '~/http/private-page.server';
import { shopperContext } from '~/http/shopper.server';

/**
 * Where a back-in-stock mail's "stop" link leads: it says which coffee the notice is about and stops it with a
 * button (a POST: a mail scanner opening the link stops nothing).
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { locale } = context.get(shopperContext);
  const token = url.searchParams.get('token') ?? '';
  return {
    token,
    alert: await findRestockAlert(app.db, token, locale, app.config.publicUrl.href),
    meta: { title: `${getT(locale)('product.notify.page.title')} · Kopi` },
    messages: getMessages(locale, 'product'),
  };
}

/** The page holds a secret (the link's token): never stored by any cache, and never sent on as a referrer. */
export const headers: Route.HeadersFunction = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const form = await readForm(request);
  const stopped = await cancelRestockAlert(app.db, field(form, 'token'));
  return data({ stopped }, { status: stopped ? 200 : 404 });
}

export default function BackInStockPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalePath();
  const busy = useNavigation().state === 'submitting';
  const { alert, token } = loaderData;
  return (
    <div className="container-page flex justify-center py-12 md:py-20">
      <section className="w-full max-w-lg rounded-3xl bg-paper p-6 shadow-sm ring-1 ring-sand md:p-10" aria-labelledby="notice-title">
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-sand text-roast-600">
          <BellOff aria-hidden="true" className="h-7 w-7" />
        </span>
        <h1 id="notice-title" className="mt-5 text-3xl font-semibold">{t('product.notify.page.title')}</h1>
        {actionData?.stopped ? (
          <p role="status" className="mt-6 rounded-2xl bg-leaf-light px-4 py-3 text-leaf-dark">{t('product.notify.page.stopped')}</p>
        ) : !alert || actionData?.stopped === false ? (
          <p role="alert" className="mt-6 rounded-2xl bg-cherry-light px-4 py-3 text-cherry">{t('product.notify.page.unknown')}</p>
        ) : (
          <>
            {alert.name && <p className="mt-4 text-lg text-roast-800">{t('product.notify.page.about', { name: alert.name })}</p>}
            <Form method="post" className="mt-6">
              <input type="hidden" name="token" value={token} />
              <button type="submit" className="btn-primary w-full py-3" aria-disabled={busy || undefined}>
                {t('product.notify.page.stop')}
              </button>
            </Form>
          </>
        )}
        <Link to={path('/')} className="btn-ghost mt-4 w-full">{t('product.notify.page.back')}</Link>
      </section>
    </div>
  );
}
