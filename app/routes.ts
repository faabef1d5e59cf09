import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

/**
 * The storefront's pages, once per language: English at the spec's paths, Polish under /pl
 * (app/modules/i18n/paths.ts). Both share one module; the Polish copy's ids end in "-pl".
 */
const storefront = (prefix: '' | 'pl') => {
  const at = (path: string) => (prefix ? `${prefix}/${path}` : path);
  const id = (file: string) => (prefix ? `${file}-pl` : file);
  const page = (path: string, file: string) => route(at(path), file, { id: id(file.replace(/\.tsx?$/, '')) });
  return [
    prefix ? route(prefix, 'routes/home.tsx', { id: 'routes/home-pl' }) : index('routes/home.tsx'),
    page('categories', 'routes/categories.tsx'),
    page('product/:id', 'routes/product.tsx'),
    page('cart', 'routes/cart.tsx'),
    page('about', 'routes/about.tsx'),
    page('checkout', 'routes/checkout.tsx'),
    page('success', 'routes/success.tsx'),
    page('contact', 'routes/contact.tsx'),
    page('legal/:page', 'routes/legal.tsx'),
    page('withdraw', 'routes/withdraw.tsx'),
    page('back-in-stock', 'routes/back-in-stock.tsx'),
    page('review', 'routes/review.tsx'),
    page('auth', 'routes/auth.tsx'),
    page('auth/reset', 'routes/auth.reset.tsx'),
    page('logout', 'routes/logout.ts'),
    page('profile', 'routes/profile.tsx'),
    page('profile/delete', 'routes/profile-delete.tsx'),
    page('order/:id', 'routes/order.tsx'),
    page('invoice/:orderId', 'routes/invoice.tsx'),
    // The test provider's stand-in bank (Przelewy24), answering 404 with any other provider.
    page('test-bank/:paymentId', 'routes/test-bank.tsx'),
  ];
};

export default [
  ...storefront(''),
  ...storefront('pl'),
  route('auth/google', 'routes/auth.google.ts'),
  route('auth/google/callback', 'routes/auth.google.callback.ts'),
  // The back office: the layout's middleware lets only admins in (everyone else is sent home).
  layout('routes/admin/layout.tsx', [
    route('admin', 'routes/admin/dashboard.tsx'),
    route('add-product', 'routes/admin/add-product.tsx'),
    route('edit-product/:id', 'routes/admin/edit-product.tsx'),
    route('admin/products', 'routes/admin/products.tsx'),
    route('admin/products/:id/delete', 'routes/admin/delete-product.tsx'),
    route('admin/products/:id/stock', 'routes/admin/product-stock.tsx'),
    route('admin/orders', 'routes/admin/orders.tsx'),
    route('admin/orders/export', 'routes/admin/orders-export.ts'),
    route('admin/orders/:id', 'routes/admin/order.tsx'),
    route('admin/orders/:id/label', 'routes/admin/order-label.ts'),
    route('admin/activity', 'routes/admin/activity.tsx'),
    route('admin/messages', 'routes/admin/messages.tsx'),
    route('admin/reviews', 'routes/admin/reviews.tsx'),
    route('admin/delivery', 'routes/admin/delivery.tsx'),
    route('admin/currencies', 'routes/admin/currencies.tsx'),
    route('admin/promotions', 'routes/admin/promotions.tsx'),
    route('admin/tax', 'routes/admin/tax.tsx'),
    route('admin/tax/oss-report', 'routes/admin/tax-report.ts'),
    route('admin/tax/ksef', 'routes/admin/ksef-batch.ts'),
    route('admin/invoices', 'routes/admin/invoices.tsx'),
    route('admin/invoices/:id/xml', 'routes/admin/invoice-xml.ts'),
    route('admin/invoices/:id/upo', 'routes/admin/invoice-upo.ts'),
    route('admin/customers', 'routes/admin/customers.tsx'),
    route('admin/customers/data', 'routes/admin/customer-data.ts'),
  ]),
  route('invoices/:id', 'routes/invoice-file.ts'),
  route('profile/data', 'routes/profile-data.ts'),
  route('language', 'routes/language.ts'),
  route('currency', 'routes/currency.tsx'),
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('api/events', 'routes/api.events.ts'),
  route('api/consent', 'routes/api.consent.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
