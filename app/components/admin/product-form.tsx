import { TAX_CLASSES } from '~/modules/tax/vat';
import { ArrowDown, ArrowUp, ImagePlus, Star } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Form, Link, useNavigate, useNavigation } from 'react-router';
import { useHydrated } from '~/lib/use-hydrated';
import {
  IMAGE_ACCEPT,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  type ProductFormErrors,
  type ProductFormValues,
  parseProductForm,
  productLimits,
} from '~/modules/backoffice/product-form';
import { categories, processes, roasts } from '~/modules/catalog/catalog.types';
import { SoldAs, VariantTable } from './variant-editor';
import { revealMessage } from '~/lib/navigation-focus';
import { useT } from '~/modules/i18n/react';
import type { ProductImage } from '~/modules/storage/image';

export type CurrentImage = { key: string; image: ProductImage };

/** What the add and edit actions answer. */
export type ProductFormResult =
  | { status: 'saved'; id: string; name: string }
  | { status: 'invalid'; values: ProductFormValues; errors: ProductFormErrors; fileName?: string }
  | { status: 'failed'; values: ProductFormValues };

type Props = {
  mode: 'add' | 'edit';
  action: string;
  values: ProductFormValues;
  images?: CurrentImage[];
  result?: ProductFormResult;
};

const E = 'admin.productForm.errors.';

/** The element an error's field is: its input (the checked "Sold as"), or the variants table as a whole. */
function fieldElement(form: HTMLFormElement | null, key: string): HTMLElement | null {
  if (!form) return null;
  if (key === 'options') return form.querySelector<HTMLElement>('input[name="options"]:checked') ?? form.querySelector<HTMLElement>('input[name="options"]');
  return form.querySelector<HTMLElement>(`[name="${key}"]`) ?? document.getElementById(`product-${key}`);
}

/** Mirrors the server's checks of the chosen files (the server decides by their bytes): the first problem and its file. */
function checkFiles(form: HTMLFormElement): { reason: string; fileName?: string } | null {
  const files = [...(form.querySelector<HTMLInputElement>('input[name="images"]')?.files ?? [])];
  const kept = form.querySelectorAll('input[name="image"]').length - form.querySelectorAll('input[name="remove"]:checked').length;
  if (files.length + kept > MAX_IMAGES) return { reason: 'tooManyImages' };
  const types = IMAGE_ACCEPT.split(',');
  for (const file of files) {
    if (file.type && !types.includes(file.type)) return { reason: 'imageType', fileName: file.name };
    if (file.size > MAX_IMAGE_BYTES) return { reason: 'imageTooLarge', fileName: file.name };
  }
  return null;
}

export function ProductForm({ mode, action, values: initial, images = [], result }: Props) {
  const t = useT();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<{ errors: ProductFormErrors; fileName?: string } | null>(null);
  const [chosen, setChosen] = useState(0);
  const saving = navigation.state === 'submitting' && navigation.formAction === action;

  const values = result && result.status !== 'saved' ? result.values : initial;
  const serverErrors = result?.status === 'invalid' ? { errors: result.errors, fileName: result.fileName } : null;
  const shown = clientErrors ?? serverErrors ?? { errors: {} };
  const errors = shown.errors;
  const errorCount = Object.keys(errors).length;
  const failed = result?.status === 'failed' || (result?.status === 'invalid' && !clientErrors);
  const message = (key: string | undefined) => (key ? t(`${E}${key}`, { file: shown.fileName ?? '' }) : undefined);

  // A saved form starts afresh (add) or from the saved values (edit), with no files chosen: the key remounts it.
  const [formKey, setFormKey] = useState(0);
  useEffect(() => {
    if (result?.status === 'saved') {
      setClientErrors(null);
      setChosen(0);
      setFormKey((k) => k + 1);
      // The owner pressed the button at the foot of a long form: bring the outcome to where they look.
      revealMessage(document.getElementById('product-form-status'));
    }
    if (result && result.status !== 'saved') {
      const first = Object.keys(result.status === 'invalid' ? result.errors : {})[0];
      const target = first ? fieldElement(formRef.current, first) : null;
      (target ?? document.getElementById('product-form-status'))?.focus();
    }
  }, [result, mode]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const parsed = parseProductForm(new FormData(form));
    const fileError = checkFiles(form);
    const errors: ProductFormErrors = parsed.ok ? {} : { ...parsed.errors };
    if (fileError) errors.images = fileError.reason;
    if (Object.keys(errors).length === 0) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors({ errors, fileName: fileError?.fileName });
    fieldElement(form, Object.keys(errors)[0])?.focus();
  };

  const text = (name: Exclude<keyof ProductFormValues, 'variants'>, label: string, options: { required?: boolean; max?: number; hint?: string; inputMode?: 'decimal' | 'numeric'; lang?: string } = {}) => {
    const error = message(errors[name]);
    const id = `product-${name}`;
    const described = [error && `${id}-error`, options.hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
    return (
      <div>
        <label htmlFor={id} className="field-label">
          {label}
          {options.required && <span aria-hidden="true" className="text-cherry"> *</span>}
        </label>
        <input
          id={id}
          name={name}
          defaultValue={values[name]}
          required={options.required}
          maxLength={options.max}
          inputMode={options.inputMode}
          lang={options.lang}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className="field-input"
        />
        {options.hint && <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted">{options.hint}</p>}
        {error && <p id={`${id}-error`} className="field-error">{error}</p>}
      </div>
    );
  };

  const area = (name: 'description' | 'descriptionPl', label: string, lang?: string) => {
    const error = message(errors[name]);
    const id = `product-${name}`;
    return (
      <div>
        <label htmlFor={id} className="field-label">{label}</label>
        <textarea
          id={id}
          name={name}
          defaultValue={values[name]}
          rows={5}
          maxLength={productLimits.description}
          lang={lang}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="field-input min-h-32 resize-y"
        />
        {error && <p id={`${id}-error`} className="field-error">{error}</p>}
      </div>
    );
  };

  const select = (name: 'category' | 'taxClass' | 'process' | 'roast', label: string, options: readonly string[], labelOf: (v: string) => string, optional: boolean) => {
    const error = message(errors[name]);
    const id = `product-${name}`;
    return (
      <div>
        <label htmlFor={id} className="field-label">{label}</label>
        <select
          id={id}
          name={name}
          defaultValue={values[name] || (optional ? '' : name === 'taxClass' ? 'coffee' : 'wholeBean')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="field-input"
        >
          {optional && <option value="">{t('admin.productForm.none')}</option>}
          {options.map((option) => (
            <option key={option} value={option}>{labelOf(option)}</option>
          ))}
        </select>
        {error && <p id={`${id}-error`} className="field-error">{error}</p>}
      </div>
    );
  };

  const imagesError = message(errors.images);

  return (
    <div className="grid gap-6">
      <div id="product-form-status" tabIndex={-1} aria-live="polite" className="focus:outline-none">
        {result?.status === 'saved' && (
          <div role="status" className="rounded-2xl bg-leaf-light px-5 py-4 text-leaf-dark ring-1 ring-leaf/20">
            <p className="font-semibold">{t(mode === 'add' ? 'admin.productForm.added' : 'admin.productForm.updated')}</p>
            <p className="mt-1 text-sm">
              {mode === 'edit' ? (
                t('admin.productForm.goingHome')
              ) : (
                <Link to={`/product/${result.id}`} className="font-medium underline underline-offset-4">
                  {t('admin.productForm.viewProduct')}: {result.name}
                </Link>
              )}
            </p>
          </div>
        )}
        {failed && (
          <div role="alert" className="rounded-2xl bg-cherry-light px-5 py-4 text-cherry ring-1 ring-cherry/20">
            <p className="font-semibold">{t(mode === 'add' ? 'admin.productForm.addFailed' : 'admin.productForm.updateFailed')}</p>
            {errorCount > 0 && <p className="mt-1 text-sm">{t('admin.productForm.fixErrors', { count: errorCount })}</p>}
          </div>
        )}
        {clientErrors && errorCount > 0 && (
          <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-4 text-sm font-medium text-cherry ring-1 ring-cherry/20">
            {t('admin.productForm.fixErrors', { count: errorCount })}
          </p>
        )}
      </div>

    <Form
      key={formKey}
      ref={formRef}
      method="post"
      action={action}
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      className="grid gap-6"
      aria-describedby="product-form-status"
    >
      <Section title={t('admin.productForm.basics')}>
        <div className="grid gap-5 sm:grid-cols-[2fr_1fr]">
          {text('name', t(mode === 'add' ? 'admin.productForm.name' : 'admin.productForm.title'), { required: true, max: productLimits.name })}
          {select('category', t('admin.productForm.category'), categories, (c) => t(`categories.${c}`), false)}
        </div>
        {area('description', t('admin.productForm.description'))}
        <div className="grid gap-5 sm:grid-cols-[1fr_2fr] sm:items-end">
          {select('taxClass', t('admin.productForm.taxClass'), TAX_CLASSES, (c) => t(`admin.tax.classes.${c}`), false)}
          <p className="pb-3 text-sm text-muted">{t('admin.productForm.taxClassHint')}</p>
        </div>
      </Section>

      <Section title={t('admin.productForm.selling')} hint={t('admin.productForm.sellingHint')} selling>
        <SoldAs value={values.options} error={message(errors.options)} />
        <div data-sold="one" className="grid gap-5 sm:grid-cols-2">
          {text('price', t('admin.productForm.price'), { required: true, inputMode: 'decimal', hint: t('admin.productForm.priceHint') })}
          {text('pricePln', t('admin.productForm.pricePln'), { inputMode: 'decimal', hint: t('admin.productForm.pricePlnHint') })}
          {text('netWeight', t('admin.productForm.netWeight'), { required: true, inputMode: 'numeric', hint: t('admin.productForm.netWeightHint') })}
          {text('sku', t('admin.productForm.sku'), { max: 40, hint: t('admin.productForm.skuHint') })}
        </div>
        <div data-sold="many">
          <VariantTable rows={values.variants} errors={errors} message={message} hydrated={hydrated} formRef={formRef} />
        </div>
      </Section>

      <Section title={t('admin.productForm.pictures')} hint={t('admin.productForm.picturesHint')}>
        {mode === 'edit' && <CurrentImages images={images} hydrated={hydrated} />}
        <div>
          <label htmlFor="product-images" className="field-label">
            {mode === 'edit' ? t('admin.productForm.newImages') : t('admin.productForm.chooseImages')}
          </label>
          <div className="flex flex-wrap items-center gap-3 rounded-2xl border border-dashed border-sand-dark bg-cream/60 p-4 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-leaf">
            <ImagePlus aria-hidden="true" className="h-6 w-6 text-leaf" />
            <input
              id="product-images"
              name="images"
              type="file"
              multiple
              accept={IMAGE_ACCEPT}
              aria-invalid={imagesError ? true : undefined}
              aria-describedby={imagesError ? 'product-images-error' : undefined}
              onChange={(event) => setChosen(event.currentTarget.files?.length ?? 0)}
              className="min-w-0 max-w-full text-sm file:mr-3 file:rounded-full file:border-0 file:bg-roast file:px-4 file:py-2 file:text-sm file:font-semibold file:text-cream hover:file:bg-roast-800"
            />
            {chosen > 0 && <span className="text-sm text-muted">{t('admin.productForm.selected', { count: chosen })}</span>}
          </div>
          {imagesError && <p id="product-images-error" className="field-error">{imagesError}</p>}
        </div>
      </Section>

      <Section title={t('admin.productForm.polish')} hint={t('admin.productForm.polishHint')}>
        {text('namePl', t('admin.productForm.namePl'), { max: productLimits.name, lang: 'pl' })}
        {area('descriptionPl', t('admin.productForm.descriptionPl'), 'pl')}
        {text('notesPl', t('admin.productForm.notesPl'), { hint: t('admin.productForm.notesHint'), lang: 'pl' })}
        <div className="grid gap-5 sm:grid-cols-2">
          {text('originPl', t('admin.productForm.originPl'), { max: productLimits.origin, lang: 'pl', hint: t('admin.productForm.placePlHint') })}
          {text('regionPl', t('admin.productForm.regionPl'), { max: productLimits.region, lang: 'pl', hint: t('admin.productForm.placePlHint') })}
        </div>
      </Section>

      <Section title={t('admin.productForm.details')} hint={t('admin.productForm.detailsHint')}>
        <div className="grid gap-5 sm:grid-cols-2">
          {text('origin', t('admin.productForm.origin'), { max: productLimits.origin })}
          {text('region', t('admin.productForm.region'), { max: productLimits.region })}
          {select('process', t('admin.productForm.process'), processes, (p) => t(`process.${p}`), true)}
          {select('roast', t('admin.productForm.roast'), roasts, (r) => t(`roast.${r}`), true)}
          {text('altitudeMin', t('admin.productForm.altitudeMin'), { inputMode: 'numeric' })}
          {text('altitudeMax', t('admin.productForm.altitudeMax'), { inputMode: 'numeric' })}
        </div>
        {text('notes', t('admin.productForm.notes'), { hint: t('admin.productForm.notesHint') })}
      </Section>

      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-sand bg-cream/95 px-4 py-4 backdrop-blur sm:mx-0 sm:rounded-2xl sm:border sm:px-6">
        {hydrated ? (
          <button type="button" className="btn-ghost" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/admin/products'))}>
            {t('admin.productForm.cancel')}
          </button>
        ) : (
          <Link to="/admin/products" className="btn-ghost">{t('admin.productForm.cancel')}</Link>
        )}
        <button type="submit" className="btn-primary min-w-40" disabled={saving}>
          {mode === 'add'
            ? t(saving ? 'admin.productForm.adding' : 'admin.productForm.add')
            : t(saving ? 'admin.productForm.updating' : 'admin.productForm.update')}
        </button>
      </div>
    </Form>
    </div>
  );
}

function Section({ title, hint, selling, children }: { title: string; hint?: string; selling?: boolean; children: React.ReactNode }) {
  return (
    <fieldset className="grid min-w-0 gap-5 rounded-3xl bg-paper p-5 ring-1 ring-sand sm:p-7" data-selling={selling || undefined}>
      <legend className="float-left w-full">
        <span className="text-lg font-semibold">{title}</span>
        {hint && <span className="mt-1 block text-sm text-muted">{hint}</span>}
      </legend>
      {children}
    </fieldset>
  );
}

/**
 * The product's pictures in display order, each with a Remove/Keep toggle (a checkbox, so it works without
 * JavaScript) and, with JavaScript, buttons to move it; the hidden `image` fields send the order.
 */
function CurrentImages({ images, hydrated }: { images: CurrentImage[]; hydrated: boolean }) {
  const t = useT();
  const [order, setOrder] = useState(images.map((i) => i.key));
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  useEffect(() => {
    setOrder(images.map((i) => i.key));
    setRemoved(new Set());
  }, [images]);
  const byKey = new Map(images.map((i) => [i.key, i]));
  const firstKept = order.find((key) => !removed.has(key));

  if (images.length === 0) return <p className="text-sm text-muted">{t('admin.productForm.noImages')}</p>;

  const move = (index: number, by: number) => {
    const next = [...order];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    setOrder(next);
  };

  return (
    <div>
      <p className="field-label">{t('admin.productForm.currentImages')}</p>
      <ol className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" data-testid="current-images">
        {order.map((key, index) => {
          const image = byKey.get(key);
          if (!image) return null;
          const isRemoved = removed.has(key);
          const n = index + 1;
          return (
            <li key={key} className={`flex flex-col gap-2 rounded-2xl bg-cream p-2 ring-1 ${isRemoved ? 'ring-cherry/40' : 'ring-sand'}`} data-key={key}>
              <input type="hidden" name="image" value={key} />
              <div className="relative aspect-[4/5] overflow-hidden rounded-xl bg-sand/50">
                <img
                  src={image.image.src}
                  srcSet={image.image.srcSet}
                  sizes="200px"
                  width={image.image.width}
                  height={image.image.height}
                  alt={t('admin.productForm.pictureN', { n })}
                  className={`h-full w-full object-cover transition-opacity ${isRemoved ? 'opacity-35 grayscale' : ''}`}
                />
                {key === firstKept && (
                  <span className="absolute top-2 left-2 inline-flex items-center gap-1 rounded-full bg-roast/85 px-2 py-0.5 text-[11px] font-semibold text-cream">
                    <Star aria-hidden="true" className="h-3 w-3" />
                    {t('admin.productForm.main')}
                  </span>
                )}
                {isRemoved && (
                  <span className="absolute inset-x-2 bottom-2 rounded-full bg-cherry px-2 py-0.5 text-center text-[11px] font-semibold text-white">
                    {t('admin.productForm.removed')}
                  </span>
                )}
              </div>
              <div className="flex items-center gap-1">
                <label className={`inline-flex flex-1 cursor-pointer items-center justify-center gap-2 rounded-full border px-2 py-1.5 text-xs font-semibold has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-leaf ${isRemoved ? 'border-leaf text-leaf-dark' : 'border-cherry/50 text-cherry'}`}>
                  <input
                    type="checkbox"
                    name="remove"
                    value={key}
                    checked={isRemoved}
                    className="h-3.5 w-3.5 accent-cherry"
                    aria-label={`${t('admin.productForm.remove')}: ${t('admin.productForm.pictureN', { n })}`}
                    onChange={(event) => {
                      const checked = event.currentTarget.checked;
                      setRemoved((current) => {
                        const next = new Set(current);
                        if (checked) next.add(key);
                        else next.delete(key);
                        return next;
                      });
                    }}
                  />
                  <span aria-hidden="true">{isRemoved ? t('admin.productForm.keep') : t('admin.productForm.remove')}</span>
                </label>
                {hydrated && (
                  <>
                    <button
                      type="button"
                      className="btn-ghost h-8 w-8 p-0"
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                      aria-label={t('admin.productForm.moveUp', { n })}
                    >
                      <ArrowUp aria-hidden="true" className="h-4 w-4" />
                    </button>
                    <button
                      type="button"
                      className="btn-ghost h-8 w-8 p-0"
                      disabled={index === order.length - 1}
                      onClick={() => move(index, 1)}
                      aria-label={t('admin.productForm.moveDown', { n })}
                    >
                      <ArrowDown aria-hidden="true" className="h-4 w-4" />
                    </button>
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
