import { data } from 'react-router';
import { ProductForm, type ProductFormResult } from '~/components/admin/product-form';
import { appContext } from '~/context';
import { readUpload } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { addProduct } from '~/modules/backoffice/index.server';
import { emptyProductForm, parseProductForm } from '~/modules/backoffice/product-form';
import { getT } from '~/modules/i18n/index.server';
import { useT } from '~/modules/i18n/react';
import type { Route } from './+types/add-product';

export async function loader({ context }: Route.LoaderArgs) {
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  return { title: getT(shopper.locale)('admin.meta.addTitle') };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireAdmin(context.get(shopperContext));
  const form = await readUpload(request);
  if (!form) return data<ProductFormResult>({ status: 'invalid', values: emptyProductForm, errors: { images: 'uploadTooLarge' } }, { status: 413 });
  try {
    const outcome = await addProduct(app, user, form);
    if (outcome.ok) return data<ProductFormResult>({ status: 'saved', id: outcome.id, name: String(form.get('name') ?? '').trim() });
    if (outcome.reason === 'invalid') {
      return data<ProductFormResult>({ status: 'invalid', values: outcome.values, errors: outcome.errors, fileName: outcome.fileName }, { status: 400 });
    }
    throw new Error('unexpected outcome');
  } catch (error) {
    app.log.error({ err: error }, 'adding a product failed');
    return data<ProductFormResult>({ status: 'failed', values: parseProductForm(form).values }, { status: 503 });
  }
}

export default function AddProductPage({ actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-3xl font-semibold md:text-4xl">{t('admin.productForm.addHeading')}</h1>
      <p className="mt-2 text-muted">{t('admin.productForm.addIntro')}</p>
      <div className="mt-8">
        <ProductForm mode="add" action="/add-product" values={emptyProductForm} result={actionData} />
      </div>
    </div>
  );
}
