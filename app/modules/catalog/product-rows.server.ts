import type { Insertable } from 'kysely';
import type { ProductImagesTable, ProductTranslationsTable, ProductsTable } from '~/db/schema';
import { translationsOf } from '~/modules/i18n/index.server';
import type { Category, ParsedProductInput } from './catalog.schema';
import { normalizeSearchText } from './search';

export type ProductRows = {
  product: Insertable<ProductsTable>;
  translations: Insertable<ProductTranslationsTable>[];
  images: Insertable<ProductImagesTable>[];
};

/** Both languages' labels of a catalogue value, whichever namespace holds them (missing keys are skipped). */
function labels(...keys: string[]): string[] {
  return keys.flatMap((key) => translationsOf(key).filter((text) => text !== key));
}

const labelCache = new Map<string, string>();
function labelText(kind: 'categories' | 'process' | 'roast', value: string | null): string {
  if (!value) return '';
  const cacheKey = `${kind}.${value}`;
  let text = labelCache.get(cacheKey);
  if (text === undefined) {
    text = [...(kind === 'categories' ? [value] : []), ...labels(`${kind}.${value}`, `common.${kind}.${value}`)].join(' ');
    labelCache.set(cacheKey, text);
  }
  return text;
}

/**
 * What the search matches: both languages' name, description and tasting notes, the origin and region,
 * and the category (its id and its labels in both languages), plus process and roast labels —
 * lower-cased and accent-free, so "czekolade" finds "czekoladę" and "kapsulki" finds the capsules.
 */
export function productSearchText(
  input: Pick<ParsedProductInput, 'translations' | 'origin' | 'region' | 'process' | 'roast'> & { category: Category | null },
): string {
  const { en, pl } = input.translations;
  return normalizeSearchText(
    [
      en.name,
      pl?.name,
      en.description,
      pl?.description,
      en.notes.join(' '),
      pl?.notes.join(' '),
      input.origin,
      input.region,
      pl?.origin,
      pl?.region,
      labelText('categories', input.category),
      labelText('process', input.process),
      labelText('roast', input.roast),
    ]
      .filter(Boolean)
      .join(' '),
  );
}

/** The rows that store one product but its variants (the same for create, update and the bulk import). */
export function productRows(id: string, input: ParsedProductInput, createdAt: string, updatedAt = createdAt): ProductRows {
  const { en, pl } = input.translations;
  const translations: Insertable<ProductTranslationsTable>[] = [
    { product_id: id, locale: 'en', name: en.name, description: en.description, tasting_notes: en.notes.join(', '), origin: null, region: null },
  ];
  if (pl && (pl.name || pl.description || pl.notes.length > 0 || pl.origin || pl.region)) {
    translations.push({
      product_id: id,
      locale: 'pl',
      name: pl.name,
      description: pl.description,
      tasting_notes: pl.notes.join(', '),
      origin: pl.origin || null,
      region: pl.region || null,
    });
  }
  // The product's "from" price: its cheapest active variant's (variants.server.ts keeps it so).
  const cheapest = [...input.variants].filter((v) => v.active).sort((a, b) => a.priceCents - b.priceCents)[0] ?? input.variants[0];
  return {
    product: {
      id,
      category: input.category,
      tax_class: input.taxClass,
      options: input.options.join(','),
      price_cents: cheapest.priceCents,
      net_weight_grams: cheapest.netWeightGrams,
      origin: input.origin || null,
      region: input.region || null,
      altitude_min: input.altitudeMin,
      altitude_max: input.altitudeMax,
      process: input.process,
      roast: input.roast,
      search_text: productSearchText(input),
      created_at: createdAt,
      updated_at: updatedAt,
    },
    translations,
    images: input.images.map((image, position) => ({ product_id: id, position, path: image.key, width: image.width, height: image.height })),
  };
}
