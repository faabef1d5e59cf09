import { Link, data } from 'react-router';
import { LegalBlocks } from '~/components/legal/legal-document';
import { appContext } from '~/context';
import { shopperContext } from '~/http/shopper.server';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { legalDocument } from '~/modules/legal/legal.server';
import { isLegalPage, legalPages, legalPath } from '~/modules/legal/pages';
import type { Route } from './+types/legal';

/** Terms of sale, privacy, cookies, shipping and returns, the seller: the owner's files or Kopi's templates. */
export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isLegalPage(params.page)) throw data(null, { status: 404 });
  const { config } = context.get(appContext);
  const { locale } = context.get(shopperContext);
  const document = await legalDocument(config, params.page, locale);
  return {
    page: params.page,
    document,
    meta: { title: `${document.title} · Kopi`, description: getT(locale)('legal.pages.' + params.page) },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.meta.title },
  { name: 'description', content: loaderData?.meta.description },
];

export default function LegalPageView({ loaderData }: Route.ComponentProps) {
  const { t, path } = useI18n();
  const { page, document } = loaderData;
  return (
    <div className="container-page grid gap-12 py-12 md:py-16 lg:grid-cols-[1fr_16rem]">
      <article className="max-w-3xl">
        <h1 className="text-4xl leading-tight font-semibold md:text-5xl">{document.title}</h1>
        {!document.fromOwner && (
          <p className="mt-6 rounded-2xl bg-sand/50 px-5 py-4 text-sm text-roast-800" data-testid="legal-template">
            {t('legal.template')}
          </p>
        )}
        <LegalBlocks blocks={document.blocks} />
      </article>
      <nav aria-labelledby="legal-related" className="lg:sticky lg:top-28 lg:self-start">
        <h2 id="legal-related" className="text-xs font-semibold tracking-[0.18em] text-muted uppercase">
          {t('legal.heading')}
        </h2>
        <ul className="mt-4 space-y-1">
          {legalPages.map((other) => (
            <li key={other}>
              <Link
                to={path(legalPath(other))}
                aria-current={other === page ? 'page' : undefined}
                className="block rounded-xl px-3 py-2 text-sm hover:bg-sand/50 aria-[current=page]:bg-paper aria-[current=page]:font-semibold aria-[current=page]:ring-1 aria-[current=page]:ring-sand"
              >
                {t(`legal.pages.${other}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
