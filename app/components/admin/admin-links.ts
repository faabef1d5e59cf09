import { History, LayoutGrid, PackagePlus, ReceiptText } from 'lucide-react';

/** The back office's pages, in the order its navigation shows them; `header`: also linked from the site header. */
export const adminLinks = [
  { to: '/admin/orders', key: 'manage.orders', Icon: ReceiptText, header: true },
  { to: '/admin/products', key: 'manage.products', Icon: LayoutGrid, header: true },
  { to: '/add-product', key: 'manage.addProduct', Icon: PackagePlus, header: true },
  { to: '/admin/activity', key: 'manage.activity', Icon: History, header: false },
] as const;

export const headerAdminLinks = adminLinks.filter((link) => link.header);
