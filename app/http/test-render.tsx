/**
 * Test helper: a document request to one route module, from source, as React Router answers a browser without
 * JavaScript: its action (for a POST) and loader, then its page (or its ErrorBoundary) rendered in a bare frame
 * that gives it the language's common messages. Returns the status and the HTML; the shop's own frame (header,
 * footer, middleware) is not part of it, so the contexts come from `routeArgs`.
 */
import { renderToString } from 'react-dom/server';
import { Outlet, type RouterContextProvider, StaticRouterProvider, createStaticHandler, createStaticRouter, useActionData, useLoaderData } from 'react-router';
import { getMessages } from '~/modules/i18n/index.server';
import { I18nProvider } from '~/modules/i18n/react';
import type { Locale } from '~/modules/i18n/translate';

type RouteModule = {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
  default: React.ComponentType<never>;
  ErrorBoundary?: React.ComponentType;
};

export async function renderRoute(
  module: RouteModule,
  /** The route's path pattern as routes.ts has it, e.g. `product/:id`. */
  path: string,
  request: Request,
  context: RouterContextProvider,
  locale: Locale = 'en',
): Promise<{ status: number; html: string }> {
  const Page = module.default as React.ComponentType<{ loaderData: unknown; actionData: unknown; params: unknown }>;
  const handler = createStaticHandler([
    {
      id: 'root',
      path: '/',
      loader: () => ({ messages: getMessages(locale, 'common') }),
      Component: () => (
        <I18nProvider locale={locale} currency="EUR">
          <Outlet />
        </I18nProvider>
      ),
      children: [
        {
          id: 'page',
          path,
          loader: module.loader as never,
          action: module.action as never,
          Component: function RoutePage() {
            const { loaderData, actionData } = useRouteData();
            return <Page loaderData={loaderData} actionData={actionData} params={{}} />;
          },
          ErrorBoundary: module.ErrorBoundary,
        },
      ],
    },
  ]);
  const answer = await handler.query(request, { requestContext: context });
  if (answer instanceof Response) return { status: answer.status, html: await answer.text() };
  const router = createStaticRouter(handler.dataRoutes, answer);
  const html = renderToString(<StaticRouterProvider router={router} context={answer} hydrate={false} />);
  return { status: answer.statusCode, html };
}

function useRouteData() {
  return { loaderData: useLoaderData(), actionData: useActionData() };
}
