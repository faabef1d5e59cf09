import { NavLink, Outlet } from 'react-router';
import { adminLinks } from '~/components/admin/admin-links';
import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { countUnreadMessages } from '~/modules/contact/index.server';
import { countRecentReviews } from '~/modules/reviews/index.server';
import { getMessages } from '~/modules/i18n/index.server';
import { useT } from '~/modules/i18n/react';
import type { Route } from './+types/layout';

/**
 * Every back-office page and action sits under this layout. Its middleware refuses anyone who is not an admin
 * (sent home, nothing read or changed) before a child's loader or action runs; each child checks again.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context }, next) => {
    requireAdmin(context.get(shopperContext));
    const response = await next();
    response.headers.set('X-Robots-Tag', 'noindex, nofollow');
    return response;
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  // Read on every back-office navigation, so the count follows what the owner just did (one indexed count).
  const db = context.get(appContext).db;
  const [unread, newReviews] = await Promise.all([countUnreadMessages(db), countRecentReviews(db, 7)]);
  return { messages: getMessages(shopper.locale, 'admin', 'orders', 'product', 'reviews', 'delivery', 'cart', 'invoices'), unread, newReviews };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { unread, newReviews } = loaderData;
  const link = ({ isActive }: { isActive: boolean }) =>
    `inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold transition-colors ${isActive ? 'bg-roast text-cream' : 'text-roast-600 hover:bg-roast/5'}`;
  return (
    <div className="container-page py-8 md:py-10">
      <nav aria-label={t('manage.backOffice')} className="mb-8 flex flex-wrap items-center gap-2 border-b border-sand pb-4">
        <span className="eyebrow mr-3">{t('manage.backOffice')}</span>
        {adminLinks.map(({ to, key, Icon, end }) => (
          <NavLink key={to} to={to} end={end} className={link}>
            <Icon aria-hidden="true" className="h-4 w-4" />
            {t(key)}
            {to === '/admin/messages' && unread > 0 && (
              <span className="rounded-full bg-leaf px-2 py-0.5 text-xs font-bold text-white tabular-nums" data-testid="unread-count">
                <span aria-hidden="true">{unread}</span>
                <span className="sr-only">{t('admin.nav.unread', { count: unread })}</span>
              </span>
            )}
            {to === '/admin/reviews' && newReviews > 0 && (
              <span className="rounded-full bg-gold px-2 py-0.5 text-xs font-bold text-roast tabular-nums" data-testid="new-reviews-count">
                <span aria-hidden="true">{newReviews}</span>
                <span className="sr-only">{t('admin.nav.newReviews', { count: newReviews })}</span>
              </span>
            )}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
