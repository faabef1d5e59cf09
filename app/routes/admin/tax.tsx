import { Download } from 'lucide-react';
import { OssMeter } from '~/components/admin/oss-meter';
import { Form, data, useNavigation } from 'react-router';
import { appContext } from '~/context';
import { readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { byName, countryName } from '~/modules/delivery/countries';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { crossBorderSales, lastQuarter, shopDayOf } from '~/modules/reports/index.server';
import { listTaxRates, saveOssSetting, saveTaxRates } from '~/modules/tax/index.server';
import { parseRatesForm, rateField } from '~/modules/tax/tax-form';
import { TAX_CLASSES, formatRate } from '~/modules/tax/vat';
import type { Route } from './+types/tax';
import { SellerProblem } from '~/components/admin/seller-problem';
import { sellerProblem } from '~/modules/invoices/index.server';

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const now = new Date();
  const year = Number(new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric' }).format(now));
  const [settings, sales] = await Promise.all([listTaxRates(app.db), crossBorderSales(app.db, { year, timeZone: SHOP_TIME_ZONE })]);
  const [reportYear, reportQuarter] = lastQuarter(now, SHOP_TIME_ZONE);
  return { title: getT(shopper.locale)('admin.meta.taxTitle'), sellerProblem: sellerProblem(app.config.seller), settings, sales, report: { year: reportYear, quarter: reportQuarter, years: [year, year - 1, year - 2], month: shopDayOf(now, SHOP_TIME_ZONE).slice(0, 7) } };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result =
  | { ok: true; intent: 'oss' | 'rates'; changed?: number }
  | { ok: false; intent: 'rates'; errors: Record<string, 'rate'>; fields: Record<string, string> }
  | { ok: false; intent: 'oss'; errors: { prices: 'prices' }; fields: Record<string, string> };

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireAdmin(shopper);
  const form = await readForm(request);
  if (form.get('intent') === 'oss') {
    // "same" or "follow"; absent (an older page) keeps the setting.
    const prices = form.get('prices');
    if (prices !== null && prices !== 'same' && prices !== 'follow') return data<Result>({ ok: false, intent: 'oss', errors: { prices: 'prices' }, fields: {} }, { status: 400 });
    await saveOssSetting(app.db, user, form.get('ossRegistered') === 'on', prices === null ? undefined : prices === 'follow');
    return data<Result>({ ok: true, intent: 'oss' });
  }
  const parsed = parseRatesForm(form);
  if (!parsed.ok) return data<Result>({ ok: false, intent: 'rates', errors: parsed.errors, fields: parsed.fields }, { status: 400 });
  const saved = await saveTaxRates(app.db, user, parsed.changes);
  if (!saved.ok) return data<Result>({ ok: false, intent: 'rates', errors: {}, fields: {} }, { status: 400 });
  return data<Result>({ ok: true, intent: 'rates', changed: saved.changed });
}

export default function AdminTaxPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const { settings, sales, report } = loaderData;
  const result = actionData as Result | undefined;
  const failed = result && !result.ok ? result : undefined;
  const failedRates = failed?.intent === 'rates' ? failed : undefined;
  const busy = useNavigation().state === 'submitting';
  const countries = byName([...new Set(settings.rates.map((r) => r.country))], locale);
  const rateOf = (country: string, taxClass: string) => settings.rates.find((r) => r.country === country && r.taxClass === taxClass)!;
  const rateText = (bp: number) => formatRate(bp, locale).replace('%', '');

  return (
    <div className="grid gap-6">
      <div>
        <p className="eyebrow">{t('admin.tax.eyebrow')}</p>
        <h1 className="mt-2 text-3xl font-semibold md:text-4xl">{t('admin.tax.heading')}</h1>
        <p className="mt-2 max-w-3xl text-muted">{t('admin.tax.intro')}</p>
      </div>
      <SellerProblem problem={loaderData.sellerProblem} />

      <div aria-live="polite">
        {result?.ok && (
          <p role="status" className="rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20" data-testid="tax-saved">
            {result.intent === 'oss' ? t('admin.tax.ossSaved') : t('admin.tax.ratesSaved', { count: result.changed ?? 0 })}
          </p>
        )}
        {failed && (
          <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20" data-testid="tax-error">
            {failed.intent === 'oss' ? t('admin.tax.errors.prices') : t('admin.tax.errors.summary')}
          </p>
        )}
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="oss-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="oss">
          <h2 id="oss-heading" className="text-lg font-semibold">{t('admin.tax.ossHeading')}</h2>
          <p className="mt-1 text-sm text-muted">{t('admin.tax.ossHint')}</p>
          <div className="mt-4">
            <OssMeter sales={sales} registered={settings.ossRegistered} />
          </div>
          <Form method="post" className="mt-5 grid gap-3">
            <input type="hidden" name="intent" value="oss" />
            <label className="flex items-start gap-3 text-sm">
              <input type="checkbox" name="ossRegistered" defaultChecked={settings.ossRegistered} className="mt-0.5 h-4 w-4 accent-leaf" data-testid="oss-registered" />
              <span>
                <span className="font-medium">{t('admin.tax.registered')}</span>
                <span className="block text-muted">{t('admin.tax.registeredHint')}</span>
              </span>
            </label>
            <fieldset className="grid gap-2 rounded-2xl bg-cream/60 p-4 ring-1 ring-sand" data-testid="oss-prices">
              <legend className="px-1 text-sm font-medium">{t('admin.tax.pricesLegend')}</legend>
              {(['same', 'follow'] as const).map((choice) => (
                <label key={choice} className="flex items-start gap-3 text-sm">
                  <input
                    type="radio"
                    name="prices"
                    value={choice}
                    defaultChecked={settings.pricesFollowRate === (choice === 'follow')}
                    className="mt-0.5 h-4 w-4 accent-leaf"
                  />
                  <span>
                    <span className="font-medium">{t(choice === 'follow' ? 'admin.tax.pricesFollow' : 'admin.tax.pricesSame')}</span>
                    <span className="block text-muted">{t(choice === 'follow' ? 'admin.tax.pricesFollowHint' : 'admin.tax.pricesSameHint')}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <div>
              <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy}>{t('admin.tax.saveOss')}</button>
            </div>
          </Form>
        </section>

        <section aria-labelledby="report-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="report-heading" className="text-lg font-semibold">{t('admin.tax.reportHeading')}</h2>
          <p className="mt-1 text-sm text-muted">{t('admin.tax.reportHint')}</p>
          <Form method="get" action="/admin/tax/oss-report" reloadDocument className="mt-4 flex flex-wrap items-end gap-3" data-testid="oss-report">
            <div>
              <label htmlFor="report-year" className="field-label">{t('admin.tax.year')}</label>
              <select id="report-year" name="year" defaultValue={report.year} className="field-input">
                {report.years.map((y) => (
                  <option key={y} value={y}>{y}</option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="report-quarter" className="field-label">{t('admin.tax.quarter')}</label>
              <select id="report-quarter" name="quarter" defaultValue={report.quarter} className="field-input">
                {[1, 2, 3, 4].map((q) => (
                  <option key={q} value={q}>{t('admin.tax.quarterName', { quarter: q })}</option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn-outline px-4 py-2.5 text-sm">
              <Download aria-hidden="true" className="h-4 w-4" />
              {t('admin.tax.download')}
            </button>
          </Form>
          <h2 id="ksef-heading" className="mt-8 text-lg font-semibold">{t('admin.tax.ksefHeading')}</h2>
          <p className="mt-1 text-sm text-muted">{t('admin.tax.ksefHint')}</p>
          <Form method="get" action="/admin/tax/ksef" reloadDocument className="mt-4 flex flex-wrap items-end gap-3" data-testid="ksef-batch">
            <div>
              <label htmlFor="ksef-month" className="field-label">{t('admin.tax.month')}</label>
              <input id="ksef-month" type="month" name="month" defaultValue={report.month} required className="field-input" />
            </div>
            <button type="submit" className="btn-outline px-4 py-2.5 text-sm">
              <Download aria-hidden="true" className="h-4 w-4" />
              {t('admin.tax.downloadKsef')}
            </button>
          </Form>
        </section>
      </div>

      <Form method="post" className="rounded-3xl bg-paper p-6 ring-1 ring-sand" aria-labelledby="rates-heading" data-testid="tax-rates">
        <input type="hidden" name="intent" value="rates" />
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <h2 id="rates-heading" className="text-lg font-semibold">{t('admin.tax.ratesHeading')}</h2>
            <p className="mt-1 max-w-2xl text-sm text-muted">{t('admin.tax.ratesHint')}</p>
          </div>
          <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy}>{t('admin.tax.saveRates')}</button>
        </div>
        <div className="relative mt-4 overflow-x-auto">
          <table className="w-full max-w-2xl text-left text-sm">
            <caption className="sr-only">{t('admin.tax.ratesHeading')}</caption>
            <thead className="text-xs tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="py-2">{t('admin.tax.country')}</th>
                {TAX_CLASSES.map((c) => (
                  <th key={c} scope="col" className="py-2 pl-3">{t(`admin.tax.classes.${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-sand">
              {countries.map((country) => (
                <tr key={country} data-testid={`rates-${country}`}>
                  <th scope="row" className="py-2 font-medium">
                    {countryName(country, locale)}
                    {country === 'PL' && <span className="ml-2 rounded-full bg-leaf-light px-2 py-0.5 text-xs font-normal text-leaf-dark">{t('admin.tax.home')}</span>}
                  </th>
                  {TAX_CLASSES.map((taxClass) => {
                    const rate = rateOf(country, taxClass);
                    const name = rateField(country, taxClass);
                    const error = failedRates?.errors[name];
                    return (
                      <td key={taxClass} className="py-2 pl-3 align-top">
                        <div className="flex items-center gap-1">
                          <input
                            // A saved rate is shown as stored (an emptied field comes back as Kopi's rate).
                            key={`${rate.rateBp}-${rate.overridden}`}
                            id={name}
                            name={name}
                            inputMode="decimal"
                            aria-label={t('admin.tax.rateLabel', { country: countryName(country, locale), class: t(`admin.tax.classes.${taxClass}`) })}
                            defaultValue={failedRates?.fields[name] ?? rateText(rate.rateBp)}
                            className="field-input w-20 py-1.5 text-right tabular-nums"
                            {...(error ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {})}
                          />
                          <span aria-hidden="true">%</span>
                        </div>
                        {rate.overridden && <p className="mt-1 text-xs text-muted">{t('admin.tax.shipped', { rate: formatRate(rate.shippedBp, locale) })}</p>}
                        {error && <p id={`${name}-error`} className="field-error">{t('admin.tax.errors.rate')}</p>}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-4">
          <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy}>{t('admin.tax.saveRates')}</button>
        </div>
      </Form>
    </div>
  );
}
