import { Trash2 } from 'lucide-react';
import { Form, Link, data, redirect } from 'react-router';
import { appContext } from '~/context';
import { field, readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { safeRedirect } from '~/lib/safe-redirect';
import { removeProduct } from '~/modules/backoffice/index.server';
import { getProductRecord, isProductId } from '~/modules/catalog/index.server';
import { getT } from '~/modules/i18n/index.server';
import { useT } from '~/modules/i18n/react';
import type { Route } from './+types/delete-product';

/** The confirmation page (Delete without JavaScript; with it the same question comes in a dialog). */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const record = isProductId(params.id) ? await getProductRecord(app.db, app.storage, params.id) : null;
  if (!record) throw data(null, { status: 404 });
  const name = record.translations.en.name;
  return {
    id: record.id,
    name,
    image: record.images[0]?.image ?? null,
    back: safeRedirect(url.searchParams.get('redirectTo'), '/admin/products'),
    title: getT(shopper.locale)('admin.meta.deleteTitle', { name }),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

export async function action({ request, params, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireAdmin(context.get(shopperContext));
  const form = await readForm(request);
  const back = safeRedirect(field(form, 'redirectTo'), '/admin/products');
  try {
    const outcome = await removeProduct(app, user, params.id);
    if (!outcome.ok) return data({ ok: false as const, error: 'notFound' }, { status: 404 });
    return redirect(afterDelete(back, params.id, outcome.name));
  } catch (error) {
    app.log.error({ err: error }, 'deleting a product failed');
    return data({ ok: false as const, error: 'failed' }, { status: 503 });
  }
}

/** Back where the owner was, unless that was the deleted product's own page; the owner's list says what went. */
function afterDelete(back: string, id: string, name: string): string {
  const path = back.split(/[?#]/)[0];
  if (path === `/product/${id}` || path === `/edit-product/${id}`) return '/';
  if (path === '/admin/products') {
    const url = new URL(back, 'http://kopi.invalid');
    url.searchParams.set('deleted', name);
    return url.pathname + url.search;
  }
  return back;
}

export default function DeleteProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { id, name, back } = loaderData;
  return (
    <div className="mx-auto max-w-xl rounded-3xl bg-paper p-8 ring-1 ring-sand">
      <p className="eyebrow">{t('admin.delete.heading')}</p>
      <h1 className="mt-2 text-2xl font-semibold">{t('manage.confirmTitle', { name })}</h1>
      <p className="mt-3 leading-relaxed text-roast-800">{t('manage.confirmText')}</p>
      {actionData && !actionData.ok && (
        <p role="alert" className="mt-4 rounded-xl bg-cherry-light px-4 py-3 text-sm font-medium text-cherry">
          {t('manage.deleteFailed')}
        </p>
      )}
      <Form method="post" action={`/admin/products/${id}/delete`} className="mt-6 flex flex-wrap justify-end gap-3">
        <input type="hidden" name="redirectTo" value={back} />
        <Link to={back} className="btn-ghost">{t('admin.delete.back')}</Link>
        <button type="submit" className="btn bg-cherry text-white hover:bg-cherry/90">
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          {t('manage.confirmDelete')}
        </button>
      </Form>
    </div>
  );
}
