import { appContext } from '~/context';
import { siteUrlOf } from '~/modules/i18n/paths';
import type { Route } from './+types/robots';

/** Pages that are a shopper's own or an owner's: never worth a crawler's visit, in either language. */
export const PRIVATE_PATHS = ['/cart', '/checkout', '/success', '/profile', '/auth', '/logout', '/review'];
const SINGLE_URL_PATHS = ['/admin', '/add-product', '/edit-product', '/language', '/api/'];

export function loader({ context }: Route.LoaderArgs) {
  const site = siteUrlOf(context.get(appContext).config.publicUrl);
  const lines = [
    'User-agent: *',
    ...PRIVATE_PATHS.flatMap((path) => [`Disallow: ${path}`, `Disallow: /pl${path}`]),
    ...SINGLE_URL_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${site}/sitemap.xml`,
    '',
  ];
  return new Response(lines.join('\n'), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
