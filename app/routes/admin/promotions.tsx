import { BadgePercent } from 'lucide-react';
import { useState } from 'react';
import { Form, data, useNavigation } from 'react-router';
import { appContext } from '~/context';
import { readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { SHOP_TIME_ZONE, formatDateTime, formatPrice } from '~/lib/format';
import { categories } from '~/modules/catalog/catalog.types';
import { listVariantPrices } from '~/modules/catalog/index.server';
import { type Locale, getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { type SaleListing, createCode, createSale, listCodes, listSales, parseCodeForm, parseSaleForm, stopCode, stopSale } from '~/modules/promotions/index.server';
import { type CodeFailure, CodesList, NewCode } from '~/components/admin/discount-codes';
import type { SaleField, SaleScope } from '~/modules/promotions/sale-form';
import { MAX_LABEL, MAX_PERCENT, saleScopes } from '~/modules/promotions/sale-form';
import type { Route } from './+types/promotions';

/** The catalogue as the sale form offers it: each product with its variants ("250 g, espresso — SKU"). */
async function catalogue(db: Parameters<typeof listVariantPrices>[0], locale: Locale) {
  const rows = await listVariantPrices(db, locale);
  const products: Array<{ id: string; name: string; variants: Array<{ id: string; label: string; sku: string; active: boolean }> }> = [];
  for (const row of rows) {
    const last = products.at(-1);
    const variant = { id: row.id, label: row.label, sku: row.sku, active: row.active };
    if (last?.id === row.productId) last.variants.push(variant);
    else products.push({ id: row.productId, name: row.name, variants: [variant] });
  }
  return products;
}

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const t = getT(shopper.locale);
  const products = await catalogue(app.db, shopper.locale);
  const productNames = new Map(products.map((p) => [p.id, p.name || t('product.unnamed')]));
  const variantNames = new Map(products.flatMap((p) => p.variants.map((v) => [v.id, `${[p.name || t('product.unnamed'), v.label].filter(Boolean).join(' — ')} (${v.sku})`] as const)));
  const names = async (scope: SaleScope, targets: string[]) =>
    new Map(targets.map((target) => [target, scope === 'category' ? t(`categories.${target}`) : ((scope === 'products' ? productNames : variantNames).get(target) ?? t('admin.promotions.errors.notFound'))]));
  const [sales, codes] = await Promise.all([listSales(app.db, names), listCodes(app.db, async (scope, targets) => names(scope === 'categories' ? 'category' : 'products', targets))]);
  return { title: t('admin.meta.promotionsTitle'), sales, codes, products };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result =
  | { ok: true; intent: 'create' | 'stop' | 'delete' | 'create-code' | 'stop-code' | 'delete-code' }
  | ({ ok: false; intent: 'create-code' } & CodeFailure)
  | { ok: false; intent: 'create'; errors: Partial<Record<SaleField | 'form', string>>; fields: Record<string, string | string[]> }
  | { ok: false; intent: 'stop' | 'stop-code'; error: string };

const FIELDS = ['scope', 'kind', 'percent', 'price', 'pricePln', 'startsAt', 'endsAt', 'labelEn', 'labelPl'] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireAdmin(shopper);
  const form = await readForm(request);
  if (form.get('intent') === 'create-code') return saveCode(app, user, form);
  if (form.get('intent') === 'stop-code') {
    const outcome = await stopCode(app.db, user, String(form.get('id') ?? '').slice(0, 64));
    if (!outcome.ok) return data<Result>({ ok: false, intent: 'stop-code', error: `admin.promotions.codes.errors.${outcome.error}` }, { status: outcome.error === 'notFound' ? 404 : 409 });
    return data<Result>({ ok: true, intent: form.get('was') === 'unused' ? 'delete-code' : 'stop-code' });
  }
  if (form.get('intent') === 'stop') {
    const id = String(form.get('id') ?? '').slice(0, 64);
    const outcome = await stopSale(app.db, user, id);
    if (!outcome.ok) return data<Result>({ ok: false, intent: 'stop', error: `admin.promotions.errors.${outcome.error}` }, { status: outcome.error === 'notFound' ? 404 : 409 });
    return data<Result>({ ok: true, intent: form.get('was') === 'scheduled' ? 'delete' : 'stop' });
  }
  const fields = {
    ...Object.fromEntries(FIELDS.map((name) => [name, String(form.get(name) ?? '').slice(0, 100)])),
    product: form.getAll('product').map(String).slice(0, 500),
    variant: form.getAll('variant').map(String).slice(0, 500),
    category: form.getAll('category').map(String).slice(0, 10),
  };
  const parsed = parseSaleForm(form, SHOP_TIME_ZONE);
  if (!parsed.ok) return data<Result>({ ok: false, intent: 'create', errors: parsed.errors, fields }, { status: 400 });
  const outcome = await createSale(app.db, user, parsed.sale);
  if (!outcome.ok) {
    const field = outcome.error === 'notLower' ? 'price' : 'targets';
    return data<Result>({ ok: false, intent: 'create', errors: { [field]: `admin.promotions.errors.${outcome.error}` }, fields }, { status: 409 });
  }
  return data<Result>({ ok: true, intent: 'create' });
}

const CODE_FIELDS = ['code', 'kind', 'percent', 'amount', 'amountPln', 'minimum', 'minimumPln', 'startsAt', 'endsAt', 'maxUses', 'maxPerCustomer', 'scope', 'withSales', 'advertised'] as const;

async function saveCode(app: { db: Parameters<typeof createCode>[0] }, user: { id: string; email: string }, form: FormData) {
  const fields = {
    ...Object.fromEntries(CODE_FIELDS.map((name) => [name, String(form.get(name) ?? '').slice(0, 100)])),
    category: form.getAll('category').map(String).slice(0, 10),
    product: form.getAll('product').map(String).slice(0, 500),
  };
  const parsed = parseCodeForm(form, SHOP_TIME_ZONE);
  if (!parsed.ok) return data<Result>({ ok: false, intent: 'create-code', errors: parsed.errors, fields }, { status: 400 });
  const outcome = await createCode(app.db, user, parsed.code);
  if (!outcome.ok) return data<Result>({ ok: false, intent: 'create-code', errors: outcome.error === 'targets' ? { targets: 'admin.promotions.codes.errors.targets' } : { code: `admin.promotions.codes.errors.${outcome.error}` }, fields }, { status: 409 });
  return data<Result>({ ok: true, intent: 'create-code' });
}

const SAVED: Record<string, string> = {
  create: 'admin.promotions.created',
  delete: 'admin.promotions.deleted',
  stop: 'admin.promotions.stopped',
  'create-code': 'admin.promotions.codes.created',
  'stop-code': 'admin.promotions.codes.stopped',
  'delete-code': 'admin.promotions.codes.deleted',
};

export default function AdminPromotionsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const { sales, codes, products } = loaderData;
  const result = actionData as Result | undefined;
  const groups = (['running', 'scheduled', 'ended'] as const).map((status) => ({ status, sales: sales.filter((s) => s.status === status) }));

  return (
    <div className="grid gap-6">
      <div>
        <p className="eyebrow">{t('admin.promotions.eyebrow')}</p>
        <h1 className="mt-2 text-3xl font-semibold md:text-4xl">{t('admin.promotions.heading')}</h1>
        <p className="mt-2 max-w-3xl text-muted">{t('admin.promotions.intro')}</p>
      </div>

      <div aria-live="polite">
        {result?.ok && (
          <p role="status" className="rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20" data-testid="promotions-saved">
            {t(SAVED[result.intent])}
          </p>
        )}
        {result && !result.ok && (
          <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20" data-testid="promotions-error">
            {t('error' in result ? result.error : 'admin.promotions.errors.summary')}
          </p>
        )}
      </div>

      {sales.length === 0 ? (
        <p className="rounded-3xl bg-paper p-6 text-muted ring-1 ring-sand" data-testid="no-sales">{t('admin.promotions.none')}</p>
      ) : (
        groups.map(({ status, sales: group }) => (
          <section key={status} aria-labelledby={`${status}-heading`} className="rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid={`sales-${status}`}>
            <h2 id={`${status}-heading`} className="text-lg font-semibold">
              {t(`admin.promotions.${status}`)} <span className="text-muted tabular-nums">({group.length})</span>
            </h2>
            {group.length === 0 ? (
              <p className="mt-2 text-sm text-muted">{t('admin.promotions.noneHere')}</p>
            ) : (
              <ul className="mt-3 divide-y divide-sand">
                {group.map((sale) => <SaleRow key={sale.id} sale={sale} />)}
              </ul>
            )}
          </section>
        ))
      )}

      <CodesList codes={codes} />
      <NewSale products={products} result={result && !result.ok && result.intent === 'create' ? result : undefined} />
      <NewCode products={products} result={result && !result.ok && result.intent === 'create-code' ? result : undefined} />
    </div>
  );
}

function SaleRow({ sale }: { sale: SaleListing }) {
  const { t, locale } = useI18n();
  const busy = useNavigation().state === 'submitting';
  const label = (locale === 'pl' ? sale.label.pl || sale.label.en : sale.label.en || sale.label.pl) || '';
  const amount = sale.kind === 'percent' ? t('admin.promotions.percentOff', { percent: sale.percent ?? 0 }) : t('admin.promotions.newPrice', { price: formatPrice(sale.prices!.EUR, 'EUR', locale), pricePln: formatPrice(sale.prices!.PLN, 'PLN', locale) });
  const name = label ? `${label} (${amount})` : amount;
  const shown = sale.targetNames.slice(0, 3).join(', ');
  const revenue = (['EUR', 'PLN'] as const).filter((c) => sale.revenue[c] > 0).map((c) => formatPrice(sale.revenue[c], c, locale)).join(' + ');
  return (
    <li className="flex flex-wrap items-start justify-between gap-4 py-4" data-testid="sale">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-semibold">
          <BadgePercent aria-hidden="true" className="h-4 w-4 text-cherry" />
          {name}
        </p>
        <p className="mt-1 text-sm">
          {shown}
          {sale.targetNames.length > 3 && ` ${t('admin.promotions.more', { count: sale.targetNames.length - 3 })}`}
          <span className="text-muted"> · {t('admin.promotions.variants', { count: sale.variants })}</span>
        </p>
        <p className="mt-1 text-sm text-muted">{t('admin.promotions.when', { from: formatDateTime(sale.startsAt, locale), to: formatDateTime(sale.endsAt, locale) })}</p>
        <p className="mt-1 text-sm text-muted" data-testid="sale-results">
          {t('admin.promotions.orders', { count: sale.orders })}
          {revenue && ` · ${t('admin.promotions.revenue', { amount: revenue })}`}
        </p>
      </div>
      {sale.status !== 'ended' && (
        <Form method="post">
          <input type="hidden" name="intent" value="stop" />
          <input type="hidden" name="id" value={sale.id} />
          <input type="hidden" name="was" value={sale.status} />
          <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={busy} aria-label={t(sale.status === 'running' ? 'admin.promotions.endLabel' : 'admin.promotions.deleteLabel', { name })}>
            {t(sale.status === 'running' ? 'admin.promotions.endNow' : 'admin.promotions.delete')}
          </button>
        </Form>
      )}
    </li>
  );
}

type Failed = Extract<Result, { ok: false; intent: 'create' }>;

function NewSale({ products, result }: { products: Route.ComponentProps['loaderData']['products']; result: Failed | undefined }) {
  const { t } = useI18n();
  const busy = useNavigation().state === 'submitting';
  const value = (name: string) => {
    const field = result?.fields[name];
    return typeof field === 'string' ? field : '';
  };
  const chosen = (name: string, id: string) => (Array.isArray(result?.fields[name]) ? (result.fields[name] as string[]).includes(id) : false);
  const [scope, setScope] = useState<SaleScope>(saleScopes.find((s) => s === value('scope')) ?? 'products');
  const [kind, setKind] = useState(value('kind') === 'price' ? 'price' : 'percent');
  const invalid = (name: SaleField) => (result?.errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${name}-error` } : {});
  const error = (name: SaleField) => (result?.errors[name] ? <p id={`${name}-error`} className="field-error">{t(result.errors[name]!)}</p> : null);

  return (
    <section aria-labelledby="new-sale-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
      <h2 id="new-sale-heading" className="text-lg font-semibold">{t('admin.promotions.new')}</h2>
      <Form method="post" className="mt-4 grid gap-6" data-testid="new-sale">
        <input type="hidden" name="intent" value="create" />
        <fieldset>
          <legend className="field-label">{t('admin.promotions.scope')}</legend>
          <div className="mt-1 flex flex-wrap gap-2">
            {saleScopes.map((s) => (
              <label key={s} className="flex items-center gap-2 rounded-full px-3 py-2 text-sm ring-1 ring-sand has-[:checked]:bg-roast has-[:checked]:text-cream has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-leaf">
                <input type="radio" name="scope" value={s} checked={scope === s} onChange={() => setScope(s)} className="accent-leaf" />
                {t(`admin.promotions.scopes.${s}`)}
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset>
          <legend className="field-label">{t(scope === 'products' ? 'admin.promotions.chooseProducts' : scope === 'variants' ? 'admin.promotions.chooseVariants' : 'admin.promotions.chooseCategory')}</legend>
          <div className="mt-1 max-h-80 overflow-y-auto rounded-2xl p-3 ring-1 ring-sand" {...invalid('targets')} data-testid="sale-targets">
            {scope === 'category' &&
              categories.map((c) => (
                <label key={c} className="flex items-center gap-2 py-1 text-sm">
                  <input type="radio" name="category" value={c} defaultChecked={chosen('category', c)} className="accent-leaf" />
                  {t(`categories.${c}`)}
                </label>
              ))}
            {scope === 'products' &&
              products.map((p) => (
                <label key={p.id} className="flex items-center gap-2 py-1 text-sm">
                  <input type="checkbox" name="product" value={p.id} defaultChecked={chosen('product', p.id)} className="h-4 w-4 accent-leaf" />
                  {p.name || t('product.unnamed')}
                </label>
              ))}
            {scope === 'variants' &&
              products.map((p) => (
                <fieldset key={p.id} className="py-1">
                  <legend className="text-sm font-semibold">{p.name || t('product.unnamed')}</legend>
                  <div className="grid gap-x-4 sm:grid-cols-2">
                    {p.variants.map((v) => (
                      <label key={v.id} className="flex items-center gap-2 py-0.5 text-sm">
                        <input type={kind === 'price' ? 'radio' : 'checkbox'} name="variant" value={v.id} defaultChecked={chosen('variant', v.id)} className="h-4 w-4 accent-leaf" />
                        <span>{v.label || p.name} <span className="text-xs text-muted">{v.sku}</span></span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              ))}
          </div>
          {error('targets')}
        </fieldset>

        <div className="grid gap-4 md:grid-cols-2">
          <fieldset>
            <legend className="field-label">{t('admin.promotions.kind')}</legend>
            <div className="mt-1 flex flex-wrap gap-2">
              {(['percent', 'price'] as const).map((k) => (
                <label key={k} className="flex items-center gap-2 rounded-full px-3 py-2 text-sm ring-1 ring-sand has-[:checked]:bg-roast has-[:checked]:text-cream has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-leaf">
                  <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => { setKind(k); if (k === 'price') setScope('variants'); }} className="accent-leaf" />
                  {t(`admin.promotions.kinds.${k}`)}
                </label>
              ))}
            </div>
          </fieldset>
          {kind === 'percent' ? (
            <div>
              <label htmlFor="percent" className="field-label">{t('admin.promotions.percent')}</label>
              <input id="percent" name="percent" type="number" min={1} max={MAX_PERCENT} step={1} required defaultValue={value('percent')} className="field-input max-w-40" {...invalid('percent')} />
              {error('percent')}
            </div>
          ) : (
            <div className="grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor="price" className="field-label">{t('admin.promotions.price')}</label>
                <input id="price" name="price" inputMode="decimal" required defaultValue={value('price')} className="field-input" {...invalid('price')} />
                {error('price')}
              </div>
              <div>
                <label htmlFor="pricePln" className="field-label">{t('admin.promotions.pricePln')}</label>
                <input id="pricePln" name="pricePln" inputMode="decimal" defaultValue={value('pricePln')} className="field-input" aria-describedby="pricePln-hint" {...invalid('pricePln')} />
                <p id="pricePln-hint" className="mt-1 text-xs text-muted">{t('admin.promotions.pricePlnHint')}</p>
                {error('pricePln')}
              </div>
            </div>
          )}
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="startsAt" className="field-label">{t('admin.promotions.startsAt')}</label>
            <input id="startsAt" name="startsAt" type="datetime-local" defaultValue={value('startsAt')} className="field-input" aria-describedby="startsAt-hint" {...invalid('startsAt')} />
            <p id="startsAt-hint" className="mt-1 text-xs text-muted">{t('admin.promotions.startsAtHint')} {t('admin.promotions.timeZone')}</p>
            {error('startsAt')}
          </div>
          <div>
            <label htmlFor="endsAt" className="field-label">{t('admin.promotions.endsAt')}</label>
            <input id="endsAt" name="endsAt" type="datetime-local" required defaultValue={value('endsAt')} className="field-input" {...invalid('endsAt')} />
            {error('endsAt')}
          </div>
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          {(['labelEn', 'labelPl'] as const).map((name) => (
            <div key={name}>
              <label htmlFor={name} className="field-label">{t(`admin.promotions.${name}`)}</label>
              <input id={name} name={name} maxLength={MAX_LABEL} defaultValue={value(name)} className="field-input" aria-describedby={`${name}-hint`} {...invalid(name)} />
              <p id={`${name}-hint`} className="mt-1 text-xs text-muted">{t('admin.promotions.labelHint')}</p>
              {error(name)}
            </div>
          ))}
        </div>

        <div>
          <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy} data-testid="save-sale">{t('admin.promotions.save')}</button>
        </div>
      </Form>
    </section>
  );
}
