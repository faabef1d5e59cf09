import { Plus, Trash2, Wand2 } from 'lucide-react';
import { useState } from 'react';
import {
  type ProductFormErrors,
  type SellingWay,
  type VariantField,
  type VariantRowValues,
  isSellingWay,
  optionsOf,
  parsePrice,
  priceText,
  readVariantRows,
  sellingWays,
  variantFieldName,
} from '~/modules/backoffice/product-form';
import { MAX_VARIANTS, grinds, isGrind, optionValue } from '~/modules/catalog/variants';
import { formatWeight } from '~/modules/catalog/unit-price';
import { useI18n } from '~/modules/i18n/react';

/** Empty rows offered for new variants (without JavaScript the only way to add one; rows left empty are ignored). */
export const EXTRA_ROWS = 3;

const P = 'admin.productForm.';
const wayKey = (way: SellingWay) => (way === 'size,grind' ? 'sizeGrind' : way);
const blankRow = (key: number): VariantRowValues => ({ key, id: '', sku: '', weight: '', grind: '', pack: '', price: '', pln: '', active: true, remove: false });
const fieldId = (key: number, field: string) => `variant-${key}-${field}`;

/**
 * "Sold as": one way, or by size, grind, both, or the pack. Radio buttons in a fieldset (arrow keys move between
 * them); which fields show follows the checked one by CSS (`[data-selling]` in app.css), so it works without
 * JavaScript too.
 */
export function SoldAs({ value, error }: { value: string; error?: string }) {
  const { t } = useI18n();
  const checked = isSellingWay(value) ? value : 'none';
  return (
    <fieldset aria-describedby={error ? 'product-options-error' : 'product-options-hint'}>
      <legend className="field-label">{t(`${P}soldAs.legend`)}</legend>
      <div className="flex flex-wrap gap-2">
        {sellingWays.map((way) => (
          <div key={way}>
            <input
              type="radio"
              id={`product-options-${wayKey(way)}`}
              name="options"
              value={way}
              defaultChecked={way === checked}
              className="peer sr-only"
            />
            <label
              htmlFor={`product-options-${wayKey(way)}`}
              className="inline-flex min-h-10 cursor-pointer items-center rounded-full bg-paper px-4 text-sm font-medium text-roast ring-1 ring-sand-dark transition-colors peer-checked:bg-roast peer-checked:text-cream peer-checked:ring-roast peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-leaf hover:ring-roast"
            >
              {t(`${P}soldAs.${wayKey(way)}`)}
            </label>
          </div>
        ))}
      </div>
      <p id="product-options-hint" className="mt-2 text-xs text-muted">{t(`${P}soldAs.hint`)}</p>
      {error && <p id="product-options-error" className="field-error">{error}</p>}
    </fieldset>
  );
}

type TableProps = {
  rows: VariantRowValues[];
  errors: ProductFormErrors;
  message: (key: string | undefined) => string | undefined;
  hydrated: boolean;
  formRef: React.RefObject<HTMLFormElement | null>;
};

/**
 * The variants, one row each: size (or net weight), grind or pack, price, SKU, on sale, remove. Every field has a
 * label naming its row (visible on a phone, where each row is a card; read out beside the column headings on a
 * wider screen). An existing variant carries its id in a hidden field, so the catalogue keeps it (and the carts
 * holding it); its Remove is a checkbox, so it works without JavaScript and can be undone. With JavaScript new
 * rows come from "Add a variant" and the generator, and go again with their own button.
 */
export function VariantTable({ rows: initialRows, errors, message, hydrated, formRef }: TableProps) {
  const { t } = useI18n();
  const [rows, setRows] = useState(() => [...initialRows, ...Array.from({ length: EXTRA_ROWS }, (_, i) => blankRow(nextKey(initialRows) + i))]);
  const tableError = message(errors.variants);

  const addRow = () => {
    const key = nextKey(rows);
    setRows((current) => [...current, blankRow(key)]);
    // Once the row is there, its first field takes the focus.
    requestAnimationFrame(() => document.getElementById(fieldId(key, 'weight'))?.focus());
  };
  const dropRow = (key: number) => {
    const index = rows.findIndex((row) => row.key === key);
    setRows((current) => current.filter((row) => row.key !== key));
    // The focus goes to the row that takes its place, or to "Add a variant".
    requestAnimationFrame(() => {
      const next = rows[index + 1] ?? rows[index - 1];
      (document.getElementById(next ? fieldId(next.key, 'weight') : 'variant-add') ?? document.getElementById('product-variants'))?.focus();
    });
  };

  return (
    <div className="grid gap-4">
      <div id="product-variants" tabIndex={-1} className="focus:outline-none" aria-describedby={tableError ? 'product-variants-error' : 'product-variants-hint'}>
        <p id="product-variants-hint" className="mb-3 text-xs text-muted">{t(`${P}variants.hint`)}</p>
        <table className="w-full text-left text-sm max-md:block">
          <caption className="sr-only">{t(`${P}variants.caption`)}</caption>
          <thead className="text-xs tracking-wide text-muted uppercase max-md:hidden">
            <tr className="border-b border-sand">
              <th scope="col" className="w-8 py-2 pr-2 font-semibold"><span className="sr-only">{t(`${P}variants.variant`)}</span><span aria-hidden="true">#</span></th>
              <th scope="col" className="py-2 pr-2 font-semibold">
                <span data-when="size">{t(`${P}variants.size`)}</span>
                <span data-when="not-size">{t(`${P}variants.netWeight`)}</span>
              </th>
              <th scope="col" className="py-2 pr-2 font-semibold" data-option="grind">{t(`${P}variants.grind`)}</th>
              <th scope="col" className="py-2 pr-2 font-semibold" data-option="pack">{t(`${P}variants.pack`)}</th>
              <th scope="col" className="py-2 pr-2 font-semibold">{t(`${P}variants.price`)}</th>
              <th scope="col" className="py-2 pr-2 font-semibold">{t(`${P}variants.pricePln`)}</th>
              <th scope="col" className="py-2 pr-2 font-semibold">{t(`${P}variants.sku`)}</th>
              <th scope="col" className="py-2 pr-2 text-center font-semibold whitespace-nowrap">{t(`${P}variants.active`)}</th>
              <th scope="col" className="py-2 font-semibold"><span className="sr-only">{t(`${P}remove`)}</span></th>
            </tr>
          </thead>
          {rows.map((row, index) => (
            <VariantRow key={row.key} row={row} n={index + 1} errors={errors} message={message} hydrated={hydrated} onDrop={() => dropRow(row.key)} />
          ))}
        </table>
        {tableError && <p id="product-variants-error" className="field-error">{tableError}</p>}
      </div>
      {hydrated && (
        <div className="flex flex-wrap items-start gap-3">
          <button type="button" id="variant-add" className="btn-outline" onClick={addRow} disabled={rows.length >= MAX_VARIANTS + EXTRA_ROWS}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            {t(`${P}variants.add`)}
          </button>
        </div>
      )}
      {hydrated && <Generator formRef={formRef} onMake={(made) => setRows((current) => [...current.filter((row) => !isBlank(row, formRef.current)), ...renumber(made, current)])} />}
    </div>
  );
}

const nextKey = (rows: readonly VariantRowValues[]) => rows.reduce((max, row) => Math.max(max, row.key + 1), 0);
const renumber = (made: VariantRowValues[], current: VariantRowValues[]) => made.map((row, i) => ({ ...row, key: nextKey(current) + i }));
/** A row whose fields the owner left empty (read from the page: the rows' inputs are the owner's, not React's). */
function isBlank(row: VariantRowValues, form: HTMLFormElement | null): boolean {
  if (!form || row.id) return false;
  return !readVariantRows(new FormData(form)).some((typed) => typed.key === row.key);
}

function VariantRow({ row, n, errors, message, hydrated, onDrop }: { row: VariantRowValues; n: number; errors: ProductFormErrors; message: TableProps['message']; hydrated: boolean; onDrop: () => void }) {
  const { t, locale } = useI18n();
  const name = (field: VariantField | 'id' | 'active' | 'remove') => variantFieldName(row.key, field);
  const rowName = t(`${P}variants.variantN`, { n });
  const problems = (['weight', 'grind', 'pack', 'price', 'pln', 'sku'] as const).flatMap((field) => {
    const text = message(errors[name(field)]);
    return text ? [{ field, text }] : [];
  });
  const problem = (field: VariantField) => problems.some((p) => p.field === field);
  const described = (field: VariantField) => (problem(field) ? `${fieldId(row.key, field)}-error` : undefined);
  // Each field is named by its column and its row ("Price (EUR) Variant 2"): the label shows on a phone, where the
  // row is a card, and is read out beside the column headings on a wider screen.
  const rowSuffix = <span className="sr-only"> {rowName}</span>;
  const label = (field: VariantField, text: React.ReactNode) => (
    <label htmlFor={fieldId(row.key, field)} className="mb-1 block text-xs font-medium text-roast-600 md:sr-only">
      {text}
      {rowSuffix}
    </label>
  );
  const weightLabel = (
    <>
      <span data-when="size">{t(`${P}variants.size`)}</span>
      <span data-when="not-size">{t(`${P}variants.netWeight`)}</span>
    </>
  );
  const input = 'field-input px-3 py-2 text-sm';
  const cell = 'md:py-2 md:pr-2';
  const upper = (text: string) => text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);

  return (
    <tbody
      className="border-b border-sand has-[[data-remove]:checked]:opacity-55 max-md:mb-3 max-md:grid max-md:grid-cols-2 max-md:gap-x-3 max-md:gap-y-3 max-md:rounded-2xl max-md:border max-md:bg-cream/60 max-md:p-4"
      data-testid="variant-row"
    >
      <tr className="max-md:contents">
        <th scope="row" className={`${cell} font-semibold text-roast-600 tabular-nums max-md:col-span-2 max-md:block`}>
          <span className="md:sr-only">{rowName}</span>
          <span aria-hidden="true" className="max-md:hidden">{n}</span>
          {row.id && <input type="hidden" name={name('id')} value={row.id} />}
        </th>
        <td className={`${cell} max-md:block`}>
          {label('weight', weightLabel)}
          <input
            id={fieldId(row.key, 'weight')}
            name={name('weight')}
            defaultValue={row.weight}
            inputMode="numeric"
            autoComplete="off"
            aria-invalid={problem('weight') || undefined}
            aria-describedby={described('weight')}
            className={`${input} md:w-20`}
          />
        </td>
        <td className={`${cell} max-md:block`} data-option="grind">
          {label('grind', t(`${P}variants.grind`))}
          <select
            id={fieldId(row.key, 'grind')}
            name={name('grind')}
            defaultValue={row.grind}
            aria-invalid={problem('grind') || undefined}
            aria-describedby={described('grind')}
            className={`${input} md:w-40`}
          >
            <option value="">{t(`${P}variants.chooseGrind`)}</option>
            {grinds.map((grind) => (
              <option key={grind} value={grind}>{upper(t(`grind.${grind}`))}</option>
            ))}
          </select>
        </td>
        <td className={`${cell} max-md:block`} data-option="pack">
          {label('pack', t(`${P}variants.pack`))}
          <input
            id={fieldId(row.key, 'pack')}
            name={name('pack')}
            defaultValue={row.pack}
            inputMode="numeric"
            autoComplete="off"
            aria-invalid={problem('pack') || undefined}
            aria-describedby={described('pack')}
            className={`${input} md:w-20`}
          />
        </td>
        <td className={`${cell} max-md:block`}>
          {label('price', t(`${P}variants.price`))}
          <input
            id={fieldId(row.key, 'price')}
            name={name('price')}
            defaultValue={row.price}
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={problem('price') || undefined}
            aria-describedby={described('price')}
            className={`${input} md:w-24`}
          />
        </td>
        <td className={`${cell} max-md:block`}>
          {label('pln', t(`${P}variants.pricePln`))}
          <input
            id={fieldId(row.key, 'pln')}
            name={name('pln')}
            defaultValue={row.pln}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t(`${P}variants.plnPlaceholder`)}
            aria-invalid={problem('pln') || undefined}
            aria-describedby={described('pln')}
            className={`${input} placeholder:text-xs md:w-24`}
          />
        </td>
        <td className={`${cell} max-md:col-span-2 max-md:block`}>
          {label('sku', t(`${P}variants.sku`))}
          <input
            id={fieldId(row.key, 'sku')}
            name={name('sku')}
            defaultValue={row.sku}
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            placeholder={t(`${P}variants.skuPlaceholder`)}
            aria-invalid={problem('sku') || undefined}
            aria-describedby={described('sku')}
            className={`${input} uppercase placeholder:normal-case md:w-full md:min-w-40`}
          />
        </td>
        <td className={`${cell} max-md:flex max-md:items-center md:text-center`}>
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium">
            <input type="checkbox" name={name('active')} defaultChecked={row.active} className="h-4 w-4 accent-leaf" />
            <span className="md:sr-only">{t(`${P}variants.active`)}</span>
            {rowSuffix}
          </label>
        </td>
        <td className="max-md:flex max-md:items-center max-md:justify-end md:py-2">
          {hydrated && !row.id ? (
            <button type="button" className="btn-ghost h-9 w-9 p-0 text-cherry" onClick={onDrop} aria-label={t(`${P}variants.removeN`, { n })}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
            </button>
          ) : (
            <label className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-cherry/40 px-3 py-1.5 text-xs font-semibold text-cherry has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-leaf">
              <input type="checkbox" name={name('remove')} defaultChecked={row.remove} data-remove className="h-3.5 w-3.5 accent-cherry" />
              {t(`${P}remove`)}
              {rowSuffix}
            </label>
          )}
        </td>
      </tr>
      {problems.length > 0 && (
        <tr className="max-md:col-span-2 max-md:block">
          <td colSpan={8} className="pb-3 max-md:block md:pl-10">
            <ul className="grid gap-0.5">
              {problems.map(({ field, text }) => (
                <li key={field} id={`${fieldId(row.key, field)}-error`} className="text-sm font-medium text-cherry">
                  <span className="font-semibold">{field === 'weight' ? weightLabel : t(`${P}variants.${field}`)}</span>: {text}
                </li>
              ))}
            </ul>
          </td>
        </tr>
      )}
    </tbody>
  );
}

/**
 * Makes rows from sizes × grinds (JavaScript only; rows can always be typed by hand): sizes in grams separated by
 * commas, the grinds ticked, and one price per size. Combinations already in the table are skipped.
 */
function Generator({ formRef, onMake }: { formRef: TableProps['formRef']; onMake: (rows: VariantRowValues[]) => void }) {
  const { t, locale } = useI18n();
  const [sizesText, setSizesText] = useState('');
  const [ticked, setTicked] = useState<string[]>([]);
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState('');
  const sizes = [...new Set(sizesText.split(/[,;\s]+/).filter((s) => /^\d{1,6}$/.test(s)).map(Number).filter((n) => n >= 1 && n <= 100_000))];

  const make = () => {
    const form = formRef.current;
    if (!form) return;
    const way = new FormData(form).get('options');
    const options = isSellingWay(way) ? optionsOf(way) : [];
    const byGrind = options.includes('grind');
    const missing =
      sizes.length === 0 ? 'sizes' : byGrind && ticked.length === 0 ? 'grinds' : sizes.some((size) => parsePrice(prices[size] ?? '') === null) ? 'prices' : '';
    setProblem(missing ? t(`${P}generator.missing.${missing}`) : '');
    if (missing) return;
    const typed = readVariantRows(new FormData(form)).filter((row) => !row.remove);
    const combination = (weight: string, grind: string) => options.map((kind) => optionValue({ netWeightGrams: Number(weight), grind: isGrind(grind) ? grind : null, packCount: null }, kind)).join('|');
    const present = new Set(typed.map((row) => combination(row.weight.trim(), row.grind)));
    const made: VariantRowValues[] = [];
    for (const size of sizes) {
      for (const grind of byGrind ? grinds.filter((g) => ticked.includes(g)) : ['']) {
        const key = combination(String(size), grind);
        if (present.has(key)) continue;
        present.add(key);
        made.push({ ...blankRow(0), weight: String(size), grind, price: priceText(parsePrice(prices[size])!) });
      }
    }
    onMake(made);
    setStatus(made.length > 0 ? t(`${P}generator.made`, { count: made.length }) : t(`${P}generator.nothing`));
  };

  return (
    <details className="rounded-2xl bg-cream/60 p-4 ring-1 ring-sand open:pb-5" data-option="not-pack">
      <summary className="cursor-pointer text-sm font-semibold text-roast">
        <Wand2 aria-hidden="true" className="mr-2 inline h-4 w-4 text-leaf" />
        {t(`${P}generator.title`)}
      </summary>
      <p className="mt-2 text-xs text-muted">{t(`${P}generator.hint`)}</p>
      <div className="mt-4 grid gap-4">
        <div>
          <label htmlFor="generator-sizes" className="field-label">
            <span data-when="size">{t(`${P}generator.sizes`)}</span>
            <span data-when="not-size">{t(`${P}variants.netWeight`)}</span>
          </label>
          <input
            id="generator-sizes"
            value={sizesText}
            onChange={(event) => setSizesText(event.currentTarget.value)}
            inputMode="numeric"
            autoComplete="off"
            placeholder="250, 1000"
            aria-describedby="generator-sizes-hint"
            className="field-input sm:max-w-xs"
          />
          <p id="generator-sizes-hint" className="mt-1.5 text-xs text-muted">{t(`${P}generator.sizesHint`)}</p>
        </div>
        <fieldset data-option="grind">
          <legend className="field-label">{t(`${P}generator.grinds`)}</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {grinds.map((grind) => (
              <label key={grind} className="inline-flex cursor-pointer items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={ticked.includes(grind)}
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    setTicked((current) => (on ? [...current, grind] : current.filter((g) => g !== grind)));
                  }}
                  className="h-4 w-4 accent-leaf"
                />
                {t(`grind.${grind}`).charAt(0).toLocaleUpperCase(locale) + t(`grind.${grind}`).slice(1)}
              </label>
            ))}
          </div>
        </fieldset>
        {sizes.length > 0 && (
          <div className="grid gap-4 sm:grid-cols-3">
            {sizes.map((size) => (
              <div key={size}>
                <label htmlFor={`generator-price-${size}`} className="field-label">{t(`${P}generator.priceFor`, { size: formatWeight(size, locale) })}</label>
                <input
                  id={`generator-price-${size}`}
                  value={prices[size] ?? ''}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setPrices((current) => ({ ...current, [size]: value }));
                  }}
                  inputMode="decimal"
                  autoComplete="off"
                  className="field-input"
                />
              </div>
            ))}
          </div>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn-outline" onClick={make}>
            {t(`${P}generator.make`)}
          </button>
          <p role="status" className="text-sm text-leaf-dark">{status}</p>
        </div>
        {problem && <p role="alert" className="text-sm font-medium text-cherry">{problem}</p>}
      </div>
    </details>
  );
}
