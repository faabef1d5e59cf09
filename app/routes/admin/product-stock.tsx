import { ArrowLeft, Boxes, Flame, Pencil, Scale } from 'lucide-react';
import { Form, Link, data, useNavigation } from 'react-router';
import { appContext } from '~/context';
import { readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { SHOP_TIME_ZONE, formatDate, formatDateTime, formatNumber } from '~/lib/format';
import { addDays, shopDayOf } from '~/lib/shop-days';
import { changeStock, type StockChangeOutcome } from '~/modules/backoffice/index.server';
import { getProductRecord, isProductId } from '~/modules/catalog/index.server';
import { variantLabel } from '~/modules/catalog/variants';
import { orderLabel } from '~/modules/orders/orders.types';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import type { Locale, T } from '~/modules/i18n/translate';
import { getStockOverview } from '~/modules/stock/index.server';
import { MAX_BATCH_AGE_DAYS, MAX_NOTE_LENGTH, MAX_SELL_WITHIN_DAYS, type StockFormError, kilogramsOf } from '~/modules/stock/stock-form';
import { correctionReasons, MAX_UNITS, stockModes, stockState } from '~/modules/stock/stock.types';
import type { Route } from './+types/product-stock';

export async function loader({ params, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const record = isProductId(params.id) ? await getProductRecord(app.db, app.storage, params.id) : null;
  if (!record) throw data(null, { status: 404 });
  const overview = await getStockOverview(app.db, record.id);
  const name = (shopper.locale === 'pl' && record.translations.pl?.name) || record.translations.en.name;
  return {
    title: getT(shopper.locale)('admin.meta.stockTitle', { name }),
    product: { id: record.id, name, options: record.options, variants: record.variants },
    overview,
    today: shopDayOf(new Date(), SHOP_TIME_ZONE),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result = { ok: true; intent: string; notified: number } | { ok: false; intent: string; errors: Partial<Record<string, StockFormError>>; fields: Record<string, string> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireAdmin(context.get(shopperContext));
  const form = await readForm(request);
  const fields = Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string').map(([k, v]) => [k, v.slice(0, 1000)]));
  if (!isProductId(params.id)) throw data(null, { status: 404 });
  let outcome: StockChangeOutcome;
  try {
    outcome = await changeStock({ db: app.db, log: app.log, publicUrl: app.config.publicUrl.href, kickMail: app.kickMail }, user, params.id, fields);
  } catch (error) {
    app.log.error({ err: error }, 'changing stock failed');
    return data<Result>({ ok: false, intent: fields.intent ?? '', errors: { form: 'failed' }, fields }, { status: 503 });
  }
  if (outcome.ok) return data<Result>({ ok: true, intent: outcome.intent, notified: outcome.notified });
  if (outcome.reason === 'not_found') throw data(null, { status: 404 });
  return data<Result>({ ok: false, intent: outcome.intent, errors: outcome.errors, fields }, { status: 400 });
}

const kg = (grams: number, locale: Locale) => `${formatNumber(grams / 1000, locale)} kg`;

export default function ProductStockPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const { product, overview, today } = loaderData;
  const result = actionData as Result | undefined;
  const { settings, stock, batches, reserved, ledger } = overview;
  const labelOf = (variantId: string | null) => {
    const variant = product.variants.find((v) => v.id === variantId);
    return variant ? variantLabel(variant, product.options, t, locale) || variant.sku : '';
  };
  const failedHere = (intent: string, idField?: string, id?: string) =>
    result && !result.ok && result.intent === intent && (idField === undefined || result.fields[idField] === id) ? result : undefined;

  return (
    <div className="grid gap-6">
      <Link to="/admin/products" className="inline-flex w-fit items-center gap-2 text-sm font-medium text-leaf hover:underline">
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {t('admin.productForm.backToProducts')}
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="eyebrow">{t('admin.stock.eyebrow')}</p>
          <h1 className="mt-2 text-3xl font-semibold md:text-4xl">{product.name}</h1>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={`/edit-product/${product.id}`} className="btn-outline px-3 py-1.5 text-xs">
            <Pencil aria-hidden="true" className="h-3.5 w-3.5" />
            {t('admin.stock.editProduct')}
          </Link>
          <Link to={`/product/${product.id}`} className="btn-ghost px-3 py-1.5 text-xs">{t('admin.productForm.viewProduct')}</Link>
        </div>
      </div>

      <div aria-live="polite">
        {result?.ok && (
          <p role="status" className="rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20" data-testid="stock-saved">
            {t(`admin.stock.saved.${result.intent}`)}
            {result.notified > 0 && ` ${t('admin.stock.notified', { count: result.notified })}`}
          </p>
        )}
        {result && !result.ok && (
          <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20" data-testid="stock-error">
            {result.errors.form
              ? t('admin.stock.errors.failed')
              : result.errors.batchId || result.errors.variantId
                ? t('admin.stock.errors.notFound')
                : t('admin.stock.errors.summary')}
          </p>
        )}
      </div>

      <section aria-labelledby="stock-now" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="stock-now" className="text-lg font-semibold">{t('admin.stock.now')}</h2>
        {stock.mode === 'untracked' ? (
          <p className="mt-3 text-sm text-roast-800">{t('admin.stock.untrackedNow')}</p>
        ) : (
          <>
            <p className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm text-roast-800">
              {stock.mode === 'batches' && (
                <span className="inline-flex items-center gap-1.5" data-testid="stock-grams">
                  <Scale aria-hidden="true" className="h-4 w-4 text-leaf" />
                  {t('admin.stock.available', { weight: kg(stock.grams ?? 0, locale) })}
                </span>
              )}
              {stock.roastedOn && (
                <span className="inline-flex items-center gap-1.5" data-testid="stock-roasted-on">
                  <Flame aria-hidden="true" className="h-4 w-4 text-leaf" />
                  {t('admin.stock.shipsFrom', { date: formatDate(stock.roastedOn, locale) })}
                </span>
              )}
              {reserved.orders > 0 && (
                <span data-testid="stock-reserved">
                  {t('admin.stock.reserved', { count: reserved.orders, amount: stock.mode === 'batches' ? kg(reserved.grams, locale) : formatNumber(reserved.units, locale) })}
                </span>
              )}
            </p>
            <div className="relative mt-4 overflow-x-auto">
              <table className="w-full min-w-[30rem] text-left text-sm" data-testid="stock-variants">
                <thead className="text-xs tracking-wide text-muted uppercase">
                  <tr>
                    <th scope="col" className="py-2">{t('admin.stock.variant')}</th>
                    <th scope="col" className="py-2 pl-3">SKU</th>
                    <th scope="col" className="py-2 pl-3 text-right">{t(stock.mode === 'batches' ? 'admin.stock.bagsLeft' : 'admin.stock.unitsLeft')}</th>
                    <th scope="col" className="py-2 pl-3">{t('admin.stock.state')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-sand">
                  {product.variants.map((variant) => {
                    const left = stock.variants[variant.id] ?? null;
                    const state = stockState(left);
                    return (
                      <tr key={variant.id} data-testid="stock-variant">
                        <th scope="row" className="py-2 font-medium">
                          {labelOf(variant.id) || product.name}
                          {!variant.active && <span className="ml-2 text-xs font-normal text-muted">{t('admin.stock.offSale')}</span>}
                        </th>
                        <td className="py-2 pl-3 font-mono text-xs text-muted">{variant.sku}</td>
                        <td className="py-2 pl-3 text-right font-semibold tabular-nums">{left === null ? '—' : formatNumber(left, locale)}</td>
                        <td className={`py-2 pl-3 font-medium ${state === 'soldOut' ? 'text-cherry' : state === 'low' ? 'text-roast' : 'text-leaf-dark'}`}>
                          {left === null ? t('admin.stock.noWeight') : state === 'low' ? t('admin.stock.low') : t(`product.${state === 'soldOut' ? 'soldOut' : 'stock.inStock'}`)}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <ModeForm settings={settings} busy={busy} failed={failedHere('mode')} />
        {stock.mode === 'batches' && <BatchForm today={today} busy={busy} failed={failedHere('batch')} />}
      </div>

      {stock.mode === 'batches' && (
        <section aria-labelledby="stock-batches" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="stock-batches" className="text-lg font-semibold">{t('admin.stock.batches')}</h2>
          {batches.length === 0 ? (
            <p className="mt-3 text-sm text-muted">{t('admin.stock.noBatches')}</p>
          ) : (
            <ul className="mt-4 divide-y divide-sand" data-testid="stock-batches">
              {batches.map((batch) => (
                <li key={batch.id} className="grid gap-3 py-3 sm:grid-cols-[1fr_auto] sm:items-start" data-testid="stock-batch" data-grams-left={batch.gramsLeft}>
                  <div className="text-sm">
                    <p className="font-semibold">{t('admin.stock.roastedOn', { date: formatDate(batch.roastedOn, locale) })}</p>
                    <p className="text-roast-800 tabular-nums">
                      {t('admin.stock.batchLeft', { left: kg(batch.gramsLeft, locale), roasted: kg(batch.gramsRoasted, locale) })}
                      {!batch.sellable && batch.gramsLeft > 0 && <span className="ml-2 rounded-full bg-gold/20 px-2 py-0.5 text-xs font-semibold">{t('admin.stock.tooOld')}</span>}
                    </p>
                    {batch.note && <p className="text-muted">{batch.note}</p>}
                  </div>
                  <CorrectForm intent="correct-batch" idField="batchId" id={batch.id} busy={busy} failed={failedHere('correct-batch', 'batchId', batch.id)}
                    amount={{ name: 'kilogramsLeft', label: t('admin.stock.kilogramsLeft'), value: kilogramsOf(batch.gramsLeft), inputMode: 'decimal', pattern: '\\d{1,7}([.,]\\d{1,3})?' }} />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {stock.mode === 'units' && (
        <section aria-labelledby="stock-units" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="stock-units" className="text-lg font-semibold">{t('admin.stock.countHeading')}</h2>
          <p className="mt-1 text-sm text-muted">{t('admin.stock.countIntro')}</p>
          <ul className="mt-4 divide-y divide-sand">
            {product.variants.map((variant) => (
              <li key={variant.id} className="grid gap-3 py-3 sm:grid-cols-[1fr_auto] sm:items-start" data-testid="stock-count">
                <p className="text-sm">
                  <span className="font-semibold">{labelOf(variant.id) || product.name}</span>
                  <span className="block text-roast-800 tabular-nums">{t('admin.stock.counted', { count: overview.units[variant.id] ?? 0 })}</span>
                </p>
                <CorrectForm intent="correct-units" idField="variantId" id={variant.id} busy={busy} failed={failedHere('correct-units', 'variantId', variant.id)}
                  amount={{ name: 'units', label: t('admin.stock.unitsCounted'), value: String(overview.units[variant.id] ?? 0), inputMode: 'numeric', pattern: '\\d{1,6}', max: MAX_UNITS }} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="stock-ledger" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="stock-ledger" className="text-lg font-semibold">{t('admin.stock.ledger')}</h2>
        <p className="mt-1 text-sm text-muted">{t('admin.stock.ledgerIntro')}</p>
        {ledger.length === 0 ? (
          <p className="mt-3 text-sm text-muted">{t('admin.stock.ledgerEmpty')}</p>
        ) : (
          <div className="relative mt-4 overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm" data-testid="stock-ledger">
              <thead className="text-xs tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="py-2">{t('admin.activity.when')}</th>
                  <th scope="col" className="py-2 pl-3">{t('admin.activity.what')}</th>
                  <th scope="col" className="py-2 pl-3 text-right">{t('admin.stock.change')}</th>
                  <th scope="col" className="py-2 pl-3">{t('admin.activity.who')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-sand">
                {ledger.map((m) => (
                  <tr key={m.id} className="align-top" data-testid="ledger-row">
                    <td className="py-2 whitespace-nowrap text-roast-600"><time dateTime={m.at}>{formatDateTime(m.at, locale)}</time></td>
                    <td className="py-2 pl-3">
                      {movementText(m, t)}
                      {m.orderId && <> · <Link to={`/admin/orders/${m.orderId}`} className="font-medium text-leaf hover:underline">{t('orders.label', { label: orderLabel(m.orderId) })}</Link></>}
                      {m.variantId && labelOf(m.variantId) && <span className="block text-xs text-muted">{labelOf(m.variantId)}</span>}
                      {m.note && <span className="block text-xs text-muted">{m.note}</span>}
                    </td>
                    <td className={`py-2 pl-3 text-right font-semibold whitespace-nowrap tabular-nums ${(m.grams ?? m.units ?? 0) < 0 ? 'text-roast-600' : 'text-leaf-dark'}`}>
                      {m.grams !== null ? `${m.grams > 0 ? '+' : ''}${kg(m.grams, locale)}` : m.units !== null ? `${m.units > 0 ? '+' : ''}${formatNumber(m.units, locale)}` : ''}
                    </td>
                    <td className="py-2 pl-3 break-all text-roast-600">{m.actor ?? t('admin.stock.shop')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );

  function movementText(m: { kind: string; reason: string | null }, t: T): string {
    const kind = t(`admin.stock.kinds.${m.kind}`);
    return m.reason ? `${kind} (${t(`admin.stock.reasons.${m.reason}`)})` : kind;
  }
}

function FieldError({ id, error }: { id: string; error?: StockFormError }) {
  const { t } = useI18n();
  if (!error) return null;
  return <p id={id} className="mt-1 text-sm font-medium text-cherry">{t(`admin.stock.errors.${error}`, { max: MAX_BATCH_AGE_DAYS })}</p>;
}

type Failed = Extract<Result, { ok: false }> | undefined;

function ModeForm({ settings, busy, failed }: { settings: { mode: string; sellWithinDays: number | null }; busy: boolean; failed: Failed }) {
  const { t } = useI18n();
  const mode = failed?.fields.mode ?? settings.mode;
  return (
    <section aria-labelledby="stock-mode" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
      <h2 id="stock-mode" className="text-lg font-semibold">{t('admin.stock.modeHeading')}</h2>
      <Form method="post" className="mt-4 grid gap-4" data-testid="stock-mode-form">
        <input type="hidden" name="intent" value="mode" />
        <fieldset aria-describedby={failed?.errors.mode ? 'mode-error' : undefined}>
          <legend className="sr-only">{t('admin.stock.modeHeading')}</legend>
          <div className="grid gap-2">
            {stockModes.map((m) => (
              <label key={m} className="flex cursor-pointer items-start gap-3 rounded-2xl p-3 ring-1 ring-sand has-[:checked]:bg-leaf-light/60 has-[:checked]:ring-leaf/40">
                <input type="radio" name="mode" value={m} defaultChecked={mode === m} className="mt-1 accent-leaf" />
                <span className="text-sm">
                  <span className="block font-semibold">{t(`admin.stock.modes.${m}`)}</span>
                  <span className="block text-muted">{t(`admin.stock.modeHints.${m}`)}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="mode-error" error={failed?.errors.mode} />
        </fieldset>
        <div>
          <label htmlFor="sellWithinDays" className="field-label">{t('admin.stock.sellWithinDays')}</label>
          <input
            id="sellWithinDays"
            name="sellWithinDays"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_SELL_WITHIN_DAYS}
            defaultValue={failed?.fields.sellWithinDays ?? settings.sellWithinDays ?? ''}
            aria-describedby={`sellWithinDays-hint${failed?.errors.sellWithinDays ? ' sellWithinDays-error' : ''}`}
            aria-invalid={failed?.errors.sellWithinDays ? true : undefined}
            className="field-input max-w-40"
          />
          <p id="sellWithinDays-hint" className="mt-1 text-xs text-muted">{t('admin.stock.sellWithinHint')}</p>
          <FieldError id="sellWithinDays-error" error={failed?.errors.sellWithinDays} />
        </div>
        <button type="submit" className="btn-primary w-fit" disabled={busy}>{t('admin.stock.saveMode')}</button>
      </Form>
    </section>
  );
}

function BatchForm({ today, busy, failed }: { today: string; busy: boolean; failed: Failed }) {
  const { t } = useI18n();
  const invalid = (name: string) => (failed?.errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${name}-error` } : {});
  return (
    <section aria-labelledby="stock-add-batch" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
      <h2 id="stock-add-batch" className="flex items-center gap-2 text-lg font-semibold">
        <Boxes aria-hidden="true" className="h-5 w-5 text-leaf" />
        {t('admin.stock.addBatch')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('admin.stock.addBatchIntro')}</p>
      <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" data-testid="stock-batch-form">
        <input type="hidden" name="intent" value="batch" />
        <div>
          <label htmlFor="roastedOn" className="field-label">{t('admin.stock.roastedOnLabel')}</label>
          <input id="roastedOn" name="roastedOn" type="date" required max={today} min={addDays(today, -MAX_BATCH_AGE_DAYS)} defaultValue={failed?.fields.roastedOn ?? today} className="field-input" {...invalid('roastedOn')} />
          <FieldError id="roastedOn-error" error={failed?.errors.roastedOn} />
        </div>
        <div>
          <label htmlFor="kilograms" className="field-label">{t('admin.stock.kilograms')}</label>
          <input id="kilograms" name="kilograms" required inputMode="decimal" pattern="\d{1,7}([.,]\d{1,3})?" autoComplete="off" defaultValue={failed?.fields.kilograms ?? ''} className="field-input" {...invalid('kilograms')} />
          <FieldError id="kilograms-error" error={failed?.errors.kilograms} />
        </div>
        <div className="sm:col-span-2">
          <label htmlFor="batch-note" className="field-label">{t('admin.stock.noteOptional')}</label>
          <input id="batch-note" name="note" maxLength={MAX_NOTE_LENGTH} autoComplete="off" defaultValue={failed?.fields.note ?? ''} className="field-input" {...invalid('note')} />
          <FieldError id="note-error" error={failed?.errors.note} />
        </div>
        <button type="submit" className="btn-primary w-fit" disabled={busy}>{t('admin.stock.addBatchButton')}</button>
      </Form>
    </section>
  );
}

type Amount = { name: string; label: string; value: string; inputMode: 'decimal' | 'numeric'; pattern: string; max?: number };

/** "Correct": what is left now, as counted or weighed, and why. */
function CorrectForm({ intent, idField, id, amount, busy, failed }: { intent: string; idField: string; id: string; amount: Amount; busy: boolean; failed: Failed }) {
  const { t } = useI18n();
  const prefix = `${intent}-${id}`;
  const invalid = (name: string) => (failed?.errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${prefix}-${name}-error` } : {});
  return (
    <details className="group text-sm sm:w-80" open={failed !== undefined}>
      <summary className="cursor-pointer rounded-full font-semibold text-leaf hover:underline">{t('admin.stock.correct')}</summary>
      <Form method="post" className="mt-3 grid gap-3 rounded-2xl bg-cream/60 p-4 ring-1 ring-sand">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name={idField} value={id} />
        {failed?.errors[idField] && <FieldError id={`${prefix}-${idField}-error`} error={failed.errors[idField]} />}
        <div>
          <label htmlFor={`${prefix}-${amount.name}`} className="field-label">{amount.label}</label>
          <input id={`${prefix}-${amount.name}`} name={amount.name} required inputMode={amount.inputMode} pattern={amount.pattern} autoComplete="off" defaultValue={failed?.fields[amount.name] ?? amount.value} className="field-input" {...invalid(amount.name)} />
          <FieldError id={`${prefix}-${amount.name}-error`} error={failed?.errors[amount.name]} />
        </div>
        <div>
          <label htmlFor={`${prefix}-reason`} className="field-label">{t('admin.stock.reason')}</label>
          <select id={`${prefix}-reason`} name="reason" required defaultValue={failed?.fields.reason ?? 'count'} className="field-input" {...invalid('reason')}>
            {correctionReasons.map((r) => <option key={r} value={r}>{t(`admin.stock.reasons.${r}`)}</option>)}
          </select>
          <FieldError id={`${prefix}-reason-error`} error={failed?.errors.reason} />
        </div>
        <div>
          <label htmlFor={`${prefix}-note`} className="field-label">{t('admin.stock.noteOptional')}</label>
          <input id={`${prefix}-note`} name="note" maxLength={MAX_NOTE_LENGTH} autoComplete="off" defaultValue={failed?.fields.note ?? ''} className="field-input" {...invalid('note')} />
          <FieldError id={`${prefix}-note-error`} error={failed?.errors.note} />
        </div>
        <button type="submit" className="btn-outline w-fit" disabled={busy}>{t('admin.stock.saveCorrection')}</button>
      </Form>
    </details>
  );
}

