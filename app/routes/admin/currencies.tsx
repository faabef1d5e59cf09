import { Coins } from 'lucide-react';
import { Form, data, useNavigation } from 'react-router';
import { appContext } from '~/context';
import { readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { formatPrice } from '~/lib/format';
import { applyZlotyPrices, proposeZlotyPrices } from '~/modules/backoffice/index.server';
import { formatWeight } from '~/modules/catalog/unit-price';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { currencySettings, saveCurrencySettings } from '~/modules/pricing/index.server';
import { type CurrencyFormResult, parseCurrencyForm, rateText } from '~/modules/backoffice/currency-form';
import { currencies, roundings } from '~/modules/pricing/currencies';
import type { Route } from './+types/currencies';

/** How many proposed prices the page lists at most (a roaster's catalogue has far fewer). */
const MAX_SHOWN = 500;

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const settings = await currencySettings(app.db);
  // The proposals are worked out when the owner asks for them, and shown before anything changes.
  const proposals = url.searchParams.get('propose') === '1' ? (await proposeZlotyPrices(app.db, shopper.locale)).proposals : null;
  return { title: getT(shopper.locale)('admin.meta.currenciesTitle'), settings, proposals: proposals?.slice(0, MAX_SHOWN) ?? null, more: Math.max(0, (proposals?.length ?? 0) - MAX_SHOWN) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result =
  | { ok: true; intent: 'settings' }
  | { ok: true; intent: 'apply'; applied: number; skipped: number }
  | { ok: false; intent: 'settings'; errors: Extract<CurrencyFormResult, { ok: false }>['errors']; fields: Record<string, string> }
  | { ok: false; intent: 'apply'; errors: { form: 'nothingChosen' } };

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireAdmin(shopper);
  const form = await readForm(request);
  if (form.get('intent') === 'apply') {
    const keys = form.getAll('key').filter((key): key is string => typeof key === 'string' && key.length <= 200).slice(0, 5000);
    if (keys.length === 0) return data<Result>({ ok: false, intent: 'apply', errors: { form: 'nothingChosen' } }, { status: 400 });
    const outcome = await applyZlotyPrices(app.db, user, keys, shopper.locale);
    return data<Result>({ ok: true, intent: 'apply', ...outcome });
  }
  const parsed = parseCurrencyForm(form);
  if (!parsed.ok) {
    const fields = Object.fromEntries(['defaultEn', 'defaultPl', 'rate', 'rounding'].map((name) => [name, String(form.get(name) ?? '').slice(0, 100)]));
    return data<Result>({ ok: false, intent: 'settings', errors: parsed.errors, fields }, { status: 400 });
  }
  await saveCurrencySettings(app.db, user, parsed.form);
  return data<Result>({ ok: true, intent: 'settings' });
}

export default function AdminCurrenciesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const { settings, proposals, more } = loaderData;
  const result = actionData as Result | undefined;
  const failed = result && !result.ok && result.intent === 'settings' ? result : undefined;
  const busy = useNavigation().state === 'submitting';
  const value = (name: string, fallback: string) => failed?.fields[name] ?? fallback;
  const invalid = (name: keyof NonNullable<typeof failed>['errors']) => (failed?.errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${name}-error` } : {});
  const error = (name: keyof NonNullable<typeof failed>['errors']) =>
    failed?.errors[name] ? <p id={`${name}-error`} className="field-error">{t(`admin.currencies.errors.${failed.errors[name]}`)}</p> : null;

  return (
    <div className="grid gap-6">
      <div>
        <p className="eyebrow">{t('admin.currencies.eyebrow')}</p>
        <h1 className="mt-2 text-3xl font-semibold md:text-4xl">{t('admin.currencies.heading')}</h1>
        <p className="mt-2 max-w-3xl text-muted">{t('admin.currencies.intro')}</p>
      </div>

      <div aria-live="polite">
        {result?.ok && (
          <p role="status" className="rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20" data-testid="currencies-saved">
            {result.intent === 'settings' ? t('admin.currencies.saved') : t('admin.currencies.applied', { count: result.applied })}
            {result.intent === 'apply' && result.skipped > 0 && ` ${t('admin.currencies.skipped', { count: result.skipped })}`}
          </p>
        )}
        {result && !result.ok && (
          <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20" data-testid="currencies-error">
            {t(result.intent === 'apply' ? 'admin.currencies.errors.nothingChosen' : 'admin.currencies.errors.summary')}
          </p>
        )}
      </div>

      <Form method="post" className="grid gap-6" data-testid="currency-settings">
        <input type="hidden" name="intent" value="settings" />
        <section aria-labelledby="defaults-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="defaults-heading" className="text-lg font-semibold">{t('admin.currencies.defaults')}</h2>
          <p className="mt-1 max-w-2xl text-sm text-muted">{t('admin.currencies.defaultsHint')}</p>
          <div className="mt-4 grid max-w-xl gap-4 sm:grid-cols-2">
            {(['en', 'pl'] as const).map((language) => {
              const name = language === 'en' ? 'defaultEn' : 'defaultPl';
              return (
                <div key={language}>
                  <label htmlFor={name} className="field-label">{t(`admin.currencies.pagesIn.${language}`)}</label>
                  <select id={name} name={name} defaultValue={value(name, settings.defaults[language])} className="field-input" {...invalid(name)}>
                    {currencies.map((c) => (
                      <option key={c} value={c}>{t(`admin.currencies.names.${c}`)}</option>
                    ))}
                  </select>
                  {error(name)}
                </div>
              );
            })}
          </div>
        </section>

        <section aria-labelledby="rate-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="rate-heading" className="text-lg font-semibold">{t('admin.currencies.rateHeading')}</h2>
          <p className="mt-1 max-w-2xl text-sm text-muted">{t('admin.currencies.rateHint')}</p>
          <div className="mt-4 grid max-w-xl gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="rate" className="field-label">{t('admin.currencies.rate')}</label>
              <input id="rate" name="rate" inputMode="decimal" defaultValue={value('rate', rateText(settings.rate))} className="field-input" {...invalid('rate')} />
              {error('rate')}
            </div>
            <fieldset>
              <legend className="field-label">{t('admin.currencies.rounding')}</legend>
              <div className="mt-1 flex flex-wrap gap-2">
                {roundings.map((r) => (
                  <label key={r} className="flex items-center gap-2 rounded-full px-3 py-2 text-sm ring-1 ring-sand has-[:checked]:bg-roast has-[:checked]:text-cream">
                    <input type="radio" name="rounding" value={r} defaultChecked={value('rounding', settings.rounding) === r} className="accent-leaf" />
                    {t(`admin.currencies.roundings.${r}`)}
                  </label>
                ))}
              </div>
              {error('rounding')}
            </fieldset>
          </div>
        </section>
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy}>{t('admin.currencies.save')}</button>
        </div>
      </Form>

      <section aria-labelledby="proposals-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <h2 id="proposals-heading" className="flex items-center gap-2 text-lg font-semibold">
              <Coins aria-hidden="true" className="h-5 w-5 text-leaf" />
              {t('admin.currencies.proposalsHeading')}
            </h2>
            <p className="mt-1 max-w-2xl text-sm text-muted">
              {t('admin.currencies.proposalsHint', { rate: rateText(settings.rate), rounding: t(`admin.currencies.roundings.${settings.rounding}`) })}
            </p>
          </div>
          <Form method="get">
            <input type="hidden" name="propose" value="1" />
            <button type="submit" className="btn-outline px-4 py-2 text-sm" data-testid="propose-prices">{t('admin.currencies.propose')}</button>
          </Form>
        </div>
        {proposals && proposals.length === 0 && (
          <p role="status" className="mt-4 text-sm text-muted" data-testid="no-proposals">{t('admin.currencies.nothingToChange')}</p>
        )}
        {proposals && proposals.length > 0 && (
          <Form method="post" className="mt-4 grid gap-4" data-testid="proposals">
            <input type="hidden" name="intent" value="apply" />
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-cream/60 px-4 py-3 ring-1 ring-sand">
              <p className="text-sm font-medium" data-testid="proposal-count">{t('admin.currencies.count', { count: proposals.length + more })}</p>
              <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy}>
                {t('admin.currencies.applyChosen')}
              </button>
            </div>
            <div className="relative overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t('admin.currencies.proposalsHeading')}</caption>
                <thead className="text-xs tracking-wide text-muted uppercase">
                  <tr>
                    <th scope="col" className="py-2 pr-2"><span className="sr-only">{t('admin.currencies.apply')}</span></th>
                    <th scope="col" className="py-2">{t('admin.currencies.what')}</th>
                    <th scope="col" className="py-2 pl-3 text-right">EUR</th>
                    <th scope="col" className="py-2 pl-3 text-right">{t('admin.currencies.now')}</th>
                    <th scope="col" className="py-2 pl-3 text-right">{t('admin.currencies.proposed')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-sand">
                  {proposals.map((p) => {
                    const id = `proposal-${p.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
                    const what =
                      p.kind === 'variant'
                        ? [p.name || t('product.unnamed'), p.detail.label].filter(Boolean).join(' — ')
                        : `${p.name}: ${t(`delivery.kinds.${p.detail.deliveryKind}`)} — ${p.kind === 'band' ? t('admin.currencies.upTo', { weight: formatWeight(p.detail.maxGrams ?? 0, locale) }) : t('admin.currencies.freeFrom')}`;
                    return (
                      <tr key={p.key} data-testid="proposal">
                        <td className="py-2 pr-2">
                          <input id={id} type="checkbox" name="key" value={p.key} defaultChecked className="h-4 w-4 accent-leaf" />
                        </td>
                        <td className="py-2">
                          <label htmlFor={id} className="font-medium">{what}</label>
                          {p.detail.sku && <span className="block text-xs text-muted">{p.detail.sku}</span>}
                        </td>
                        <td className="py-2 pl-3 text-right whitespace-nowrap tabular-nums">{formatPrice(p.euroCents, 'EUR', locale)}</td>
                        <td className="py-2 pl-3 text-right whitespace-nowrap text-muted tabular-nums">{p.currentPln === null ? '—' : formatPrice(p.currentPln, 'PLN', locale)}</td>
                        <td className="py-2 pl-3 text-right font-semibold whitespace-nowrap tabular-nums" data-testid="proposed-price">{formatPrice(p.proposedPln, 'PLN', locale)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {more > 0 && <p className="text-sm text-muted">{t('admin.currencies.more', { count: more })}</p>}
            <div>
              <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy} data-testid="apply-prices">
                {t('admin.currencies.applyChosen')}
              </button>
            </div>
          </Form>
        )}
      </section>
    </div>
  );
}
