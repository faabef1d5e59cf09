import { TicketPercent } from 'lucide-react';
import { useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { formatDateTime, formatPrice } from '~/lib/format';
import { categories } from '~/modules/catalog/catalog.types';
import { useI18n } from '~/modules/i18n/react';
import type { CodeField } from '~/modules/promotions/code-form';
import { type CodeKind, type CodeRule, type CodeScope, codeKinds, codeScopes } from '~/modules/promotions/codes';
import { MAX_PERCENT } from '~/modules/promotions/sale-form';

/** A code on the owner's list, with what it did (see listCodes). */
export type CodeRowData = CodeRule & {
  status: 'running' | 'scheduled' | 'ended';
  targetNames: string[];
  used: number;
  held: number;
  revenue: { EUR: number; PLN: number };
  discounted: { EUR: number; PLN: number };
};

export type CodeFailure = { errors: Partial<Record<CodeField | 'form', string>>; fields: Record<string, string | string[]> };

/** The owner's codes: running, then scheduled, then ended, each with its terms and results. */
export function CodesList({ codes }: { codes: CodeRowData[] }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="codes-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="codes">
      <h2 id="codes-heading" className="flex items-center gap-2 text-lg font-semibold">
        <TicketPercent aria-hidden="true" className="h-5 w-5 text-leaf" />
        {t('admin.promotions.codes.heading')} <span className="text-muted tabular-nums">({codes.length})</span>
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted">{t('admin.promotions.codes.intro')}</p>
      {codes.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{t('admin.promotions.codes.none')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-sand">
          {codes.map((code) => <CodeRow key={code.id} code={code} />)}
        </ul>
      )}
    </section>
  );
}

function CodeRow({ code }: { code: CodeRowData }) {
  const { t, locale } = useI18n();
  const busy = useNavigation().state === 'submitting';
  const both = (pair: { EUR: number; PLN: number }) => ({ amount: formatPrice(pair.EUR, 'EUR', locale), amountPln: formatPrice(pair.PLN, 'PLN', locale) });
  const what =
    code.kind === 'percent' ? t('admin.promotions.codes.percentOff', { percent: code.percent ?? 0 }) : code.kind === 'amount' ? t('admin.promotions.codes.amountOff', both(code.amounts ?? { EUR: 0, PLN: 0 })) : t('admin.promotions.codes.freeDelivery');
  const terms = [
    code.minimums ? t('admin.promotions.codes.minimum', both(code.minimums)) : null,
    code.scope === 'all' ? t('admin.promotions.codes.scopeAll') : code.targetNames.join(', '),
    code.maxPerCustomer !== null ? t('admin.promotions.codes.perCustomer', { count: code.maxPerCustomer }) : null,
    code.withSales ? t('admin.promotions.codes.withSales') : null,
    code.advertised ? t('admin.promotions.codes.advertised') : null,
  ].filter(Boolean);
  const when = code.startsAt && code.endsAt
    ? t('admin.promotions.codes.when', { from: formatDateTime(code.startsAt, locale), to: formatDateTime(code.endsAt, locale) })
    : code.endsAt
      ? t('admin.promotions.codes.when', { from: '…', to: formatDateTime(code.endsAt, locale) })
      : code.startsAt
        ? t('admin.promotions.codes.whenOpen', { from: formatDateTime(code.startsAt, locale) })
        : t('admin.promotions.codes.always');
  const money = (pair: { EUR: number; PLN: number }) => (['EUR', 'PLN'] as const).filter((c) => pair[c] > 0).map((c) => formatPrice(pair[c], c, locale)).join(' + ');
  const statusLabel = t(`admin.promotions.${code.status}`);
  return (
    <li className="flex flex-wrap items-start justify-between gap-4 py-4" data-testid="code">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="rounded-lg bg-cream px-2 py-0.5 font-mono text-sm font-semibold ring-1 ring-sand">{code.code}</span>
          <span className="font-semibold">{what}</span>
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${code.status === 'running' ? 'bg-leaf-light text-leaf-dark' : 'bg-sand text-roast-800'}`}>{statusLabel}</span>
        </p>
        <p className="mt-1 text-sm text-muted">{[...terms, when].join(' · ')}</p>
        <p className="mt-1 text-sm" data-testid="code-results">
          {code.maxUses !== null ? t('admin.promotions.codes.uses', { used: code.used, max: code.maxUses }) : t('admin.promotions.codes.usesUnlimited', { used: code.used })}
          {code.held > 0 && ` · ${t('admin.promotions.codes.held', { count: code.held })}`}
          {' · '}
          {code.used > 0 ? t('admin.promotions.codes.results', { revenue: money(code.revenue) || '0', discount: money(code.discounted) || '0' }) : t('admin.promotions.codes.noResults')}
        </p>
      </div>
      {code.status !== 'ended' && (
        <Form method="post">
          <input type="hidden" name="intent" value="stop-code" />
          <input type="hidden" name="id" value={code.id} />
          <input type="hidden" name="was" value={code.used + code.held > 0 ? 'used' : 'unused'} />
          <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={busy} aria-label={t(code.used + code.held > 0 ? 'admin.promotions.codes.endLabel' : 'admin.promotions.codes.deleteLabel', { code: code.code })}>
            {t(code.used + code.held > 0 ? 'admin.promotions.codes.endNow' : 'admin.promotions.codes.delete')}
          </button>
        </Form>
      )}
    </li>
  );
}

/** The new code form; the server checks it again (parseCodeForm). */
export function NewCode({ products, result }: { products: Array<{ id: string; name: string }>; result: CodeFailure | undefined }) {
  const { t } = useI18n();
  const busy = useNavigation().state === 'submitting';
  const value = (name: string) => (typeof result?.fields[name] === 'string' ? (result.fields[name] as string) : '');
  const chosen = (name: string, id: string) => (Array.isArray(result?.fields[name]) ? (result.fields[name] as string[]).includes(id) : false);
  const [kind, setKind] = useState<CodeKind>(codeKinds.find((k) => k === value('kind')) ?? 'percent');
  const [scope, setScope] = useState<CodeScope>(codeScopes.find((s) => s === value('scope')) ?? 'all');
  const invalid = (name: CodeField) => (result?.errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `code-${name}-error` } : {});
  const error = (name: CodeField) => (result?.errors[name] ? <p id={`code-${name}-error`} className="field-error">{t(result.errors[name]!)}</p> : null);
  const field = (name: CodeField, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}, hint?: string) => (
    <div>
      <label htmlFor={`code-${name}`} className="field-label">{label}</label>
      <input id={`code-${name}`} name={name} defaultValue={value(name)} className="field-input" {...props} {...invalid(name)} {...(hint && !result?.errors[name] ? { 'aria-describedby': `code-${name}-hint` } : {})} />
      {hint && <p id={`code-${name}-hint`} className="mt-1 text-xs text-muted">{hint}</p>}
      {error(name)}
    </div>
  );

  return (
    <section aria-labelledby="new-code-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
      <h2 id="new-code-heading" className="text-lg font-semibold">{t('admin.promotions.codes.new')}</h2>
      <Form method="post" className="mt-4 grid gap-6" data-testid="new-code">
        <input type="hidden" name="intent" value="create-code" />
        <div className="grid gap-4 sm:grid-cols-2">
          {field('code', t('admin.promotions.codes.code'), { required: true, maxLength: 32, autoCapitalize: 'characters', spellCheck: false, className: 'field-input font-mono uppercase' }, t('admin.promotions.codes.codeHint'))}
          <fieldset>
            <legend className="field-label">{t('admin.promotions.codes.kind')}</legend>
            <div className="mt-1 flex flex-wrap gap-2">
              {codeKinds.map((k) => (
                <label key={k} className="flex items-center gap-2 rounded-full px-3 py-2 text-sm ring-1 ring-sand has-[:checked]:bg-roast has-[:checked]:text-cream has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-leaf">
                  <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} className="accent-leaf" />
                  {t(`admin.promotions.codes.kinds.${k}`)}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        {kind === 'percent' && <div className="max-w-xs">{field('percent', t('admin.promotions.codes.percent'), { type: 'number', min: 1, max: MAX_PERCENT, step: 1, required: true })}</div>}
        {kind === 'amount' && (
          <div className="grid gap-4 sm:grid-cols-2">
            {field('amount', t('admin.promotions.codes.amount'), { inputMode: 'decimal', required: true })}
            {field('amountPln', t('admin.promotions.codes.amountPln'), { inputMode: 'decimal' }, t('admin.promotions.codes.plnHint'))}
          </div>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {field('minimum', t('admin.promotions.codes.minimum'), { inputMode: 'decimal' })}
          {field('minimumPln', t('admin.promotions.codes.minimumPln'), { inputMode: 'decimal' }, t('admin.promotions.codes.plnHint'))}
          {field('startsAt', t('admin.promotions.codes.startsAt'), { type: 'datetime-local' })}
          {field('endsAt', t('admin.promotions.codes.endsAt'), { type: 'datetime-local' }, t('admin.promotions.timeZone'))}
          {field('maxUses', t('admin.promotions.codes.maxUses'), { type: 'number', min: 1, step: 1 })}
          {field('maxPerCustomer', t('admin.promotions.codes.maxPerCustomer'), { type: 'number', min: 1, step: 1 })}
        </div>
        <fieldset>
          <legend className="field-label">{t('admin.promotions.codes.scope')}</legend>
          <div className="mt-1 flex flex-wrap gap-2">
            {codeScopes.map((s) => (
              <label key={s} className="flex items-center gap-2 rounded-full px-3 py-2 text-sm ring-1 ring-sand has-[:checked]:bg-roast has-[:checked]:text-cream has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-leaf">
                <input type="radio" name="scope" value={s} checked={scope === s} onChange={() => setScope(s)} className="accent-leaf" />
                {t(`admin.promotions.codes.scopes.${s}`)}
              </label>
            ))}
          </div>
          {scope !== 'all' && (
            <div className="mt-3 max-h-64 overflow-y-auto rounded-2xl p-3 ring-1 ring-sand" role="group" aria-label={t(scope === 'categories' ? 'admin.promotions.codes.chooseCategories' : 'admin.promotions.codes.chooseProducts')} data-testid="code-targets" {...invalid('targets')}>
              {scope === 'categories'
                ? categories.map((c) => (
                    <label key={c} className="flex items-center gap-2 py-1 text-sm">
                      <input type="checkbox" name="category" value={c} defaultChecked={chosen('category', c)} className="h-4 w-4 accent-leaf" />
                      {t(`categories.${c}`)}
                    </label>
                  ))
                : products.map((p) => (
                    <label key={p.id} className="flex items-center gap-2 py-1 text-sm">
                      <input type="checkbox" name="product" value={p.id} defaultChecked={chosen('product', p.id)} className="h-4 w-4 accent-leaf" />
                      {p.name || t('product.unnamed')}
                    </label>
                  ))}
            </div>
          )}
          {error('targets')}
        </fieldset>
        <div className="grid gap-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="withSales" defaultChecked={value('withSales') === 'on'} className="h-4 w-4 accent-leaf" />
            {t('admin.promotions.codes.withSalesLabel')}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="advertised" defaultChecked={value('advertised') === 'on'} className="h-4 w-4 accent-leaf" />
            {t('admin.promotions.codes.advertisedLabel')}
          </label>
        </div>
        <div>
          <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy} data-testid="save-code">{t('admin.promotions.codes.save')}</button>
        </div>
      </Form>
    </section>
  );
}
