import { Plus, Trash2, Truck } from 'lucide-react';
import { Form, data, useNavigation } from 'react-router';
import { appContext } from '~/context';
import { readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { formatPrice } from '~/lib/format';
import { priceText } from '~/modules/backoffice/product-form';
import { EU_COUNTRIES, byName, countryName } from '~/modules/delivery/countries';
import { type DeliveryFormError, bandField, deliveryLimits, parseDeliveryForm } from '~/modules/delivery/delivery-form';
import { type DeliveryChangeRefusal, changeDelivery, getDeliveryTable } from '~/modules/delivery/index.server';
import { type DeliveryMethod, type DeliveryZone, MAX_BANDS, POLAND_ONLY, deliveryKinds } from '~/modules/delivery/rates';
import { kilogramsOf } from '~/modules/stock/stock-form';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import type { Route } from './+types/delivery';

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  return { title: getT(shopper.locale)('admin.meta.deliveryTitle'), table: await getDeliveryTable(app.db) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result =
  | { ok: true; intent: string }
  | {
      ok: false;
      intent: string;
      target: string;
      errors: Partial<Record<string, DeliveryFormError | DeliveryChangeRefusal | 'failed'>>;
      /** Countries already in another zone (a refused zone). */
      countries?: string[];
      fields: Record<string, string>;
      /** The countries the refused zone form had ticked. */
      ticked: string[];
    };

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireAdmin(context.get(shopperContext));
  const form = await readForm(request);
  const fields = Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string').map(([k, v]) => [k, v.slice(0, 1000)]));
  // Which form on the page answered (a zone's or a method's id), so its message shows beside it.
  const target = fields.methodId || fields.zoneId || fields.intent || '';
  const ticked = form.getAll('countries').filter((c): c is string => typeof c === 'string').slice(0, 30);
  const parsed = parseDeliveryForm(form);
  if (!parsed.ok) return data<Result>({ ok: false, intent: parsed.intent, target, errors: parsed.errors, fields, ticked }, { status: 400 });
  try {
    const outcome = await changeDelivery(app.db, user, parsed.form);
    if (outcome.ok) return data<Result>({ ok: true, intent: parsed.form.intent });
    const status = outcome.reason === 'notFound' ? 404 : 409;
    return data<Result>({ ok: false, intent: parsed.form.intent, target, errors: { form: outcome.reason }, countries: outcome.countries, fields, ticked }, { status });
  } catch (error) {
    app.log.error({ err: error }, 'changing delivery failed');
    return data<Result>({ ok: false, intent: parsed.form.intent, target, errors: { form: 'failed' }, fields, ticked }, { status: 503 });
  }
}

export default function AdminDeliveryPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const { table } = loaderData;
  const result = actionData as Result | undefined;
  const zoneOfCountry = new Map(table.zones.flatMap((zone) => zone.countries.map((c) => [c, zone.name] as const)));
  const failedHere = (target: string) => (result && !result.ok && result.target === target ? result : undefined);

  return (
    <div className="grid gap-6">
      <div>
        <p className="eyebrow">{t('admin.delivery.eyebrow')}</p>
        <h1 className="mt-2 text-3xl font-semibold md:text-4xl">{t('admin.delivery.heading')}</h1>
        <p className="mt-2 max-w-3xl text-muted">{t('admin.delivery.intro')}</p>
      </div>

      <div aria-live="polite">
        {result?.ok && (
          <p role="status" className="rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20" data-testid="delivery-saved">
            {t(`admin.delivery.saved.${result.intent}`)}
          </p>
        )}
        {result && !result.ok && (
          <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20" data-testid="delivery-error">
            {result.errors.form
              ? t(`admin.delivery.errors.${result.errors.form}`, { countries: (result.countries ?? []).map((c) => countryName(c, locale)).join(', ') })
              : t('admin.delivery.errors.summary')}
          </p>
        )}
      </div>

      <Settings table={table} failed={failedHere('settings')} />
      <Checkout guestCheckout={table.guestCheckout} />

      {table.zones.map((zone) => (
        <Zone key={zone.id} zone={zone} zoneOfCountry={zoneOfCountry} failedHere={failedHere} lastZone={table.zones.length === 1} />
      ))}

      <section aria-labelledby="new-zone" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="new-zone" className="text-lg font-semibold">{t('admin.delivery.newZone')}</h2>
        <ZoneForm zone={null} zoneOfCountry={zoneOfCountry} failed={failedHere('zone')} />
      </section>
    </div>
  );
}

type Failed = Extract<Result, { ok: false }> | undefined;

function FieldError({ error, id }: { error?: string; id: string }) {
  const { t } = useI18n();
  return error ? <p id={id} className="field-error">{t(`admin.delivery.errors.${error}`)}</p> : null;
}

function Submit({ children, className = 'btn-primary', intent }: { children: React.ReactNode; className?: string; intent?: string }) {
  const busy = useNavigation().state === 'submitting';
  return (
    <button type="submit" name={intent ? 'intent' : undefined} value={intent} className={`${className} px-4 py-2 text-sm`} disabled={busy}>
      {children}
    </button>
  );
}

/** Whether guests may order without an account (the specification sends them to sign in first: the default). */
function Checkout({ guestCheckout }: { guestCheckout: boolean }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="checkout-settings" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
      <h2 id="checkout-settings" className="text-lg font-semibold">{t('admin.delivery.checkout')}</h2>
      <Form method="post" className="mt-4 grid gap-4 sm:flex sm:items-start sm:justify-between" data-testid="checkout-settings">
        <input type="hidden" name="intent" value="checkout" />
        <div className="flex items-start gap-3">
          <input id="guestCheckout" name="guestCheckout" type="checkbox" defaultChecked={guestCheckout} aria-describedby="guestCheckout-hint" className="mt-1 h-4 w-4 accent-leaf" />
          <div>
            <label htmlFor="guestCheckout" className="font-medium">{t('admin.delivery.guestCheckout')}</label>
            <p id="guestCheckout-hint" className="mt-1 max-w-xl text-sm text-muted">{t('admin.delivery.guestCheckoutHint')}</p>
          </div>
        </div>
        <div>
          <Submit>{t('admin.delivery.saveCheckout')}</Submit>
        </div>
      </Form>
    </section>
  );
}

function Settings({ table, failed }: { table: Route.ComponentProps['loaderData']['table']; failed: Failed }) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="parcels" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
      <h2 id="parcels" className="text-lg font-semibold">{t('admin.delivery.parcels')}</h2>
      <Form method="post" className="mt-4 grid items-end gap-4 sm:grid-cols-[12rem_1fr_auto]" data-testid="delivery-settings">
        <input type="hidden" name="intent" value="settings" />
        <div>
          <label htmlFor="packagingGrams" className="field-label">{t('admin.delivery.packagingGrams')}</label>
          <input id="packagingGrams" name="packagingGrams" inputMode="numeric" defaultValue={failed?.fields.packagingGrams ?? table.packagingGrams} className="field-input" aria-invalid={failed?.errors.packagingGrams ? true : undefined} aria-describedby={failed?.errors.packagingGrams ? 'packagingGrams-error' : undefined} />
          <FieldError error={failed?.errors.packagingGrams} id="packagingGrams-error" />
        </div>
        <div>
          <label htmlFor="homeCountry" className="field-label">{t('admin.delivery.homeCountry')}</label>
          <select id="homeCountry" name="homeCountry" defaultValue={table.homeCountry} className="field-input" aria-describedby="homeCountry-hint">
            {byName(EU_COUNTRIES, locale).map((code) => (
              <option key={code} value={code}>{countryName(code, locale)}</option>
            ))}
          </select>
          <p id="homeCountry-hint" className="mt-1.5 text-xs text-muted">{t('admin.delivery.homeCountryHint')}</p>
        </div>
        <Submit>{t('admin.delivery.save')}</Submit>
      </Form>
    </section>
  );
}

function Zone({ zone, zoneOfCountry, failedHere, lastZone }: { zone: DeliveryZone; zoneOfCountry: Map<string, string>; failedHere: (target: string) => Failed; lastZone: boolean }) {
  const { t, locale } = useI18n();
  const kindsLeft = deliveryKinds.filter((kind) => !zone.methods.some((m) => m.kind === kind) && (!POLAND_ONLY.has(kind) || zone.countries.includes('PL')));
  return (
    <section aria-labelledby={`zone-${zone.id}`} className="rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="delivery-zone">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id={`zone-${zone.id}`} className="text-xl font-semibold">
          {zone.name} <span className="text-sm font-normal text-muted">· {t('admin.delivery.countriesCount', { count: zone.countries.length })}</span>
        </h2>
        {!lastZone && (
          <details className="text-sm">
            <summary className="cursor-pointer text-cherry underline underline-offset-4">{t('admin.delivery.deleteZone')}</summary>
            <Form method="post" className="mt-2 grid max-w-sm gap-2 rounded-2xl bg-cherry-light p-4">
              <input type="hidden" name="intent" value="delete-zone" />
              <input type="hidden" name="zoneId" value={zone.id} />
              <p>{t('admin.delivery.deleteZoneConfirm', { name: zone.name })}</p>
              <Submit className="btn bg-cherry text-white hover:bg-cherry/90">
                <Trash2 aria-hidden="true" className="h-4 w-4" />
                {t('admin.delivery.deleteZoneButton')}
              </Submit>
            </Form>
          </details>
        )}
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-leaf" data-testid="zone-countries-toggle">
          {byName(zone.countries, locale).map((c) => countryName(c, locale)).join(', ')}
        </summary>
        <ZoneForm zone={zone} zoneOfCountry={zoneOfCountry} failed={failedHere(zone.id)} />
      </details>

      <h3 className="mt-6 font-sans text-sm font-semibold tracking-wide text-muted uppercase">{t('admin.delivery.methods')}</h3>
      {zone.methods.length === 0 && <p className="mt-2 text-sm text-cherry">{t('admin.delivery.noMethods')}</p>}
      <div className="mt-3 grid gap-4 xl:grid-cols-2">
        {zone.methods.map((method) => (
          <MethodForm key={method.id} method={method} failed={failedHere(method.id)} />
        ))}
      </div>
      {kindsLeft.length > 0 && (
        <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="add-method" />
          <input type="hidden" name="zoneId" value={zone.id} />
          <div>
            <label htmlFor={`kind-${zone.id}`} className="field-label">{t('admin.delivery.addMethod')}</label>
            <select id={`kind-${zone.id}`} name="kind" className="field-input">
              {kindsLeft.map((kind) => (
                <option key={kind} value={kind}>{t(`delivery.kinds.${kind}`)}</option>
              ))}
            </select>
          </div>
          <Submit className="btn-outline">
            <Plus aria-hidden="true" className="h-4 w-4" />
            {t('admin.delivery.addMethodButton')}
          </Submit>
        </Form>
      )}
    </section>
  );
}

function ZoneForm({ zone, zoneOfCountry, failed }: { zone: DeliveryZone | null; zoneOfCountry: Map<string, string>; failed: Failed }) {
  const { t, locale } = useI18n();
  const id = zone?.id ?? 'new';
  const chosen = new Set(failed ? failed.ticked : (zone?.countries ?? []));
  return (
    <Form method="post" className="mt-4 grid gap-4" data-testid={zone ? 'zone-form' : 'new-zone-form'}>
      <input type="hidden" name="intent" value="zone" />
      <input type="hidden" name="zoneId" value={zone?.id ?? ''} />
      <div className="max-w-sm">
        <label htmlFor={`zone-name-${id}`} className="field-label">{t('admin.delivery.zoneName')}</label>
        <input id={`zone-name-${id}`} name="name" maxLength={deliveryLimits.zoneName} defaultValue={failed?.fields.name ?? zone?.name ?? ''} className="field-input" aria-invalid={failed?.errors.name ? true : undefined} aria-describedby={failed?.errors.name ? `zone-name-${id}-error` : undefined} />
        <FieldError error={failed?.errors.name} id={`zone-name-${id}-error`} />
      </div>
      <fieldset aria-describedby={failed?.errors.countries ? `countries-${id}-error` : undefined}>
        <legend className="field-label">{t('admin.delivery.countries')}</legend>
        <div className="mt-1 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-3 lg:grid-cols-5">
          {byName(EU_COUNTRIES, locale).map((code) => {
            const elsewhere = zoneOfCountry.get(code);
            const taken = elsewhere !== undefined && !zone?.countries.includes(code);
            return (
              <label key={code} className={`flex items-center gap-2 ${taken ? 'text-muted' : ''}`}>
                <input type="checkbox" name="countries" value={code} defaultChecked={chosen.has(code)} disabled={taken} className="h-4 w-4 accent-leaf" />
                <span>
                  {countryName(code, locale)}
                  {taken && <span className="block text-xs">{t('admin.delivery.inZone', { zone: elsewhere })}</span>}
                </span>
              </label>
            );
          })}
        </div>
        <FieldError error={failed?.errors.countries} id={`countries-${id}-error`} />
      </fieldset>
      <div>
        <Submit>{zone ? t('admin.delivery.saveZone') : t('admin.delivery.addZone')}</Submit>
      </div>
    </Form>
  );
}

function MethodForm({ method, failed }: { method: DeliveryMethod; failed: Failed }) {
  const { t, locale } = useI18n();
  const rows = Array.from({ length: Math.min(MAX_BANDS, method.bands.length + 2) }, (_, i) => method.bands[i]);
  const value = (name: string, fallback: string) => failed?.fields[name] ?? fallback;
  const invalid = (name: string) => (failed?.errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${method.id}-${name}-error` } : {});
  return (
    <Form method="post" className="grid gap-4 rounded-2xl bg-cream/60 p-4 ring-1 ring-sand" data-testid="delivery-method" data-kind={method.kind}>
      <input type="hidden" name="methodId" value={method.id} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h4 className="flex items-center gap-2 font-sans text-base font-semibold">
          <Truck aria-hidden="true" className="h-4 w-4 text-leaf" />
          {t(`delivery.kinds.${method.kind}`)}
        </h4>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="active" defaultChecked={failed ? failed.fields.active === 'on' : method.active} className="h-4 w-4 accent-leaf" />
          {t('admin.delivery.active')}
        </label>
      </div>
      {POLAND_ONLY.has(method.kind) && <p className="-mt-2 text-xs text-muted">{t('admin.delivery.polandOnly')}</p>}
      <fieldset>
        <legend className="text-sm font-semibold">{t('admin.delivery.bands')}</legend>
        <table className="mt-2 w-full text-sm">
          <thead className="text-xs text-muted">
            <tr>
              <th scope="col" className="pb-1 text-left font-medium">{t('admin.delivery.upTo')}</th>
              <th scope="col" className="pb-1 pl-3 text-left font-medium">{t('admin.delivery.price')}</th>
              <th scope="col" className="pb-1 pl-3 text-left font-medium">{t('admin.delivery.pricePln')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((band, row) => (
              <tr key={row}>
                <td className="py-1">
                  <input name={bandField(row, 'kg')} aria-label={`${t('admin.delivery.upTo')} ${row + 1}`} inputMode="decimal" defaultValue={value(bandField(row, 'kg'), band ? kilogramsOf(band.maxGrams) : '')} className="field-input py-1.5" {...invalid(bandField(row, 'kg'))} />
                  <FieldError error={failed?.errors[bandField(row, 'kg')]} id={`${method.id}-${bandField(row, 'kg')}-error`} />
                </td>
                <td className="py-1 pl-3">
                  <input name={bandField(row, 'price')} aria-label={`${t('admin.delivery.price')} ${row + 1}`} inputMode="decimal" defaultValue={value(bandField(row, 'price'), band ? priceText(band.priceCents) : '')} className="field-input py-1.5" {...invalid(bandField(row, 'price'))} />
                  <FieldError error={failed?.errors[bandField(row, 'price')]} id={`${method.id}-${bandField(row, 'price')}-error`} />
                </td>
                <td className="py-1 pl-3">
                  <input name={bandField(row, 'pln')} aria-label={`${t('admin.delivery.pricePln')} ${row + 1}`} inputMode="decimal" defaultValue={value(bandField(row, 'pln'), band ? priceText(band.prices.PLN) : '')} className="field-input py-1.5" {...invalid(bandField(row, 'pln'))} />
                  <FieldError error={failed?.errors[bandField(row, 'pln')]} id={`${method.id}-${bandField(row, 'pln')}-error`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-1 text-xs text-muted">{t('admin.delivery.bandHint')} {t('admin.delivery.plnHint')}</p>
        <FieldError error={failed?.errors.bands} id={`${method.id}-bands-error`} />
      </fieldset>
      <div className="grid max-w-xl gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${method.id}-freeOver`} className="field-label">{t('admin.delivery.freeOver')}</label>
          <input id={`${method.id}-freeOver`} name="freeOver" inputMode="decimal" defaultValue={value('freeOver', method.freeOverCents === null ? '' : priceText(method.freeOverCents))} className="field-input" aria-describedby={`${method.id}-freeOver-hint`} {...invalid('freeOver')} />
          <p id={`${method.id}-freeOver-hint`} className="mt-1 text-xs text-muted">
            {method.freeOverCents === null ? t('admin.delivery.freeOverHint') : formatPrice(method.freeOverCents, 'EUR', locale)}
          </p>
          <FieldError error={failed?.errors.freeOver} id={`${method.id}-freeOver-error`} />
        </div>
        <div>
          <label htmlFor={`${method.id}-freeOverPln`} className="field-label">{t('admin.delivery.freeOverPln')}</label>
          <input id={`${method.id}-freeOverPln`} name="freeOverPln" inputMode="decimal" defaultValue={value('freeOverPln', method.freeOver.PLN === null ? '' : priceText(method.freeOver.PLN))} className="field-input" aria-describedby={`${method.id}-freeOverPln-hint`} {...invalid('freeOverPln')} />
          <p id={`${method.id}-freeOverPln-hint`} className="mt-1 text-xs text-muted">
            {method.freeOver.PLN === null ? t('admin.delivery.freeOverPlnHint') : formatPrice(method.freeOver.PLN, 'PLN', locale)}
          </p>
          <FieldError error={failed?.errors.freeOverPln} id={`${method.id}-freeOverPln-error`} />
        </div>
      </div>
      {method.kind === 'pickup' && (
        <div className="grid gap-3">
          {(['pickupAddress', 'pickupHoursEn', 'pickupHoursPl'] as const).map((name) => (
            <div key={name}>
              <label htmlFor={`${method.id}-${name}`} className="field-label">{t(`admin.delivery.${name}`)}</label>
              <input
                id={`${method.id}-${name}`}
                name={name}
                maxLength={name === 'pickupAddress' ? deliveryLimits.pickupAddress : deliveryLimits.pickupHours}
                defaultValue={value(name, name === 'pickupAddress' ? method.pickupAddress : name === 'pickupHoursEn' ? method.pickupHours.en : method.pickupHours.pl)}
                className="field-input"
                {...invalid(name)}
              />
              <FieldError error={failed?.errors[name]} id={`${method.id}-${name}-error`} />
            </div>
          ))}
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Submit intent="method">{t('admin.delivery.saveMethod')}</Submit>
        {/* Asked first: a details inside the method's form (forms cannot nest), whose button deletes. */}
        <details className="text-sm">
          <summary className="cursor-pointer text-cherry underline underline-offset-4">{t('admin.delivery.deleteMethod')}</summary>
          <div className="mt-2 grid max-w-sm gap-2 rounded-2xl bg-cherry-light p-4">
            <p>{t('admin.delivery.deleteMethodConfirm', { kind: t(`delivery.kinds.${method.kind}`) })}</p>
            <button type="submit" name="intent" value="delete-method" formNoValidate className="btn bg-cherry text-white hover:bg-cherry/90">
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              {t('admin.delivery.deleteMethodButton')}
            </button>
          </div>
        </details>
      </div>
    </Form>
  );
}
