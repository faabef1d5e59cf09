/**
 * A large, varied, deterministic catalogue for benchmarks and load tests: `count` products with
 * 300–600-character descriptions in both languages, inserted in batches inside one transaction.
 */
import type { Insertable } from 'kysely';
import type { Executor } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { refreshSearchStatistics } from '~/db/search.server';
import type { ProductImagesTable, ProductTranslationsTable, ProductsTable } from '~/db/schema';
import { type ParsedProductInput, categories, processes, productInputSchema, roasts } from './catalog.schema';
import { bumpStoredCatalogVersion, markCatalogChanged } from './catalog-version.server';
import { productRows } from './product-rows.server';
import { recordSearchText } from './vocabulary.server';

export type FakeCatalogueOptions = {
  /** Image key bases to cycle through (e.g. the demo catalogue's); none by default (cards show the default picture). */
  images?: string[];
  /** PRNG seed; the same seed gives the same texts. */
  seed?: number;
};

const origins: Array<[string, string[]]> = [
  ['Sumatra', ['Aceh Gayo highlands', 'Lintong, North Sumatra', 'Kerinci, Jambi', 'Mandailing, North Sumatra']],
  ['Java', ['Ijen Plateau, East Java', 'Mount Halu, West Java', 'Preanger, West Java']],
  ['Sulawesi', ['Toraja highlands', 'Enrekang', 'Kalosi']],
  ['Bali', ['Kintamani', 'Mount Batukaru']],
  ['Flores', ['Bajawa', 'Manggarai']],
  ['Papua', ['Baliem Valley', 'Wamena']],
];

const nameWords: Array<[string, string]> = [
  ['Highland', 'Górska'],
  ['Volcano', 'Wulkaniczna'],
  ['Sunrise', 'Poranna'],
  ['Reserve', 'Rezerwowa'],
  ['Harvest', 'Żniwna'],
  ['Forest', 'Leśna'],
  ['Village', 'Wiejska'],
  ['Lake', 'Jeziorna'],
  ['Estate', 'Plantacyjna'],
  ['Heritage', 'Tradycyjna'],
];

const notePairs: Array<[string, string]> = [
  ['dark chocolate', 'gorzka czekolada'],
  ['milk chocolate', 'mleczna czekolada'],
  ['cedar', 'cedr'],
  ['tobacco', 'tytoń'],
  ['brown sugar', 'brązowy cukier'],
  ['caramel', 'karmel'],
  ['jasmine', 'jaśmin'],
  ['bergamot', 'bergamotka'],
  ['red apple', 'czerwone jabłko'],
  ['plum', 'śliwka'],
  ['blackcurrant', 'czarna porzeczka'],
  ['hazelnut', 'orzech laskowy'],
  ['cinnamon', 'cynamon'],
  ['clove', 'goździk'],
  ['molasses', 'melasa'],
  ['mango', 'mango'],
  ['pineapple', 'ananas'],
  ['honey', 'miód'],
  ['lemongrass', 'trawa cytrynowa'],
  ['cocoa nibs', 'ziarna kakaowca'],
];

const sentences: Array<[string, string]> = [
  [
    'Grown by smallholder farmers on volcanic soil, this coffee is picked by hand when the cherries are fully ripe.',
    'Uprawiana przez drobnych rolników na wulkanicznej glebie, ta kawa jest zbierana ręcznie, gdy owoce są w pełni dojrzałe.',
  ],
  [
    'The cup is heavy and syrupy, with low acidity and a long, sweet finish that lingers after every sip.',
    'Napar jest gęsty i syropowy, o niskiej kwasowości i długim, słodkim finiszu, który pozostaje po każdym łyku.',
  ],
  [
    'We roast it in small batches every week so that it reaches you within days of leaving the roaster.',
    'Palimy ją w małych partiach co tydzień, aby trafiła do Ciebie kilka dni po opuszczeniu palarni.',
  ],
  [
    'Cooperative members dry the parchment on raised beds and sort every bag by hand before export.',
    'Członkowie spółdzielni suszą pergamin na podwyższonych stołach i ręcznie sortują każdy worek przed eksportem.',
  ],
  [
    'It shines as an espresso and keeps its sweetness with milk, but a slow pour-over reveals its fruit.',
    'Świetnie sprawdza się jako espresso i zachowuje słodycz z mlekiem, a przelew odsłania jej owocowy charakter.',
  ],
  [
    'Shade trees of avocado, clove and durian protect the coffee plants and give the birds a home.',
    'Drzewa awokado, goździkowca i duriana dają kawowcom cień, a ptakom schronienie.',
  ],
  [
    'The harvest runs from October to May, and each lot is traceable to the washing station that processed it.',
    'Zbiory trwają od października do maja, a każdą partię można prześledzić aż do stacji obróbki.',
  ],
  [
    'Brew it at ninety-three degrees with a ratio of one to sixteen for a balanced, chocolatey cup.',
    'Parz ją w temperaturze dziewięćdziesięciu trzech stopni w proporcji jeden do szesnastu, by uzyskać zbalansowany, czekoladowy napar.',
  ],
  [
    'A fair price paid directly to the farmer group funds new nurseries and better drying equipment.',
    'Uczciwa cena płacona bezpośrednio grupie rolników finansuje nowe szkółki i lepszy sprzęt do suszenia.',
  ],
  [
    'Expect notes of spice and dried fruit, a velvety body and a clean, lasting aftertaste.',
    'Spodziewaj się nut przypraw i suszonych owoców, aksamitnego ciała i czystego, trwałego posmaku.',
  ],
];

const formats: Record<(typeof categories)[number], [string, string]> = {
  wholeBean: ['whole bean, 250 g', 'ziarno, 250 g'],
  groundCoffee: ['ground for filter, 250 g', 'mielona do przelewu, 250 g'],
  dripCoffeeBags: ['10 drip bags', '10 saszetek drip'],
  capsulesAndPods: ['10 compatible capsules', '10 kompatybilnych kapsułek'],
};

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function fakeProduct(index: number, random: () => number, images: string[] = []): ParsedProductInput {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const category = categories[index % categories.length];
  const [origin, regions] = pick(origins);
  const region = pick(regions);
  const [wordEn, wordPl] = pick(nameWords);
  const notes = [...new Set([pick(notePairs), pick(notePairs), pick(notePairs)])];
  const target = 300 + Math.floor(random() * 300);
  let en = '';
  let pl = '';
  const start = Math.floor(random() * sentences.length);
  for (let i = 0; en.length < target || pl.length < target; i++) {
    const [sEn, sPl] = sentences[(start + i * 3) % sentences.length];
    if (en.length < target) en += (en ? ' ' : '') + sEn;
    if (pl.length < target) pl += (pl ? ' ' : '') + sPl;
  }
  const [formatEn, formatPl] = formats[category];
  const altitudeMin = 900 + Math.floor(random() * 8) * 100;
  return productInputSchema.parse({
    category,
    priceCents: 650 + Math.floor(random() * 40) * 50,
    origin,
    region,
    process: pick(processes),
    roast: pick(roasts),
    altitudeMin,
    altitudeMax: altitudeMin + 200 + Math.floor(random() * 5) * 100,
    translations: {
      en: {
        name: `${origin} ${wordEn} No. ${index + 1} (${formatEn})`,
        description: en.slice(0, 600),
        notes: notes.map((n) => n[0]),
      },
      pl: {
        name: `${origin} ${wordPl} nr ${index + 1} (${formatPl})`,
        description: pl.slice(0, 600),
        notes: notes.map((n) => n[1]),
      },
    },
    images: images.length > 0 ? [images[index % images.length]] : [],
  });
}

const BATCH = 500;

/** Inserts `count` fake products (a minute apart, the last one newest) and returns their ids. */
export async function createFakeCatalogue(db: Executor, count: number, options: FakeCatalogueOptions = {}): Promise<string[]> {
  const random = prng(options.seed ?? 1);
  const start = Date.now() - count * 60_000;
  const ids: string[] = [];
  const work = async (trx: Executor) => {
    for (let from = 0; from < count; from += BATCH) {
      const products: Insertable<ProductsTable>[] = [];
      const translations: Insertable<ProductTranslationsTable>[] = [];
      const images: Insertable<ProductImagesTable>[] = [];
      for (let i = from; i < Math.min(count, from + BATCH); i++) {
        const id = newId();
        ids.push(id);
        const rows = productRows(id, fakeProduct(i, random, options.images), new Date(start + i * 60_000).toISOString());
        products.push(rows.product);
        translations.push(...rows.translations);
        images.push(...rows.images);
      }
      await trx.insertInto('products').values(products).execute();
      await trx.insertInto('product_translations').values(translations).execute();
      if (images.length > 0) await trx.insertInto('product_images').values(images).execute();
      await recordSearchText(
        trx,
        products.map((product) => ({ after: product.search_text })),
      );
    }
  };
  await (db.isTransaction ? work(db) : db.transaction().execute(work));
  await refreshSearchStatistics(db);
  await bumpStoredCatalogVersion(db);
  markCatalogChanged();
  return ids;
}
