/**
 * The owner's catalogue work: add, change and delete products with their pictures. Each is one database
 * transaction (the product and its activity entry); pictures are stored before it and deleted again if it
 * fails, so a failure leaves no half-made product and no stray files.
 */
import type { Logger } from 'pino';
import { type Executor, inTransaction } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { createProduct, deleteProduct, getProductRecord, markCatalogChanged, updateProduct, type ProductInput, type ProductRecord } from '~/modules/catalog/index.server';
import { forgetOrderLineImages } from '~/modules/orders/index.server';
import type { Storage } from '~/modules/storage/index.server';
import { MAX_IMAGES, parseProductForm, type ProductFields, type ProductFormErrors, type ProductFormValues } from './product-form';
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

  const id = newId();
  const stored = await storeImages(services, id, checked.images);
  if (!stored.ok) return invalid(parsed.values, { images: stored.error }, stored.fileName);
  try {
    await inTransaction(services.db, async (trx) => {
      await createProduct(trx, { ...parsed.fields, images: stored.stored }, { id });
      await recordActivity(trx, actor, {
        action: 'product.created',
        subjectType: 'product',
        subjectId: id,
        subjectLabel: parsed.fields.translations.en.name,
        details: { priceCents: parsed.fields.priceCents, category: parsed.fields.category, images: stored.stored.length },
      });
    });
  } catch (error) {
    await cleanUp(services, stored.stored.map((p) => p.key));
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

  const stored = await storeImages(services, id, checked.images);
  if (!stored.ok) return invalid(parsed.values, { images: stored.error }, stored.fileName);
  let removed: string[];
  try {
    const result = await inTransaction(services.db, async (trx) => {
      // Another admin may have removed a picture since the form was read: keep only pictures that still exist.
      const present = new Set((await trx.selectFrom('product_images').select('path').where('product_id', '=', id).execute()).map((row) => row.path));
      const images = [...kept.filter((image) => present.has(image.key)), ...stored.stored];
      const updated = await updateProduct(trx, id, { ...parsed.fields, ...keptVariants(record, parsed.fields), images });
      if (!updated.ok) return updated;
      await forgetOrderLineImages(trx, { keys: updated.removedImages });
      await recordActivity(trx, actor, {
        action: 'product.updated',
        subjectType: 'product',
        subjectId: id,
        subjectLabel: parsed.fields.translations.en.name,
        details: changes(record, parsed.fields, images),
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
 * The variants an edit keeps: a product sold one way keeps its one variant (its id, so carts holding it keep it,
 * and its SKU) with the form's price and weight; a product with options keeps its variants as they are.
 */
function keptVariants(record: ProductRecord, fields: ProductFields): Pick<ProductInput, 'options' | 'variants'> {
  if (record.options.length > 0) return { options: record.options, variants: record.variants };
  const [variant] = record.variants;
  return { options: [], variants: [{ id: variant?.id, sku: variant?.sku ?? '', priceCents: fields.priceCents, netWeightGrams: fields.netWeightGrams, active: true }] };
}

/** What an edit changed, for the activity log: old → new. */
function changes(record: ProductRecord, fields: ProductFields, images: { key: string }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const diff = (name: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after)) out[name] = [before, after];
  };
  diff('name', record.translations.en.name, fields.translations.en.name);
  diff('namePl', record.translations.pl?.name ?? '', fields.translations.pl.name);
  diff('priceCents', record.priceCents, fields.priceCents);
  diff('netWeightGrams', record.netWeightGrams, fields.netWeightGrams);
  diff('category', record.category, fields.category);
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
