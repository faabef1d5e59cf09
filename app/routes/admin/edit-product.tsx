import { useEffect } from 'react';
import { Link, data, useNavigate } from 'react-router';
import { ProductForm, type ProductFormResult } from '~/components/admin/product-form';
import { appContext } from '~/context';
import { readUpload } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { changeProduct } from '~/modules/backoffice/index.server';
import { emptyProductForm, parseProductForm, productFormValues } from '~/modules/backoffice/product-form';
import { getProductRecord, isProductId } from '~/modules/catalog/index.server';
import { productPriceHistory } from '~/modules/promotions/index.server';
import { PriceHistory } from '~/components/admin/price-history';
import { getT } from '~/modules/i18n/index.server';
import { useT } from '~/modules/i18n/react';
import type { Route } from './+types/edit-product';

/** The spec's edit redirect: home 1.5 s after a successful update. */
const HOME_AFTER_MS = 1500;

type Problem = 'invalidId' | 'notFound' | 'loadFailed';

export async function loader({ params, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const t = getT(shopper.locale);
  const problem = (kind: Problem, status: number) => data({ problem: kind, title: t(`admin.productForm.${kind}`), product: null }, { status });
  if (!isProductId(params.id)) return problem('invalidId', 400);
  try {
    const [record, history] = await Promise.all([getProductRecord(app.db, app.storage, params.id), productPriceHistory(app.db, params.id)]);
    if (!record) return problem('notFound', 404);
    return {
      problem: null,
      title: t('admin.meta.editTitle', { name: record.translations.en.name }),
      product: { id: record.id, values: productFormValues(record), images: record.images.map(({ key, image }) => ({ key, image })) },
      history,
    };
  } catch (error) {
    app.log.error({ err: error }, 'loading a product for editing failed');
    return problem('loadFailed', 503);
  }
}

/** The action's Refresh header reaches the document (a browser without JavaScript goes home by it). */
export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const refresh = actionHeaders.get('Refresh');
  return refresh ? { Refresh: refresh } : loaderHeaders;
};

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

export async function action({ request, params, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireAdmin(context.get(shopperContext));
  if (!isProductId(params.id)) return data<ProductFormResult>({ status: 'failed', values: emptyProductForm }, { status: 400 });
  const form = await readUpload(request);
  if (!form) return data<ProductFormResult>({ status: 'invalid', values: emptyProductForm, errors: { images: 'uploadTooLarge' } }, { status: 413 });
  try {
    const outcome = await changeProduct(app, user, params.id, form);
    if (outcome.ok) {
      // Without JavaScript the browser goes home by itself; with it, the page does (HOME_AFTER_MS).
      return data<ProductFormResult>({ status: 'saved', id: outcome.id, name: String(form.get('name') ?? '').trim() }, { headers: { Refresh: '1.5; url=/' } });
    }
    if (outcome.reason === 'not_found') return data<ProductFormResult>({ status: 'failed', values: parseProductForm(form).values }, { status: 404 });
    return data<ProductFormResult>({ status: 'invalid', values: outcome.values, errors: outcome.errors, fileName: outcome.fileName }, { status: 400 });
  } catch (error) {
    app.log.error({ err: error }, 'updating a product failed');
    return data<ProductFormResult>({ status: 'failed', values: parseProductForm(form).values }, { status: 503 });
  }
}

export default function EditProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const navigate = useNavigate();
  const saved = actionData?.status === 'saved';
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => navigate('/'), HOME_AFTER_MS);
    return () => clearTimeout(timer);
  }, [saved, navigate, actionData]);

  if (!loaderData.product) {
    return (
      <div className="mx-auto max-w-xl rounded-3xl bg-paper p-8 text-center ring-1 ring-sand">
        <h1 className="text-2xl font-semibold" data-testid="edit-problem">{loaderData.title}</h1>
        <Link to="/admin/products" className="btn-primary mt-6">{t('admin.productForm.backToProducts')}</Link>
      </div>
    );
  }
  const { product } = loaderData;
  return (
    <div className="mx-auto max-w-4xl">
      <p className="eyebrow">{t('admin.productForm.editHeading')}</p>
      <h1 className="mt-2 text-3xl font-semibold md:text-4xl">{product.values.name}</h1>
      <p className="mt-2 text-muted">
        {t('admin.productForm.editIntro')}{' '}
        <Link to={`/product/${product.id}`} className="font-medium text-leaf underline underline-offset-4">{t('admin.productForm.viewProduct')}</Link>
        {' · '}
        <Link to={`/admin/products/${product.id}/stock`} className="font-medium text-leaf underline underline-offset-4" data-testid="stock-page-link">{t('admin.productForm.stockLink')}</Link>
      </p>
      <div className="mt-8">
        <ProductForm key={product.id} mode="edit" action={`/edit-product/${product.id}`} values={product.values} images={product.images} result={actionData} />
      </div>
      {'history' in loaderData && <PriceHistory entries={loaderData.history} />}
    </div>
  );
}
