/**
 * The demo catalogue: 27 Indonesian specialty coffees, seeded into an empty database when SEED_DEMO is on.
 * Plain data (no server imports), so tests and tools can read it anywhere.
 */
export type DemoCategory = 'wholeBean' | 'groundCoffee' | 'dripCoffeeBags' | 'capsulesAndPods';
export type DemoProcess = 'washed' | 'natural' | 'honey' | 'wetHulled' | 'anaerobic';
export type DemoRoast = 'light' | 'medium' | 'mediumDark' | 'dark';
export type DemoGrind = 'wholeBean' | 'espresso' | 'mokaPot' | 'aeropress' | 'filter' | 'frenchPress';

/** The colourway of a packshot: bag colour, label paper, accent, and the ink printed on the label. */
export type DemoPalette = { bag: string; label: string; accent: string; ink: string };

export type DemoProduct = {
  /** Stable slug, also part of the image keys. */
  key: string;
  category: DemoCategory;
  priceCents: number;
  /** Island, e.g. "Sumatra" (a proper name, the same in both languages). */
  origin: string;
  /** Growing area, e.g. "Aceh Gayo highlands". */
  region: string;
  altitudeMin: number;
  altitudeMax: number;
  process: DemoProcess;
  roast: DemoRoast;
  /** Ground coffee: the grind it is roasted and described for (listed first; the others are offered too). */
  grind?: DemoGrind;
  /** created_at = now - daysAgo days; every value is distinct so "newest" ordering is stable. */
  daysAgo: number;
  en: { name: string; description: string; notes: string[] };
  pl: { name: string; description: string; notes: string[] };
  /** How many packshots to generate (every demo coffee has at least one; the default coffee picture is for a shop's own products without pictures). */
  imageCount: 0 | 1 | 2 | 3;
  palette: DemoPalette;
};

/** One colourway per growing region, so every origin is recognisable on the shelf. */
const palettes = {
  gayo: { bag: '#1F4D3A', label: '#F4EBDD', accent: '#C8963E', ink: '#1E2A22' },
  mandheling: { bag: '#4A2540', label: '#F3E9E1', accent: '#C97B5A', ink: '#2B1A20' },
  lintong: { bag: '#1E4E63', label: '#EEF0EA', accent: '#D9A441', ink: '#16303B' },
  kerinci: { bag: '#5C6B2F', label: '#F5EEDC', accent: '#C0643A', ink: '#2A2E16' },
  ijen: { bag: '#2A7F7A', label: '#F1F3EC', accent: '#E3C34A', ink: '#173A38' },
  preanger: { bag: '#B85C5C', label: '#F7F0E6', accent: '#3E6B4A', ink: '#3A1A1A' },
  malabar: { bag: '#A4532F', label: '#F6ECE0', accent: '#2F4A3A', ink: '#3A1C10' },
  toraja: { bag: '#1E1B1A', label: '#F2E8D8', accent: '#B23A2E', ink: '#1E1B1A' },
  kalosi: { bag: '#B07A2A', label: '#FAF1E0', accent: '#4A2A1A', ink: '#3A2410' },
  kintamani: { bag: '#D9772B', label: '#FFF5E6', accent: '#2F6B4F', ink: '#3D2110' },
  bajawa: { bag: '#2D3A6B', label: '#F1ECE2', accent: '#E07A5F', ink: '#1C2340' },
  manggarai: { bag: '#3B2F5C', label: '#EFE9E1', accent: '#D8A13A', ink: '#221B36' },
  wamena: { bag: '#8E2B2B', label: '#F6EDE3', accent: '#E0B25A', ink: '#3A1212' },
  sembalun: { bag: '#7A6A9E', label: '#F6F1EA', accent: '#F0C987', ink: '#2A2340' },
  timor: { bag: '#C9A77C', label: '#FFF8EE', accent: '#7A3B2E', ink: '#3B2A1A' },
} satisfies Record<string, DemoPalette>;

/**
 * The demo's place names in Polish (origin and region as the Polish pages show them); a name missing here
 * is the same in both languages (Bali, Sumatra, Tana Toraja).
 */
export const polishPlaceNames: Record<string, string> = {
  Java: 'Jawa',
  'Kintamani highlands, Mount Batur': 'Wyżyna Kintamani, wulkan Batur',
  'Bajawa, Ngada highlands': 'Bajawa, wyżyna Ngada',
  'Ijen Plateau, East Java': 'Płaskowyż Ijen, Jawa Wschodnia',
  'Mount Malabar, West Java': 'Góra Malabar, Jawa Zachodnia',
  'Priangan highlands, West Java': 'Wyżyna Priangan, Jawa Zachodnia',
  'Sembalun, Mount Rinjani': 'Sembalun, wulkan Rinjani',
  'Baliem Valley, Wamena': 'Dolina Baliem, Wamena',
  'Aceh Gayo highlands': 'Wyżyna Gayo, Aceh',
  'Lintong Nihuta, Lake Toba': 'Lintong Nihuta, jezioro Toba',
  'Mandailing Natal, North Sumatra': 'Mandailing Natal, Sumatra Północna',
  'Mount Kerinci, Jambi': 'Wulkan Kerinci, Jambi',
  'Mollo highlands, West Timor': 'Wyżyna Mollo, Timor Zachodni',
};

/**
 * A demo coffee's net weight in grams, as its pack says (packshot.server.ts): 250 g bags of beans and ground
 * coffee, 10 drip bags of 12 g, 10 capsules of 5.5 g, 18 ESE pods of 7 g.
 */
export function demoNetWeightGrams(product: Pick<DemoProduct, 'category' | 'en'>): number {
  switch (product.category) {
    case 'dripCoffeeBags':
      return 10 * 12;
    case 'capsulesAndPods':
      return /\bESE\b/.test(product.en.name) ? 18 * 7 : 55;
    default:
      return 250;
  }
}

/** A demo variant: its values, price and SKU (the options are the category's, `demoOptions`). */
export type DemoVariant = { sku: string; netWeightGrams: number; grind: DemoGrind | null; packCount: number | null; priceCents: number };

const demoGrinds: DemoGrind[] = ['wholeBean', 'espresso', 'mokaPot', 'filter', 'frenchPress'];
const groundGrinds: DemoGrind[] = ['espresso', 'mokaPot', 'aeropress', 'filter', 'frenchPress'];
const grindCodes: Record<DemoGrind, string> = { wholeBean: 'WB', espresso: 'ES', mokaPot: 'MK', aeropress: 'AP', filter: 'FL', frenchPress: 'FP' };

/** What a demo coffee is sold by: beans and ground coffee by size and grind, drip bags and capsules by the pack. */
export const demoOptions = (product: Pick<DemoProduct, 'category'>): Array<'size' | 'grind' | 'pack'> =>
  product.category === 'wholeBean' || product.category === 'groundCoffee' ? ['size', 'grind'] : ['pack'];

/** A price rounded to end in ,90 (as a roaster prices a bag). */
const ninety = (cents: number) => Math.round((cents + 10) / 100) * 100 - 10;

/**
 * A demo coffee's variants, cheapest first (what its card adds): beans in 250 g and 1 kg, whole or ground five
 * ways; ground coffee the same without whole bean, its own grind first; 10 and 30 drip bags; 10 and 50 capsules
 * (18 and 54 ESE pods). A kilo costs about 3.4 bags of 250 g; grind does not change the price.
 */
export function demoVariants(product: Pick<DemoProduct, 'key' | 'category' | 'priceCents' | 'grind' | 'en'>): DemoVariant[] {
  const code = product.key.toUpperCase();
  if (product.category === 'wholeBean' || product.category === 'groundCoffee') {
    const grinds = product.category === 'wholeBean' ? demoGrinds : [product.grind ?? 'filter', ...groundGrinds.filter((g) => g !== product.grind)];
    return [250, 1000].flatMap((grams) =>
      grinds.map((grind) => ({
        sku: `${code}-${grams}-${grindCodes[grind]}`,
        netWeightGrams: grams,
        grind,
        packCount: null,
        priceCents: grams === 250 ? product.priceCents : ninety(product.priceCents * 3.4),
      })),
    );
  }
  const pods = /\bESE\b/.test(product.en.name);
  const [small, large, each, times] = product.category === 'dripCoffeeBags' ? [10, 30, 12, 2.7] : pods ? [18, 54, 7, 2.8] : [10, 50, 5.5, 4.6];
  return [small, large].map((count) => ({
    sku: `${code}-${count}`,
    netWeightGrams: Math.round(count * each),
    grind: null,
    packCount: count,
    priceCents: count === small ? product.priceCents : ninety(product.priceCents * times),
  }));
}

/** A demo place name (origin or region) in `locale`. */
export const demoPlace = (place: string, locale: 'en' | 'pl'): string => (locale === 'pl' ? (polishPlaceNames[place] ?? place) : place);

export const demoProducts: DemoProduct[] = [
  // ── Whole bean ──────────────────────────────────────────────────────────────────────────────
  {
    key: 'gayo-wine-natural',
    category: 'wholeBean',
    priceCents: 2190,
    origin: 'Sumatra',
    region: 'Aceh Gayo highlands',
    altitudeMin: 1450,
    altitudeMax: 1650,
    process: 'natural',
    roast: 'light',
    daysAgo: 3,
    en: {
      name: 'Gayo Wine Natural',
      description:
        'Smallholders around Takengon in the Gayo highlands dry these ripe cherries whole on raised beds for up to four weeks. The long, slow drying gives a heavy, winey sweetness over a clean cacao finish. Lovely in a V60 or AeroPress: try 15 g of coffee to 250 ml of water at 92 °C.',
      notes: ['Red wine', 'Dark cherry', 'Cacao nib'],
    },
    pl: {
      name: 'Gayo Wine Natural',
      description:
        'Drobni rolnicy z okolic Takengon w górach Gayo suszą całe, dojrzałe owoce na podwyższonych stołach nawet przez cztery tygodnie. Długie suszenie daje gęstą, winną słodycz i czysty, kakaowy finisz. Świetna z dripa V60 lub AeroPressu: 15 g kawy na 250 ml wody o temperaturze 92 °C.',
      notes: ['czerwone wino', 'ciemna wiśnia', 'ziarno kakao'],
    },
    imageCount: 3,
    palette: palettes.gayo,
  },
  {
    key: 'mandheling-grade-one',
    category: 'wholeBean',
    priceCents: 1690,
    origin: 'Sumatra',
    region: 'Mandailing Natal, North Sumatra',
    altitudeMin: 1100,
    altitudeMax: 1500,
    process: 'wetHulled',
    roast: 'mediumDark',
    daysAgo: 41,
    en: {
      name: 'Mandheling Grade 1',
      description:
        'The classic Sumatran cup: wet-hulled (giling basah) by farmers in North Sumatra, which gives the green bean its deep blue-green colour and the cup its low acidity. Full, syrupy body with dark chocolate, cedar and an earthy, forest-floor finish. Made for the French press, the moka pot and milk drinks.',
      notes: ['Dark chocolate', 'Cedar', 'Earthy'],
    },
    pl: {
      name: 'Mandheling Grade 1',
      description:
        'Klasyczna Sumatra: kawa obłuszczana na mokro (giling basah) przez rolników z Północnej Sumatry, co nadaje zielonym ziarnom głęboki, niebieskawy kolor, a naparowi niską kwasowość. Pełne, syropowe body, gorzka czekolada, cedr i ziemisty, leśny finisz. Stworzona do french pressa, kawiarki i kaw z mlekiem.',
      notes: ['gorzka czekolada', 'cedr', 'ziemiste nuty'],
    },
    imageCount: 3,
    palette: palettes.mandheling,
  },
  {
    key: 'lintong-lake-toba',
    category: 'wholeBean',
    priceCents: 1790,
    origin: 'Sumatra',
    region: 'Lintong Nihuta, Lake Toba',
    altitudeMin: 1300,
    altitudeMax: 1500,
    process: 'wetHulled',
    roast: 'medium',
    daysAgo: 27,
    en: {
      name: 'Lintong Lake Toba',
      description:
        'Grown on the high plateau south of Lake Toba, where volcanic soil and cool air off the water let the cherries ripen slowly. Wet-hulled the Sumatran way, yet sweet and spicy rather than earthy: blackcurrant, clove and molasses with a round body. Brew it in a Chemex or a Kalita Wave.',
      notes: ['Blackcurrant', 'Clove', 'Molasses'],
    },
    pl: {
      name: 'Lintong znad jeziora Toba',
      description:
        'Rośnie na wysokim płaskowyżu na południe od jeziora Toba, gdzie wulkaniczna gleba i chłodne powietrze znad wody pozwalają owocom dojrzewać powoli. Obłuszczana na mokro, po sumatrzańsku, a jednak bardziej słodka i korzenna niż ziemista: czarna porzeczka, goździk i melasa przy okrągłym body. Zaparz ją w Chemeksie albo w Kalicie Wave.',
      notes: ['czarna porzeczka', 'goździk', 'melasa'],
    },
    imageCount: 2,
    palette: palettes.lintong,
  },
  {
    key: 'kerinci-red-honey',
    category: 'wholeBean',
    priceCents: 1990,
    origin: 'Sumatra',
    region: 'Mount Kerinci, Jambi',
    altitudeMin: 1400,
    altitudeMax: 1700,
    process: 'honey',
    roast: 'light',
    daysAgo: 12,
    en: {
      name: 'Kerinci Red Honey',
      description:
        "Grown by farmer groups on the slopes of Mount Kerinci, Sumatra's highest volcano, at the edge of Kerinci Seblat National Park. The cherries are pulped and dried with much of their sticky mucilage left on, which brings apricot and panela sweetness and a black-tea finish. Shines as a pour-over; give it a week's rest after roasting.",
      notes: ['Apricot', 'Panela', 'Black tea'],
    },
    pl: {
      name: 'Kerinci Red Honey',
      description:
        'Uprawiana przez grupy rolników na zboczach Kerinci, najwyższego wulkanu Sumatry, na skraju Parku Narodowego Kerinci Seblat. Owoce po odpulpowaniu schną z dużą częścią lepkiego miąższu, co daje słodycz moreli i paneli oraz herbaciany finisz. Najlepiej smakuje z przelewu; po paleniu daj jej tydzień odpocząć.',
      notes: ['morela', 'panela', 'czarna herbata'],
    },
    imageCount: 3,
    palette: palettes.kerinci,
  },
  {
    key: 'ijen-plateau-washed',
    category: 'wholeBean',
    priceCents: 1590,
    origin: 'Java',
    region: 'Ijen Plateau, East Java',
    altitudeMin: 1100,
    altitudeMax: 1500,
    process: 'washed',
    roast: 'medium',
    daysAgo: 35,
    en: {
      name: 'Java Ijen Plateau',
      description:
        'From the old estates of the Ijen plateau, between the Ijen and Raung volcanoes in East Java. Fully washed and sun-dried, it is clean and balanced, with milk chocolate, clove and a light lemon-peel brightness. An easy everyday coffee for filter or espresso.',
      notes: ['Milk chocolate', 'Clove', 'Lemon peel'],
    },
    pl: {
      name: 'Jawa, płaskowyż Ijen',
      description:
        'Pochodzi z dawnych plantacji na płaskowyżu Ijen, między wulkanami Ijen i Raung na Jawie Wschodniej. W pełni myta i suszona na słońcu, czysta i zrównoważona: poczujesz mleczną czekoladę, goździk i lekką nutę skórki cytryny. Łatwa kawa na co dzień, do przelewu i do espresso.',
      notes: ['mleczna czekolada', 'goździk', 'skórka cytryny'],
    },
    imageCount: 3,
    palette: palettes.ijen,
  },
  {
    key: 'preanger-natural',
    category: 'wholeBean',
    priceCents: 2090,
    origin: 'Java',
    region: 'Priangan highlands, West Java',
    altitudeMin: 1300,
    altitudeMax: 1600,
    process: 'natural',
    roast: 'light',
    daysAgo: 8,
    en: {
      name: 'West Java Preanger Natural',
      description:
        "Preanger is the old name for the Priangan highlands around Bandung, where Java's coffee story began in the 1700s. Farmers on the slopes of Mount Papandayan dry this lot in the whole cherry, which gives ripe strawberry, jasmine and dark honey. Brew it light and clear: a pour-over at 93 °C.",
      notes: ['Strawberry', 'Jasmine', 'Dark honey'],
    },
    pl: {
      name: 'Preanger Natural z Jawy Zachodniej',
      description:
        'Preanger to dawna nazwa wyżyny Priangan wokół Bandungu, gdzie w XVIII wieku zaczęła się historia jawajskiej kawy. Rolnicy ze zboczy wulkanu Papandayan suszą tę partię w całych owocach, co daje dojrzałą truskawkę, jaśmin i ciemny miód. Parz ją jasno i klarownie: przelew w 93 °C.',
      notes: ['truskawka', 'jaśmin', 'ciemny miód'],
    },
    imageCount: 3,
    palette: palettes.preanger,
  },
  {
    key: 'toraja-sapan',
    category: 'wholeBean',
    priceCents: 1890,
    origin: 'Sulawesi',
    region: 'Sapan, Tana Toraja',
    altitudeMin: 1500,
    altitudeMax: 1900,
    process: 'washed',
    roast: 'medium',
    daysAgo: 19,
    en: {
      name: 'Toraja Sapan',
      description:
        'Sapan sits high in the Toraja mountains of South Sulawesi, where smallholders grow old Typica and S795 trees between the rice terraces. Washed and dried slowly in the cool air, it makes a layered cup: ripe plum, warm spice and dark caramel over a velvety body. Excellent as filter, generous as espresso.',
      notes: ['Plum', 'Warm spice', 'Dark caramel'],
    },
    pl: {
      name: 'Toraja Sapan',
      description:
        'Sapan leży wysoko w górach Toraja na Sulawesi Południowym, gdzie drobni rolnicy uprawiają stare drzewa odmian Typica i S795 między tarasami ryżowymi. Myta i powoli suszona w chłodnym powietrzu, daje wielowarstwowy napar: dojrzała śliwka, ciepłe przyprawy i ciemny karmel przy aksamitnym body. Znakomita z przelewu, hojna jako espresso.',
      notes: ['śliwka', 'ciepłe przyprawy', 'ciemny karmel'],
    },
    imageCount: 3,
    palette: palettes.toraja,
  },
  {
    key: 'kintamani-natural',
    category: 'wholeBean',
    priceCents: 1850,
    origin: 'Bali',
    region: 'Kintamani highlands, Mount Batur',
    altitudeMin: 1200,
    altitudeMax: 1600,
    process: 'natural',
    roast: 'light',
    daysAgo: 5,
    en: {
      name: 'Bali Kintamani Natural',
      description:
        'In Kintamani, farmers of the Subak Abian cooperatives grow coffee under citrus and tamarillo trees on the slopes of Mount Batur, without synthetic chemicals. Dried in the whole cherry, this lot tastes of mandarin, red grape and honey. Try it as a cold brew or a bright V60.',
      notes: ['Mandarin', 'Red grape', 'Honey'],
    },
    pl: {
      name: 'Bali Kintamani Natural',
      description:
        'W Kintamani rolnicy zrzeszeni w spółdzielniach Subak Abian uprawiają kawę w cieniu drzew cytrusowych i tamarillo na zboczach wulkanu Batur, bez syntetycznych środków. Suszona w całych owocach smakuje mandarynką, czerwonym winogronem i miodem. Spróbuj jej jako cold brew albo jasnego V60.',
      notes: ['mandarynka', 'czerwone winogrono', 'miód'],
    },
    imageCount: 3,
    palette: palettes.kintamani,
  },
  {
    key: 'bajawa-honey',
    category: 'wholeBean',
    priceCents: 1790,
    origin: 'Flores',
    region: 'Bajawa, Ngada highlands',
    altitudeMin: 1200,
    altitudeMax: 1600,
    process: 'honey',
    roast: 'medium',
    daysAgo: 23,
    en: {
      name: 'Flores Bajawa Honey',
      description:
        'Grown in the volcanic Ngada highlands around Bajawa, beneath Mount Inerie, by farmers who process their cherries together in village wet mills. Honey processing brings milk chocolate and tamarind sweetness with a soft vanilla finish. Forgiving on any brewer and beautiful in a flat white.',
      notes: ['Milk chocolate', 'Tamarind', 'Vanilla'],
    },
    pl: {
      name: 'Flores Bajawa Honey',
      description:
        'Rośnie na wulkanicznej wyżynie Ngada wokół Bajawy, u stóp wulkanu Inerie, gdzie rolnicy wspólnie przetwarzają owoce w wiejskich przetwórniach. Obróbka honey wydobywa mleczną czekoladę i słodycz tamaryndowca, a w finiszu miękką wanilię. Wybacza błędy w każdym zaparzaczu i pięknie smakuje we flat white.',
      notes: ['mleczna czekolada', 'tamaryndowiec', 'wanilia'],
    },
    imageCount: 2,
    palette: palettes.bajawa,
  },
  {
    key: 'wamena-baliem-valley',
    category: 'wholeBean',
    priceCents: 2390,
    origin: 'Papua',
    region: 'Baliem Valley, Wamena',
    altitudeMin: 1500,
    altitudeMax: 2000,
    process: 'washed',
    roast: 'medium',
    daysAgo: 15,
    en: {
      name: 'Papua Wamena Baliem Valley',
      description:
        'The Baliem Valley lies at 1,600 metres in the central highlands of Papua, where Dani farmers grow coffee in forest gardens without any chemicals. Washed and sun-dried, it is sweet and gentle: hazelnut, cacao and dried fig with a long, clean finish. A rare coffee; brew it as filter to taste every layer.',
      notes: ['Hazelnut', 'Cacao', 'Dried fig'],
    },
    pl: {
      name: 'Papua Wamena, dolina Baliem',
      description:
        'Dolina Baliem leży na wysokości 1600 metrów w centralnych górach Papui, gdzie rolnicy z ludu Dani uprawiają kawę w leśnych ogrodach, zupełnie bez chemii. Myta i suszona na słońcu, jest słodka i łagodna: orzech laskowy, kakao i suszona figa z długim, czystym finiszem. Rzadka kawa; parz ją przelewowo, żeby poczuć każdą warstwę.',
      notes: ['orzech laskowy', 'kakao', 'suszona figa'],
    },
    imageCount: 3,
    palette: palettes.wamena,
  },
  {
    key: 'sembalun-anaerobic',
    category: 'wholeBean',
    priceCents: 2290,
    origin: 'Lombok',
    region: 'Sembalun, Mount Rinjani',
    altitudeMin: 1100,
    altitudeMax: 1400,
    process: 'anaerobic',
    roast: 'light',
    daysAgo: 2,
    en: {
      name: 'Lombok Sembalun Anaerobic',
      description:
        "Sembalun is a high valley on the eastern flank of Mount Rinjani, Lombok's great volcano. This small lot fermented for 72 hours in sealed tanks before drying, and the cup is exuberant: passion fruit, raspberry and cocoa. Best as a pour-over at 90 °C, a little cooler than usual.",
      notes: ['Passion fruit', 'Raspberry', 'Cocoa'],
    },
    pl: {
      name: 'Lombok Sembalun Anaerobic',
      description:
        'Sembalun to wysoko położona dolina na wschodnim zboczu Rinjani, wielkiego wulkanu Lomboku. Ta mała partia fermentowała 72 godziny w szczelnie zamkniętych zbiornikach, zanim trafiła do suszenia, a w filiżance jest wyjątkowo owocowa: marakuja, malina i kakao. Najlepsza z przelewu w 90 °C, nieco chłodniej niż zwykle.',
      notes: ['marakuja', 'malina', 'kakao'],
    },
    imageCount: 2,
    palette: palettes.sembalun,
  },

  // ── Ground coffee ───────────────────────────────────────────────────────────────────────────
  {
    key: 'malabar-ground-filter',
    category: 'groundCoffee',
    grind: 'filter',
    priceCents: 1390,
    origin: 'Java',
    region: 'Mount Malabar, West Java',
    altitudeMin: 1400,
    altitudeMax: 1600,
    process: 'washed',
    roast: 'medium',
    daysAgo: 31,
    en: {
      name: 'Java Malabar, Ground',
      description:
        'From farmers on the slopes of Mount Malabar, south of Bandung, where coffee grows beside the tea gardens. Washed, roasted to a sweet medium and ground medium-fine for drip machines and pour-over: milk chocolate, roasted almond and brown sugar. Use 60 g of coffee per litre of water.',
      notes: ['Milk chocolate', 'Roasted almond', 'Brown sugar'],
    },
    pl: {
      name: 'Jawa Malabar, mielona',
      description:
        'Od rolników ze zboczy góry Malabar na południe od Bandungu, gdzie kawa rośnie tuż obok plantacji herbaty. Myta, palona na słodki, średni poziom i mielona średnio drobno do ekspresu przelewowego i dripa: mleczna czekolada, prażony migdał i brązowy cukier. Dawkuj 60 g kawy na litr wody.',
      notes: ['mleczna czekolada', 'prażony migdał', 'brązowy cukier'],
    },
    imageCount: 2,
    palette: palettes.malabar,
  },
  {
    key: 'kalosi-ground-moka',
    category: 'groundCoffee',
    grind: 'mokaPot',
    priceCents: 1490,
    origin: 'Sulawesi',
    region: 'Kalosi, Enrekang',
    altitudeMin: 1400,
    altitudeMax: 1800,
    process: 'wetHulled',
    roast: 'mediumDark',
    daysAgo: 46,
    en: {
      name: 'Sulawesi Kalosi, Ground',
      description:
        'Kalosi is the market town of Enrekang, just south of Toraja, where coffee from the surrounding mountains has been traded for a century. Wet-hulled and roasted a little darker, it brings dark chocolate, spice and an earthy sweetness. Ground fine for the moka pot and other stovetop brewers.',
      notes: ['Dark chocolate', 'Spice', 'Earthy'],
    },
    pl: {
      name: 'Sulawesi Kalosi, mielona',
      description:
        'Kalosi to targowe miasteczko w regionie Enrekang, tuż na południe od Toraji, gdzie od stu lat handluje się kawą z okolicznych gór. Obłuszczana na mokro i palona nieco ciemniej, daje gorzką czekoladę, przyprawy i ziemistą słodycz. Kawa mielona drobno, do kawiarki i innych zaparzaczy na kuchenkę.',
      notes: ['gorzka czekolada', 'przyprawy', 'ziemisty'],
    },
    imageCount: 3,
    palette: palettes.kalosi,
  },
  {
    key: 'gayo-ground-french-press',
    category: 'groundCoffee',
    grind: 'frenchPress',
    priceCents: 1450,
    origin: 'Sumatra',
    region: 'Takengon, Aceh Gayo',
    altitudeMin: 1300,
    altitudeMax: 1600,
    process: 'washed',
    roast: 'medium',
    daysAgo: 54,
    en: {
      name: 'Aceh Gayo, Ground',
      description:
        'A fully washed Gayo from farms around Lake Laut Tawar near Takengon, grown under shade trees at 1,300 to 1,600 metres. Coarsely ground for the French press, it is round and sweet: caramel, cocoa and a squeeze of lime. Steep for 4 minutes, 65 g per litre.',
      notes: ['Caramel', 'Cocoa', 'Lime'],
    },
    pl: {
      name: 'Aceh Gayo, mielona',
      description:
        'W pełni myta Gayo z farm nad jeziorem Laut Tawar koło Takengon, uprawiana w cieniu drzew na wysokości 1300–1600 metrów. Grubo mielona do french pressa, okrągła i słodka: karmel, kakao i odrobina limonki. Parz 4 minuty, 65 g kawy na litr wody.',
      notes: ['karmel', 'kakao', 'limonka'],
    },
    imageCount: 2,
    palette: palettes.gayo,
  },
  {
    key: 'kintamani-ground-filter',
    category: 'groundCoffee',
    grind: 'filter',
    priceCents: 1390,
    origin: 'Bali',
    region: 'Kintamani, Bangli',
    altitudeMin: 1100,
    altitudeMax: 1500,
    process: 'washed',
    roast: 'medium',
    daysAgo: 60,
    en: {
      name: 'Bali Kintamani, Ground',
      description:
        'Washed coffee from the Kintamani highlands, grown among orange trees on the volcanic soil around Lake Batur. Ground medium for filter machines and pour-over, it tastes bright and friendly: orange, honey and walnut. Lovely over ice, too.',
      notes: ['Orange', 'Honey', 'Walnut'],
    },
    pl: {
      name: 'Bali Kintamani, mielona',
      description:
        'Myta kawa z wyżyny Kintamani, uprawiana wśród drzewek pomarańczowych na wulkanicznej glebie wokół jeziora Batur. Mielona średnio, do ekspresu przelewowego i dripa, smakuje jasno i przyjaźnie: pomarańcza, miód i orzech włoski. Świetna także na lodzie.',
      notes: ['pomarańcza', 'miód', 'orzech włoski'],
    },
    imageCount: 1,
    palette: palettes.kintamani,
  },
  {
    key: 'manggarai-dark-ground-espresso',
    category: 'groundCoffee',
    grind: 'espresso',
    priceCents: 1290,
    origin: 'Flores',
    region: 'Manggarai, Ruteng',
    altitudeMin: 1200,
    altitudeMax: 1500,
    process: 'wetHulled',
    roast: 'dark',
    daysAgo: 72,
    en: {
      name: 'Flores Manggarai Dark, Ground',
      description:
        'In Manggarai, western Flores, coffee grows on steep slopes around the town of Ruteng, often beside clove trees and vanilla vines. Roasted dark and ground fine for espresso machines: dark cocoa, molasses and a gentle smoky edge, with a body that carries milk well.',
      notes: ['Dark cocoa', 'Molasses', 'Smoky'],
    },
    pl: {
      name: 'Flores Manggarai Dark, mielona',
      description:
        'W Manggarai, na zachodzie Flores, kawa rośnie na stromych zboczach wokół miasteczka Ruteng, często obok goździkowców i pnączy wanilii. Palona ciemno i mielona drobno do ekspresu ciśnieniowego: ciemne kakao, melasa i delikatna dymna nuta, a do tego body, które dobrze znosi mleko.',
      notes: ['ciemne kakao', 'melasa', 'dymna nuta'],
    },
    imageCount: 2,
    palette: palettes.manggarai,
  },
  {
    key: 'mollo-timor-ground-aeropress',
    category: 'groundCoffee',
    grind: 'aeropress',
    priceCents: 1350,
    origin: 'Timor',
    region: 'Mollo highlands, West Timor',
    altitudeMin: 1100,
    altitudeMax: 1500,
    process: 'natural',
    roast: 'medium',
    daysAgo: 88,
    en: {
      name: 'West Timor Mollo, Ground',
      description:
        'A small natural lot from the Mollo highlands below Mount Mutis, in Indonesian West Timor, where coffee is a young crop grown next to maize and beans. Dried in the whole cherry, it tastes of dried apricot, nougat and cinnamon. Ground medium-fine for the AeroPress and pour-over.',
      notes: ['Dried apricot', 'Nougat', 'Cinnamon'],
    },
    pl: {
      name: 'Timor Zachodni Mollo, mielona',
      description:
        'Mała partia naturalna z wyżyny Mollo u stóp góry Mutis, w indonezyjskiej części Timoru, gdzie kawa to młoda uprawa, rosnąca obok kukurydzy i fasoli. Suszona w całych owocach smakuje suszoną morelą, nugatem i cynamonem. Mielona średnio drobno, do AeroPressu i przelewu.',
      notes: ['suszona morela', 'nugat', 'cynamon'],
    },
    imageCount: 2,
    palette: palettes.timor,
  },

  // ── Drip coffee bags ────────────────────────────────────────────────────────────────────────
  {
    key: 'gayo-drip-bags',
    category: 'dripCoffeeBags',
    priceCents: 1190,
    origin: 'Sumatra',
    region: 'Aceh Gayo highlands',
    altitudeMin: 1400,
    altitudeMax: 1650,
    process: 'washed',
    roast: 'light',
    daysAgo: 10,
    en: {
      name: 'Gayo Drip Bags',
      description:
        'Our washed Gayo, freshly ground and sealed with nitrogen in single-cup pour-over bags. Hang a bag on your cup, pour 180 ml of water just off the boil in three slow pours, and in two minutes you have a clean, sweet filter coffee with brown sugar, red apple and black tea. Made for the office, the tent and the train.',
      notes: ['Brown sugar', 'Red apple', 'Black tea'],
    },
    pl: {
      name: 'Gayo w saszetkach drip',
      description:
        'Nasza myta Gayo, świeżo zmielona i zamknięta w azocie w saszetkach do zaparzania jednej filiżanki. Zawieś saszetkę na kubku, zalej ją 180 ml wody tuż po zagotowaniu w trzech powolnych porcjach, a po dwóch minutach masz czystą, słodką kawę przelewową: brązowy cukier, czerwone jabłko i czarna herbata. Do biura, namiotu i pociągu.',
      notes: ['brązowy cukier', 'czerwone jabłko', 'czarna herbata'],
    },
    imageCount: 3,
    palette: palettes.gayo,
  },
  {
    key: 'kintamani-drip-bags',
    category: 'dripCoffeeBags',
    priceCents: 1290,
    origin: 'Bali',
    region: 'Kintamani highlands, Mount Batur',
    altitudeMin: 1200,
    altitudeMax: 1600,
    process: 'natural',
    roast: 'light',
    daysAgo: 6,
    en: {
      name: 'Bali Kintamani Drip Bags',
      description:
        'The citrus-bright natural from Kintamani in a pour-over bag you can take anywhere. Each bag holds 12 g of coffee ground for a two- to three-minute brew; expect mandarin, honey and a cocoa finish. Pour 180–200 ml of water at 92 °C.',
      notes: ['Mandarin', 'Honey', 'Cocoa'],
    },
    pl: {
      name: 'Bali Kintamani w saszetkach drip',
      description:
        'Cytrusowa, naturalna kawa z Kintamani w saszetce do przelewu, którą zabierzesz wszędzie. W każdej saszetce 12 g kawy zmielonej na dwie, trzy minuty parzenia; w filiżance mandarynka, miód i kakaowy finisz. Zalej 180–200 ml wody o temperaturze 92 °C.',
      notes: ['mandarynka', 'miód', 'kakao'],
    },
    imageCount: 3,
    palette: palettes.kintamani,
  },
  {
    key: 'toraja-drip-bags',
    category: 'dripCoffeeBags',
    priceCents: 1250,
    origin: 'Sulawesi',
    region: 'Tana Toraja',
    altitudeMin: 1400,
    altitudeMax: 1800,
    process: 'wetHulled',
    roast: 'medium',
    daysAgo: 38,
    en: {
      name: 'Toraja Drip Bags',
      description:
        'Wet-hulled Toraja in handy pour-over bags: a full, comforting cup of dark chocolate, plum and a touch of cedar. Brew 180 ml straight into your mug; it takes a splash of milk well.',
      notes: ['Dark chocolate', 'Plum', 'Cedar'],
    },
    pl: {
      name: 'Toraja w saszetkach drip',
      description:
        'Obłuszczana na mokro Toraja w wygodnych saszetkach do przelewu: pełny, otulający napar z gorzką czekoladą, śliwką i nutą cedru. Zaparz 180 ml prosto do kubka; dobrze znosi odrobinę mleka.',
      notes: ['gorzka czekolada', 'śliwka', 'cedr'],
    },
    imageCount: 2,
    palette: palettes.toraja,
  },
  {
    key: 'wamena-drip-bags',
    category: 'dripCoffeeBags',
    priceCents: 1390,
    origin: 'Papua',
    region: 'Baliem Valley, Wamena',
    altitudeMin: 1500,
    altitudeMax: 2000,
    process: 'washed',
    roast: 'medium',
    daysAgo: 17,
    en: {
      name: 'Papua Wamena Drip Bags',
      description:
        'Our rare Baliem Valley coffee, ready for the road. Each bag brews one gentle, sweet cup of hazelnut, cacao and dried fig. Pour 180 ml of water at 93 °C in three stages and let it drip through.',
      notes: ['Hazelnut', 'Cacao', 'Dried fig'],
    },
    pl: {
      name: 'Papua Wamena w saszetkach drip',
      description:
        'Nasza rzadka kawa z doliny Baliem, gotowa do drogi. Z każdej saszetki zaparzysz jedną łagodną, słodką filiżankę: orzech laskowy, kakao i suszona figa. Zalej 180 ml wody o temperaturze 93 °C w trzech porcjach i poczekaj, aż przecieknie.',
      notes: ['orzech laskowy', 'kakao', 'suszona figa'],
    },
    imageCount: 1,
    palette: palettes.wamena,
  },
  {
    key: 'ijen-drip-bags',
    category: 'dripCoffeeBags',
    priceCents: 990,
    origin: 'Java',
    region: 'Ijen Plateau, East Java',
    altitudeMin: 1100,
    altitudeMax: 1500,
    process: 'washed',
    roast: 'medium',
    daysAgo: 50,
    en: {
      name: 'Java Ijen Drip Bags',
      description:
        'Clean, balanced Java from the Ijen plateau, ground and packed in single-cup filter bags. Milk chocolate, clove and a little lemon peel: an everyday cup that is hard to get wrong. Pour 180 ml of hot water in three stages.',
      notes: ['Milk chocolate', 'Clove', 'Lemon peel'],
    },
    pl: {
      name: 'Jawa Ijen w saszetkach drip',
      description:
        'Czysta, zrównoważona Jawa z płaskowyżu Ijen, zmielona i zapakowana w filtry na jedną filiżankę. Mleczna czekolada, goździk i odrobina skórki cytryny: codzienna kawa, której trudno nie udać. Zalej 180 ml gorącej wody w trzech etapach.',
      notes: ['mleczna czekolada', 'goździk', 'skórka cytryny'],
    },
    imageCount: 2,
    palette: palettes.ijen,
  },

  // ── Capsules and pods ───────────────────────────────────────────────────────────────────────
  {
    key: 'mandheling-capsules',
    category: 'capsulesAndPods',
    priceCents: 690,
    origin: 'Sumatra',
    region: 'Mandailing Natal, North Sumatra',
    altitudeMin: 1100,
    altitudeMax: 1500,
    process: 'wetHulled',
    roast: 'dark',
    daysAgo: 64,
    en: {
      name: 'Sumatra Mandheling Capsules',
      description:
        'Ten aluminium capsules compatible with Nespresso® Original machines, each holding 5.5 g of our Mandheling roasted dark for espresso. A thick, syrupy shot with dark chocolate, cedar and an earthy finish; perfect under milk.',
      notes: ['Dark chocolate', 'Cedar', 'Earthy'],
    },
    pl: {
      name: 'Sumatra Mandheling w kapsułkach',
      description:
        'Dziesięć aluminiowych kapsułek kompatybilnych z ekspresami Nespresso® Original, w każdej 5,5 g naszej Mandheling palonej ciemno do espresso. Gęste, syropowe espresso z gorzką czekoladą, cedrem i ziemistym finiszem; doskonałe z mlekiem.',
      notes: ['gorzka czekolada', 'cedr', 'ziemisty'],
    },
    imageCount: 2,
    palette: palettes.mandheling,
  },
  {
    key: 'preanger-capsules',
    category: 'capsulesAndPods',
    priceCents: 650,
    origin: 'Java',
    region: 'Priangan highlands, West Java',
    altitudeMin: 1300,
    altitudeMax: 1600,
    process: 'washed',
    roast: 'medium',
    daysAgo: 77,
    en: {
      name: 'West Java Preanger Capsules',
      description:
        'A washed Preanger roasted medium for a sweet, balanced espresso or lungo from Nespresso® Original compatible capsules. Caramel, red berries and hazelnut. The aluminium is recyclable; 5.5 g of coffee per capsule.',
      notes: ['Caramel', 'Red berries', 'Hazelnut'],
    },
    pl: {
      name: 'Preanger z Jawy Zachodniej w kapsułkach',
      description:
        'Myta Preanger palona średnio, na słodkie, zrównoważone espresso lub lungo z kapsułek kompatybilnych z Nespresso® Original. Karmel, czerwone owoce i orzech laskowy. Aluminium nadaje się do recyklingu; w każdej kapsułce 5,5 g kawy.',
      notes: ['karmel', 'czerwone owoce', 'orzech laskowy'],
    },
    imageCount: 1,
    palette: palettes.preanger,
  },
  {
    key: 'kintamani-lungo-capsules',
    category: 'capsulesAndPods',
    priceCents: 720,
    origin: 'Bali',
    region: 'Kintamani highlands, Mount Batur',
    altitudeMin: 1200,
    altitudeMax: 1600,
    process: 'natural',
    roast: 'medium',
    daysAgo: 25,
    en: {
      name: 'Bali Kintamani Lungo Capsules',
      description:
        'Our Kintamani natural, roasted a touch lighter for a long cup: pull 110 ml for a lungo full of orange, honey and milk chocolate. Aluminium capsules compatible with Nespresso® Original machines.',
      notes: ['Orange', 'Honey', 'Milk chocolate'],
    },
    pl: {
      name: 'Bali Kintamani Lungo w kapsułkach',
      description:
        'Nasza naturalna Kintamani, palona odrobinę jaśniej z myślą o dłuższej kawie: przygotuj 110 ml lungo pełnego pomarańczy, miodu i mlecznej czekolady. Aluminiowe kapsułki kompatybilne z ekspresami Nespresso® Original.',
      notes: ['pomarańcza', 'miód', 'mleczna czekolada'],
    },
    imageCount: 3,
    palette: palettes.kintamani,
  },
  {
    key: 'toraja-espresso-capsules',
    category: 'capsulesAndPods',
    priceCents: 750,
    origin: 'Sulawesi',
    region: 'Tana Toraja',
    altitudeMin: 1400,
    altitudeMax: 1800,
    process: 'wetHulled',
    roast: 'mediumDark',
    daysAgo: 44,
    en: {
      name: 'Toraja Espresso Capsules',
      description:
        "Toraja's velvety body makes a superb ristretto: dark caramel, plum and a spicy finish from Nespresso® Original compatible capsules. 5.5 g of coffee in each capsule, sealed under nitrogen to stay fresh.",
      notes: ['Dark caramel', 'Plum', 'Spice'],
    },
    pl: {
      name: 'Toraja Espresso w kapsułkach',
      description:
        'Aksamitne body Toraji to przepis na świetne ristretto: ciemny karmel, śliwka i korzenny finisz, z kapsułek kompatybilnych z Nespresso® Original. W każdej kapsułce 5,5 g kawy, zamkniętej w azocie, by dłużej była świeża.',
      notes: ['ciemny karmel', 'śliwka', 'przyprawy korzenne'],
    },
    imageCount: 2,
    palette: palettes.toraja,
  },
  {
    key: 'lintong-ese-pods',
    category: 'capsulesAndPods',
    priceCents: 850,
    origin: 'Sumatra',
    region: 'Lintong Nihuta, Lake Toba',
    altitudeMin: 1300,
    altitudeMax: 1500,
    process: 'wetHulled',
    roast: 'mediumDark',
    daysAgo: 99,
    en: {
      name: 'Lintong Espresso Pods (ESE)',
      description:
        'Eighteen 44 mm paper pods in the ESE standard, each filled with 7 g of Lintong roasted for espresso. No capsule waste, only compostable filter paper: molasses, clove and blackcurrant in a sweet, heavy shot.',
      notes: ['Molasses', 'Clove', 'Blackcurrant'],
    },
    pl: {
      name: 'Lintong w padach ESE',
      description:
        'Osiemnaście papierowych padów w standardzie ESE, o średnicy 44 mm, w każdym 7 g kawy Lintong palonej do espresso. Żadnych kapsułek, tylko kompostowalny papier filtracyjny: melasa, goździk i czarna porzeczka w słodkim, gęstym espresso.',
      notes: ['melasa', 'goździk', 'czarna porzeczka'],
    },
    imageCount: 2,
    palette: palettes.lintong,
  },
];
