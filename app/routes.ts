import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('categories', 'routes/categories.tsx'),
  route('product/:id', 'routes/product.tsx'),
  route('cart', 'routes/cart.tsx'),
  route('about', 'routes/about.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('language', 'routes/language.ts'),
  route('api/events', 'routes/api.events.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
