import { LayoutDashboard, PackagePlus, ReceiptText } from 'lucide-react';

/**
 * The back-office pages the site header links to for an admin (three, so the header fits; `end`: active only on
 * that exact path). Kept apart from the whole list (admin-links.ts) so that every storefront page does not carry
 * the back office's other icons.
 */
export const dashboardLink = { to: '/admin', key: 'manage.dashboard', Icon: LayoutDashboard, header: true, end: true } as const;
export const ordersLink = { to: '/admin/orders', key: 'manage.orders', Icon: ReceiptText, header: true, end: false } as const;
export const addProductLink = { to: '/add-product', key: 'manage.addProduct', Icon: PackagePlus, header: true, end: false } as const;

export const headerAdminLinks = [dashboardLink, ordersLink, addProductLink] as const;
