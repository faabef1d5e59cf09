import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('categories', 'routes/categories.tsx'),
  route('product/:id', 'routes/product.tsx'),
  route('cart', 'routes/cart.tsx'),
  route('about', 'routes/about.tsx'),
  route('checkout', 'routes/checkout.tsx'),
  route('success', 'routes/success.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('auth', 'routes/auth.tsx'),
  route('auth/reset', 'routes/auth.reset.tsx'),
  route('auth/google', 'routes/auth.google.ts'),
  route('auth/google/callback', 'routes/auth.google.callback.ts'),
  route('logout', 'routes/logout.ts'),
  route('profile', 'routes/profile.tsx'),
  // The back office: the layout's middleware lets only admins in (everyone else is sent home).
  layout('routes/admin/layout.tsx', [
    route('admin', 'routes/admin/dashboard.tsx'),
    route('add-product', 'routes/admin/add-product.tsx'),
    route('edit-product/:id', 'routes/admin/edit-product.tsx'),
    route('admin/products', 'routes/admin/products.tsx'),
    route('admin/products/:id/delete', 'routes/admin/delete-product.tsx'),
    route('admin/orders', 'routes/admin/orders.tsx'),
    route('admin/orders/export', 'routes/admin/orders-export.ts'),
    route('admin/orders/:id', 'routes/admin/order.tsx'),
    route('admin/activity', 'routes/admin/activity.tsx'),
    route('admin/messages', 'routes/admin/messages.tsx'),
  ]),
  route('language', 'routes/language.ts'),
  route('api/events', 'routes/api.events.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
