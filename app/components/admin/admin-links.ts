import { BadgePercent, Coins, FileText, History, Inbox, Landmark, LayoutGrid, Star, Truck, UsersRound } from 'lucide-react';
import { addProductLink, dashboardLink, ordersLink } from './header-admin-links';

/**
 * The back office's pages, in the order its navigation shows them; `header`: also linked from the site header
 * (header-admin-links.ts); `end`: active only on that exact path.
 */
export const adminLinks = [
  dashboardLink,
  ordersLink,
  { to: '/admin/invoices', key: 'manage.invoices', Icon: FileText, header: false, end: false },
  { to: '/admin/messages', key: 'manage.messages', Icon: Inbox, header: false, end: false },
  { to: '/admin/reviews', key: 'manage.reviews', Icon: Star, header: false, end: false },
  { to: '/admin/customers', key: 'manage.customers', Icon: UsersRound, header: false, end: false },
  { to: '/admin/products', key: 'manage.products', Icon: LayoutGrid, header: false, end: false },
  addProductLink,
  { to: '/admin/delivery', key: 'manage.delivery', Icon: Truck, header: false, end: false },
  { to: '/admin/promotions', key: 'manage.promotions', Icon: BadgePercent, header: false, end: false },
  { to: '/admin/currencies', key: 'manage.currencies', Icon: Coins, header: false, end: false },
  { to: '/admin/tax', key: 'manage.tax', Icon: Landmark, header: false, end: false },
  { to: '/admin/activity', key: 'manage.activity', Icon: History, header: false, end: false },
] as const;

