import { HandCoins, Flame, Tag } from 'lucide-react';
import { IndonesiaMap } from '~/components/about/indonesia-map';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useT } from '~/modules/i18n/react';
import { shopperContext } from '~/http/shopper.server';
import type { Route } from './+types/about';

/** The growing regions of the catalogue's coffees, marked on the map. */
const origins = ['gayo', 'mandheling', 'kerinci', 'preanger', 'ijen', 'toraja', 'kintamani', 'sembalun', 'bajawa', 'timor', 'wamena'] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const { locale } = context.get(shopperContext);
  const t = getT(locale);
  return {
    meta: { title: `${t('about.title')} · Kopi`, description: t('about.metaDescription') },
    messages: getMessages(locale, 'about'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.meta.title },
  { name: 'description', content: loaderData?.meta.description },
];

export default function AboutPage() {
  const t = useT();
  const labelled = origins.map((key) => ({ key, label: t(`about.origins.${key}`) }));
  return (
    <>
      <section className="container-page grid gap-10 py-12 md:py-20 lg:grid-cols-[1.1fr_1fr] lg:items-center">
        <div>
          <p className="eyebrow">{t('about.eyebrow')}</p>
          <h1 className="mt-3 text-4xl leading-tight font-semibold md:text-6xl">{t('about.heading')}</h1>
          <p className="mt-6 text-xl leading-relaxed text-roast-800">{t('about.lead')}</p>
        </div>
        <figure className="rounded-3xl bg-roast p-8 text-cream md:p-10">
          <blockquote className="font-serif text-2xl leading-snug italic md:text-3xl">“{t('about.quote.text')}”</blockquote>
          <figcaption className="mt-6 text-sm text-cream/80">— {t('about.quote.author')}</figcaption>
        </figure>
      </section>

      <section className="container-page grid gap-6 text-lg leading-relaxed text-roast-800 md:grid-cols-3">
        <p>{t('about.story.p1')}</p>
        <p>{t('about.story.p2')}</p>
        <p>{t('about.story.p3')}</p>
      </section>

      <section aria-labelledby="map-heading" className="container-page mt-16 md:mt-24">
        <div className="max-w-2xl">
          <h2 id="map-heading" className="text-3xl font-semibold md:text-4xl">{t('about.map.heading')}</h2>
          <p className="mt-3 text-lg text-muted">{t('about.map.intro')}</p>
        </div>
        <div className="mt-8 overflow-hidden rounded-3xl bg-paper ring-1 ring-sand">
          <IndonesiaMap
            title={t('about.map.title')}
            description={t('about.map.description', { origins: labelled.map((o) => o.label).join('; ') })}
            origins={labelled}
          />
        </div>
      </section>

      <section aria-labelledby="values-heading" className="container-page mt-16 md:mt-24">
        <h2 id="values-heading" className="text-3xl font-semibold md:text-4xl">{t('about.values.heading')}</h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {[
            { key: 'direct', icon: HandCoins },
            { key: 'fresh', icon: Flame },
            { key: 'honest', icon: Tag },
          ].map(({ key, icon: Icon }) => (
            <li key={key} className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
              <Icon aria-hidden="true" className="h-6 w-6 text-leaf" />
              <h3 className="mt-4 text-xl font-semibold">{t(`about.values.${key}.title`)}</h3>
              <p className="mt-2 text-muted">{t(`about.values.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <p className="container-page mt-16 text-center font-serif text-3xl text-roast italic md:mt-24 md:text-4xl">{t('about.tagline')}</p>
    </>
  );
}
