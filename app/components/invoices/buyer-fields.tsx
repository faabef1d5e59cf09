import { byName, countryName } from '~/modules/delivery/countries';
import { type BuyerErrors, type InvoiceBuyer, buyerCountries } from '~/modules/invoices/buyer';
import { useI18n } from '~/modules/i18n/react';

/** The invoice's buyer: name, tax number (NIP or EU VAT number), address and country; each field with its message. */
export function BuyerFields({ values, errors = {}, idPrefix = 'invoice', required = true }: { values: InvoiceBuyer; errors?: BuyerErrors; idPrefix?: string; required?: boolean }) {
  const { t, locale } = useI18n();
  const field = (name: keyof InvoiceBuyer, formName: string, props: { autoComplete?: string; maxLength?: number; hint?: string; required?: boolean } = {}) => {
    const id = `${idPrefix}-${name}`;
    const error = errors[name];
    const described = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div>
        <label htmlFor={id} className="field-label">{t(`invoices.fields.${name}`)}</label>
        <input
          id={id}
          name={formName}
          defaultValue={values[name]}
          autoComplete={props.autoComplete}
          maxLength={props.maxLength}
          required={required && props.required}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className="field-input"
        />
        {props.hint && <p id={`${id}-hint`} className="mt-1 text-xs text-muted">{props.hint}</p>}
        {error && <p id={`${id}-error`} className="field-error">{t(error)}</p>}
      </div>
    );
  };
  const countryId = `${idPrefix}-country`;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">{field('name', 'invoiceName', { autoComplete: 'organization', maxLength: 200, required: true })}</div>
      {field('taxId', 'invoiceTaxId', { maxLength: 24, hint: t('invoices.fields.taxIdHint') })}
      <div>
        <label htmlFor={countryId} className="field-label">{t('invoices.fields.country')}</label>
        <select id={countryId} name="invoiceCountry" defaultValue={values.country || 'PL'} autoComplete="country" className="field-input" aria-invalid={errors.country ? true : undefined} aria-describedby={errors.country ? `${countryId}-error` : undefined}>
          {byName(buyerCountries, locale).map((c) => (
            <option key={c} value={c}>{countryName(c, locale)}</option>
          ))}
        </select>
        {errors.country && <p id={`${countryId}-error`} className="field-error">{t(errors.country)}</p>}
      </div>
      <div className="sm:col-span-2">{field('address', 'invoiceAddress', { autoComplete: 'street-address', maxLength: 200, required: true })}</div>
      {field('zipCode', 'invoiceZipCode', { autoComplete: 'postal-code', maxLength: 12, required: true })}
      {field('city', 'invoiceCity', { autoComplete: 'address-level2', maxLength: 100, required: true })}
    </div>
  );
}
