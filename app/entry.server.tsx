import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { type EntryContext, type HandleErrorFunction, type RouterContextProvider, ServerRouter, isRouteErrorResponse } from 'react-router';
import { appContext } from '~/context';
import { deferHydration } from '~/http/deferred-hydration.server';
import { FormKeyContext } from '~/lib/form-key';
import { NonceContext } from '~/lib/nonce';
import { shopperContext } from '~/http/shopper.server';
import { defaultLocale } from '~/modules/i18n/index.server';
import { RequestLocaleContext } from '~/modules/i18n/request-locale';

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const app = loadContext.get(appContext);
  const nonce = app.nonce;
  return new Promise<Response>((resolve, reject) => {
    // Pages carry no deferred data, so waiting for the whole render costs nothing, lets the page cache
    // store complete documents with their final status code, and lets the browser code wait for the page.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <FormKeyContext.Provider value={app.formKey}>
          <RequestLocaleContext.Provider value={requestLocale(loadContext)}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </RequestLocaleContext.Provider>
        </FormKeyContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          const chunks: Buffer[] = [];
          const collect = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              const html = Buffer.concat(chunks).toString('utf8');
              responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
              resolve(new Response(import.meta.env.DEV ? html : deferHydration(html), { headers: responseHeaders, status: responseStatusCode }));
              done();
            },
          });
          pipe(collect);
        },
        onShellError: reject,
        onError(error) {
          responseStatusCode = 500;
          app.log.error({ err: error }, 'render error');
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/** The shopper's language; before the shopper middleware ran (an error in it), the shop's default. */
function requestLocale(context: RouterContextProvider) {
  try {
    return context.get(shopperContext).locale;
  } catch {
    return defaultLocale;
  }
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const log = (context as RouterContextProvider | undefined)?.get(appContext).log;
  // A 4xx React Router raises itself (a POST to a page without a form, an unknown method) is the client's mistake.
  if (isRouteErrorResponse(error) && error.status < 500) log?.info({ status: error.status, url: request.url }, 'request refused');
  else log?.error({ err: error, url: request.url }, 'unexpected error');
};
