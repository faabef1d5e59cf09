/**
 * The owner's catalogue work: add, change and delete products with their pictures. Each is one database
 * transaction (the product and its activity entry); pictures are stored before it and deleted again if it
 * fails, so a failure leaves no half-made product and no stray files.
 */
import type { Logger } from 'pino';
import { type Executor, inTransaction } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import {
  type ProductInput,
  type ProductRecord,
  type Variant,
  SkuTakenError,
  createProduct,
  deleteProduct,
  getProductRecord,
  markCatalogChanged,
  productInputSchema,
  updateProduct,
  variantsOf,
} from '~/modules/catalog/index.server';
import { forgetOrderLineImages } from '~/modules/orders/index.server';
import type { Storage } from '~/modules/storage/index.server';
import {
  type FormVariant,
  type ProductFields,
  type ProductFormErrors,
  type ProductFormField,
  type ProductFormValues,
  type VariantField,
  MAX_IMAGES,
  parseProductForm,
  shownVariant,
  variantErrorField,
  variantProblemField,
} from './product-form';
import { type CheckedImage, ImageRejected, checkImage, deleteImages, storeUploadedImages } from './uploads.server';

export type BackofficeServices = { db: Executor; storage: Storage; log: Logger };

export type SaveOutcome =
  | { ok: true; id: string }
  | { ok: false; reason: 'invalid'; values: ProductFormValues; errors: ProductFormErrors; fileName?: string }
  | { ok: false; reason: 'not_found' };

/** The files chosen in the form's picture input (an empty input sends one nameless, empty file). */
function uploadedFiles(form: FormData, name = 'images'): File[] {
  return form.getAll(name).filter((entry): entry is File => typeof entry !== 'string' && (entry.size > 0 || entry.name !== ''));
}

/** Checks every uploaded picture; the first refusal becomes the form's picture error. */
async function checkImages(files: File[]): Promise<{ ok: true; images: CheckedImage[] } | { ok: false; error: string; fileName: string }> {
  const images: CheckedImage[] = [];
  for (const file of files) {
    try {
      images.push(await checkImage(file));
    } catch (error) {
      if (error instanceof ImageRejected) return { ok: false, error: error.reason, fileName: error.fileName };
      throw error;
    }
  }
  return { ok: true, images };
}

async function storeImages(services: BackofficeServices, productId: string, images: CheckedImage[]) {
  try {
    return { ok: true as const, stored: await storeUploadedImages(services.storage, productId, images) };
  } catch (error) {
    if (error instanceof ImageRejected) return { ok: false as const, error: error.reason, fileName: error.fileName };
    throw error;
  }
}

export async function addProduct(services: BackofficeServices, actor: Actor, form: FormData): Promise<SaveOutcome> {
  const parsed = parseProductForm(form);
  const files = uploadedFiles(form);
  if (!parsed.ok) return { ok: false, reason: 'invalid', values: parsed.values, errors: parsed.errors };
  if (files.length > MAX_IMAGES) return invalid(parsed.values, { images: 'tooManyImages' });
  const checked = await checkImages(files);
  if (!checked.ok) return invalid(parsed.values, { images: checked.error }, checked.fileName);

  const refused = catalogueErrors(catalogueInput(parsed.fields, []), parsed.fields);
  if (refused) return invalid(parsed.values, refused);

  const id = newId();
  const stored = await storeImages(services, id, checked.images);
  if (!stored.ok) return invalid(parsed.values, { images: stored.error }, stored.fileName);
  try {
    await inTransaction(services.db, async (trx) => {
      await createProduct(trx, catalogueInput(parsed.fields, stored.stored), { id });
      const onSale = parsed.fields.variants.filter((v) => v.active);
      await recordActivity(trx, actor, {
        action: 'product.created',
        subjectType: 'product',
        subjectId: id,
        subjectLabel: parsed.fields.translations.en.name,
        details: {
          priceCents: Math.min(...onSale.map((v) => v.priceCents)),
          category: parsed.fields.category,
          images: stored.stored.length,
          ...(parsed.fields.options.length > 0 ? { options: parsed.fields.options, variants: parsed.fields.variants.length } : {}),
        },
      });
    });
  } catch (error) {
    await cleanUp(services, stored.stored.map((p) => p.key));
    if (error instanceof SkuTakenError) return invalid(parsed.values, skuTaken(parsed.fields, error));
    throw error;
  }
  markCatalogChanged();
  return { ok: true, id };
}

export async function changeProduct(services: BackofficeServices, actor: Actor, id: string, form: FormData): Promise<SaveOutcome> {
  const record = await getProductRecord(services.db, services.storage, id);
  if (!record) return { ok: false, reason: 'not_found' };
  const parsed = parseProductForm(form);
  if (!parsed.ok) return { ok: false, reason: 'invalid', values: parsed.values, errors: parsed.errors };
  const kept = keptImages(record, form);
  const files = uploadedFiles(form);
  if (kept.length + files.length > MAX_IMAGES) return invalid(parsed.values, { images: 'tooManyImages' });
  const checked = await checkImages(files);
  if (!checked.ok) return invalid(parsed.values, { images: checked.error }, checked.fileName);
  const refused = catalogueErrors(catalogueInput(parsed.fields, [], record), parsed.fields);
  if (refused) return invalid(parsed.values, refused);

  const stored = await storeImages(services, id, checked.images);
  if (!stored.ok) return invalid(parsed.values, { images: stored.error }, stored.fileName);
  let removed: string[];
  try {
    const result = await inTransaction(services.db, async (trx) => {
      // Another admin may have removed a picture since the form was read: keep only pictures that still exist.
      const present = new Set((await trx.selectFrom('product_images').select('path').where('product_id', '=', id).execute()).map((row) => row.path));
      const images = [...kept.filter((image) => present.has(image.key)), ...stored.stored];
      const updated = await updateProduct(trx, id, catalogueInput(parsed.fields, images, record));
      if (!updated.ok) return updated;
      await forgetOrderLineImages(trx, { keys: updated.removedImages });
      const variants = (await variantsOf(trx, [id], { all: true })).get(id) ?? [];
      await recordActivity(trx, actor, {
        action: 'product.updated',
        subjectType: 'product',
        subjectId: id,
        subjectLabel: parsed.fields.translations.en.name,
        details: changes(record, parsed.fields, images, variants),
      });
      return updated;
    });
    if (!result.ok) {
      await cleanUp(services, stored.stored.map((p) => p.key));
      return { ok: false, reason: 'not_found' };
    }
    removed = result.removedImages;
  } catch (error) {
    await cleanUp(services, stored.stored.map((p) => p.key));
    if (error instanceof SkuTakenError) return invalid(parsed.values, skuTaken(parsed.fields, error));
    throw error;
  }
  markCatalogChanged();
  await cleanUp(services, removed);
  return { ok: true, id };
}

export async function removeProduct(services: BackofficeServices, actor: Actor, id: string): Promise<{ ok: true; name: string } | { ok: false; reason: 'not_found' }> {
  const record = await getProductRecord(services.db, services.storage, id);
  if (!record) return { ok: false, reason: 'not_found' };
  const result = await inTransaction(services.db, async (trx) => {
    const deleted = await deleteProduct(trx, id);
    if (!deleted.ok) return deleted;
    await forgetOrderLineImages(trx, { productId: id });
    await recordActivity(trx, actor, {
      action: 'product.deleted',
      subjectType: 'product',
      subjectId: id,
      subjectLabel: record.translations.en.name,
      details: { priceCents: record.priceCents, images: deleted.images.length },
    });
    return deleted;
  });
  if (!result.ok) return result;
  markCatalogChanged();
  await cleanUp(services, result.images);
  return { ok: true, name: record.translations.en.name };
}

/**
 * The current pictures the form keeps, in the order it lists them (`image` fields, first = main picture),
 * without those marked `remove`. Pictures the form does not mention stay, after the listed ones; keys that are
 * not this product's are ignored.
 */
function keptImages(record: Pick<ProductRecord, 'images'>, form: FormData): { key: string; width: number | null; height: number | null }[] {
  const byKey = new Map(record.images.map((image) => [image.key, image]));
  const removed = new Set(form.getAll('remove').filter((v) => typeof v === 'string'));
  const listed = [...new Set(form.getAll('image').filter((v): v is string => typeof v === 'string' && byKey.has(v)))];
  const order = [...listed, ...record.images.map((image) => image.key).filter((key) => !listed.includes(key))];
  return order.filter((key) => !removed.has(key)).map((key) => {
    const { width, height } = byKey.get(key)!;
    return { key, width, height };
  });
}

/**
 * What the catalogue is given: the form's fields, the pictures, and the variants. A product sold one way is the
 * variant the form showed in its one-way fields (its id, so carts holding it keep it, and its SKU when the field
 * is left empty); rows of the table keep the ids they carry.
 */
function catalogueInput(fields: ProductFields, images: ProductInput['images'], record?: ProductRecord): ProductInput {
  const { rowKeys, variants, ...product } = fields;
  const shown = record && shownVariant(record.variants);
  const oneWay = (variant: FormVariant): FormVariant => (shown ? { ...variant, id: shown.id, sku: variant.sku || shown.sku } : variant);
  return { ...product, variants: rowKeys === null ? variants.map(oneWay) : variants, images };
}

const errorPrefix = 'productForm.errors.';
const variantFieldOf: Record<string, VariantField> = { sku: 'sku', netWeightGrams: 'weight', grind: 'grind', packCount: 'pack', priceCents: 'price', pricePln: 'pln' };
/** What a row's field says when the catalogue's rule has no message of its own. */
const fallbackMessage: Record<VariantField, string> = { sku: 'sku', weight: 'netWeight', grind: 'variantGrind', pack: 'variantPack', price: 'price', pln: 'price' };

/**
 * The catalogue's own check of what the form gives it (the form checks the same rules first, so this rarely
 * speaks): its issues as the form's field errors, on the row and field they concern; null when it accepts.
 * An issue the form cannot place is a bug of the form, thrown rather than shown.
 */
function catalogueErrors(input: ProductInput, fields: ProductFields): ProductFormErrors | null {
  const result = productInputSchema.safeParse(input);
  if (result.success) return null;
  const errors: ProductFormErrors = {};
  for (const issue of result.error.issues) {
    const [head, index, sub] = issue.path;
    const own = issue.message.startsWith(errorPrefix) ? issue.message.slice(errorPrefix.length) : null;
    let field: ProductFormField | null = null;
    let message = own;
    if (head === 'variants' && typeof index === 'number') {
      const variantField = typeof sub === 'string' ? variantFieldOf[sub] : variantProblemField(issue.message, fields.options);
      if (variantField) {
        field = variantErrorField(fields, index, variantField);
        message ??= fallbackMessage[variantField];
      }
    } else if (head === 'variants') {
      field = fields.rowKeys === null ? 'price' : 'variants';
    } else if (head === 'options') {
      field = 'options';
    }
    if (!field || !message) throw result.error;
    errors[field] ??= message;
  }
  return errors;
}

/** A SKU another product has: the error on the row (or the one-way field) that gave it. */
function skuTaken(fields: ProductFields, error: SkuTakenError): ProductFormErrors {
  const index = fields.variants.findIndex((variant) => variant.sku === error.sku);
  return { [index < 0 ? 'variants' : variantErrorField(fields, index, 'sku')]: 'skuTaken' };
}

/**
 * What an edit changed, for the activity log: old → new. A product sold one way before and after logs its price
 * and weight; otherwise how it is sold and its variants by SKU (added, removed, each price, switched off or on).
 */
function changes(record: ProductRecord, fields: ProductFields, images: { key: string }[], variants: Variant[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const diff = (name: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after)) out[name] = [before, after];
  };
  const list = (name: string, skus: string[]) => {
    if (skus.length > 0) out[name] = skus;
  };
  diff('name', record.translations.en.name, fields.translations.en.name);
  diff('namePl', record.translations.pl?.name ?? '', fields.translations.pl.name);
  if (record.options.length === 0 && fields.options.length === 0) {
    diff('priceCents', record.priceCents, variants[0]?.priceCents);
    diff('pricePln', record.variants[0]?.prices.PLN, variants[0]?.prices.PLN);
    diff('netWeightGrams', record.netWeightGrams, variants[0]?.netWeightGrams);
  } else {
    diff('options', record.options, fields.options);
    const before = new Map(record.variants.map((v) => [v.id, v]));
    const kept = variants.filter((v) => before.has(v.id));
    list('variantsAdded', variants.filter((v) => !before.has(v.id)).map((v) => v.sku));
    list('variantsRemoved', record.variants.filter((v) => !variants.some((after) => after.id === v.id)).map((v) => v.sku));
    const prices = kept.filter((v) => before.get(v.id)!.prices.EUR !== v.prices.EUR).map((v) => [v.sku, before.get(v.id)!.prices.EUR, v.prices.EUR]);
    if (prices.length > 0) out.variantPrices = prices;
    const zloty = kept.filter((v) => before.get(v.id)!.prices.PLN !== v.prices.PLN).map((v) => [v.sku, before.get(v.id)!.prices.PLN, v.prices.PLN]);
    if (zloty.length > 0) out.variantPricesPln = zloty;
    list('variantsOff', kept.filter((v) => before.get(v.id)!.active && !v.active).map((v) => v.sku));
    list('variantsOn', kept.filter((v) => !before.get(v.id)!.active && v.active).map((v) => v.sku));
  }
  diff('category', record.category, fields.category);
  diff('taxClass', record.taxClass, fields.taxClass);
  diff('originPl', record.translations.pl?.origin ?? '', fields.translations.pl.origin);
  diff('regionPl', record.translations.pl?.region ?? '', fields.translations.pl.region);
  diff('images', record.images.map((i) => i.key), images.map((i) => i.key));
  if (record.translations.en.description !== fields.translations.en.description) out.description = 'changed';
  if ((record.translations.pl?.description ?? '') !== fields.translations.pl.description) out.descriptionPl = 'changed';
  return out;
}

function invalid(values: ProductFormValues, errors: ProductFormErrors, fileName?: string): SaveOutcome {
  return { ok: false, reason: 'invalid', values, errors, ...(fileName ? { fileName } : {}) };
}

/** Deletes pictures' files; a file that cannot be deleted is logged (it is unreachable, never shown again). */
async function cleanUp(services: BackofficeServices, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const results = await deleteImages(services.storage, keys);
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) services.log.warn({ keys, err: (failed[0] as PromiseRejectedResult).reason }, 'stored pictures could not be deleted');
}
