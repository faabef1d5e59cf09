/**
 * The demo shop's customers and their reviews. Each customer has one delivered order with the coffees they
 * review; the seed writes the reviews through the same function a customer's review goes through
 * (app/modules/reviews), so a fresh demo shows ratings that real, checkable reviews stand behind.
 * Plain data, so tests can work out the figures the pages must show.
 */
export type DemoReview = { product: string; rating: 1 | 2 | 3 | 4 | 5; body: string };
export type DemoCustomer = {
  name: string;
  email: string;
  locale: 'en' | 'pl';
  /** The order was placed this many days ago (before the dashboard's default 30 days) and delivered three days later; the reviews follow. */
  orderedDaysAgo: number;
  reviews: DemoReview[];
};

export const demoCustomers: DemoCustomer[] = [
  {
    name: 'Anna Kowalska',
    email: 'anna.kowalska@demo.kopi.invalid',
    locale: 'pl',
    orderedDaysAgo: 38,
    reviews: [
      { product: 'gayo-wine-natural', rating: 5, body: 'Pachnie jak dojrzałe wiśnie i czerwone wino. Z dripa wychodzi słodka i czysta, kupię znowu.' },
      { product: 'kintamani-natural', rating: 4, body: 'Dużo owoców, trochę za jasno palona na moje espresso, ale w przelewie świetna.' },
      { product: 'gayo-drip-bags', rating: 5, body: 'Idealne do pracy i w podróż. Każda saszetka tak samo dobra.' },
    ],
  },
  {
    name: 'Marek Nowak',
    email: 'marek.nowak@demo.kopi.invalid',
    locale: 'pl',
    orderedDaysAgo: 45,
    reviews: [
      { product: 'mandheling-grade-one', rating: 5, body: 'Gęsta, ziemista, z nutą kakao. Najlepsza kawa do kawiarki, jaką piłem.' },
      { product: 'toraja-sapan', rating: 4, body: '' },
      { product: 'kalosi-ground-moka', rating: 2, body: 'Za gruby przemiał jak na moją kawiarkę, kawa wyszła wodnista. Smak poprawny.' },
    ],
  },
  {
    name: 'Zofia Wiśniewska',
    email: 'zofia.wisniewska@demo.kopi.invalid',
    locale: 'pl',
    orderedDaysAgo: 52,
    reviews: [
      { product: 'sembalun-anaerobic', rating: 5, body: 'Coś zupełnie innego: tropikalne owoce i cynamon. Warto spróbować choć raz.' },
      { product: 'kintamani-drip-bags', rating: 4, body: 'Cytrusowa i lekka, dobra na popołudnie.' },
    ],
  },
  {
    name: 'Emma Fischer',
    email: 'emma.fischer@demo.kopi.invalid',
    locale: 'en',
    orderedDaysAgo: 59,
    reviews: [
      { product: 'gayo-wine-natural', rating: 4, body: 'Boozy and fruity, exactly as described. A little intense for every day, a treat at weekends.' },
      { product: 'ijen-plateau-washed', rating: 5, body: 'Clean, bright and sweet. My go-to for the V60 now.' },
      { product: 'mandheling-capsules', rating: 3, body: 'Good body, but I expected more crema from a capsule.' },
    ],
  },
  {
    name: 'Lucas Martin',
    email: 'lucas.martin@demo.kopi.invalid',
    locale: 'en',
    orderedDaysAgo: 66,
    reviews: [
      { product: 'mandheling-grade-one', rating: 4, body: 'Heavy and chocolatey, great with milk.' },
      { product: 'wamena-baliem-valley', rating: 5, body: 'Sweet and balanced, with a lovely nutty finish. Roasted two days before it arrived.' },
      { product: 'preanger-natural', rating: 4, body: '' },
    ],
  },
  {
    name: 'Sofia Rossi',
    email: 'sofia.rossi@demo.kopi.invalid',
    locale: 'en',
    orderedDaysAgo: 73,
    reviews: [
      { product: 'kintamani-natural', rating: 5, body: 'Strawberry and citrus in the cup. Beautiful as a pour-over.' },
      { product: 'bajawa-honey', rating: 4, body: 'Smooth and sweet, almost no bitterness.' },
      { product: 'toraja-espresso-capsules', rating: 1, body: 'Two capsules of the box did not fit my machine. The ones that did tasted fine.' },
    ],
  },
];

/** The figures a coffee must show: average to one decimal and count, from the demo reviews. */
export function demoRating(productKey: string): { rating: number; reviewCount: number } {
  const ratings = demoCustomers.flatMap((c) => c.reviews.filter((r) => r.product === productKey).map((r) => r.rating));
  const reviewCount = ratings.length;
  const rating = reviewCount ? Math.round((ratings.reduce((a, b) => a + b, 0) / reviewCount) * 10) / 10 : 0;
  return { rating, reviewCount };
}
