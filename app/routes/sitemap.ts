import { appContext } from '~/context';
import { listProductDates } from '~/modules/catalog/index.server';
import { localePath, siteUrlOf } from '~/modules/i18n/paths';
import { locales } from '~/modules/i18n/translate';
import { legalPages, legalPath } from '~/modules/legal/pages';
import type { Route } from './+types/sitemap';

/** The public pages a shopper may land on from a search engine; the rest are a shopper's own (robots.txt). */
const PUBLIC_PAGES = ['/', '/categories', '/about', '/contact', ...legalPages.map(legalPath)];

/**
 * Every public page and every product, in both languages, each with its other-language alternates and, for
 * products, the date it last changed. Built from the database on each request (a few thousand rows at most).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const site = siteUrlOf(app.config.publicUrl);
  const products = await listProductDates(app.db);
  const entries = [
    ...PUBLIC_PAGES.map((path) => ({ path, lastmod: null as string | null })),
    ...products.map((p) => ({ path: `/product/${p.id}`, lastmod: p.updatedAt })),
  ];
  const urls = entries.flatMap(({ path, lastmod }) =>
    locales.map((locale) =>
      [
        '  <url>',
        `    <loc>${escapeXml(site + localePath(locale, path))}</loc>`,
        ...(lastmod ? [`    <lastmod>${new Date(lastmod).toISOString()}</lastmod>`] : []),
        ...locales.map((other) => `    <xhtml:link rel="alternate" hreflang="${other}" href="${escapeXml(site + localePath(other, path))}"/>`),
        `    <xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(site + path)}"/>`,
        '  </url>',
      ].join('\n'),
    ),
  );
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' } });
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
