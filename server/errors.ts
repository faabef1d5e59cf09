import type { NextFunction, Request, Response } from 'express';
import { type FailureKind, failureKindOf, failureStatus, failureTextKey } from '~/lib/failure';
import { type Locale, getT } from '~/modules/i18n/index.server';

/** The language for a page Express answers itself: Polish URLs and the language cookie choose Polish. */
export function roughLocale(req: Request): Locale {
  if (/^\/pl(\/|$)/.test(req.path)) return 'pl';
  // The signed cookie's payload is base64 JSON: "pl" is InBsIg. Only a page's language depends on it.
  return /(?:^|;\s*)lang=InBsIg/.test(req.get('cookie') ?? '') ? 'pl' : 'en';
}

/** The methods the shop answers: pages and their data are read with GET (and HEAD), forms post with POST. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST'] as const;
const allowed = new Set<string>(ALLOWED_METHODS);

/**
 * Any other method (PUT, DELETE, OPTIONS, TRACE …) is the client's mistake: a translated 405 with `Allow`,
 * logged as a refusal. Before this, TRACE and CONNECT reached the Fetch `Request`, which refuses them (a 500).
 */
export function refuseOtherMethods(req: Request, res: Response, next: NextFunction): void {
  if (allowed.has(req.method)) return next();
  req.log?.info({ method: req.method }, 'request refused');
  sendFailure(req, res, 'not_allowed');
}

const wantsJson = (req: Request) =>
  /^\/(api|webhooks)\//.test(req.path) || req.path.endsWith('.data') || !(req.get('accept') ?? 'text/html').includes('text/html');

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small page (or `{ error }` JSON) in the visitor's language, for failures answered before React Router. */
export function sendFailure(req: Request, res: Response, kind: FailureKind): void {
  if (kind === 'too_large') res.setHeader('Connection', 'close');
  if (kind === 'not_allowed') res.setHeader('Allow', ALLOWED_METHODS.join(', '));
  sendErrorPage(req, res, failureStatus[kind], kind, failureTextKey[kind]);
}

function sendErrorPage(req: Request, res: Response, status: number, error: string, textKey: string): void {
  res.status(status).setHeader('Cache-Control', 'no-store');
  const requestId = String(res.locals.requestId ?? '');
  if (wantsJson(req)) {
    res.json(status >= 500 ? { error, requestId } : { error });
    return;
  }
  const locale = roughLocale(req);
  const t = getT(locale);
  const title = t(`errors.${textKey}Title`);
  res.type('html').send(
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)} · Kopi</title><style>body{font-family:system-ui,sans-serif;background:#f7f1e8;color:#2b1a12;` +
      `max-width:36rem;margin:15vh auto;padding:0 1.5rem;line-height:1.5}a{color:#2f6b4f}</style></head><body>` +
      `<p>${escapeHtml(t('errors.status', { status: String(status) }))}</p><h1>${escapeHtml(title)}</h1>` +
      `<p>${escapeHtml(t(`errors.${textKey}Text`))}</p>${status >= 500 ? `<p><small>${escapeHtml(requestId)}</small></p>` : ''}<p><a href="${locale === 'pl' ? '/pl' : '/'}">${escapeHtml(t('errors.backHome'))}</a></p></body></html>`,
  );
}

/**
 * The last Express handler: errors with a client status (a malformed path, an oversize or broken body, a
 * missing static file) become that failure; anything else is a logged 500 carrying the request id.
 */
export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const status = Number((error as { status?: unknown; statusCode?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode);
  const kind = status >= 400 && status < 500 ? (failureKindOf(status) ?? 'invalid') : null;
  if (res.headersSent) {
    req.log?.error({ err: error }, 'error after the response started');
    res.end();
    return;
  }
  if (kind) {
    req.log?.info({ status, reason: (error as Error)?.message }, 'request refused');
    sendFailure(req, res, kind);
    return;
  }
  req.log?.error({ err: error }, 'unhandled server error');
  sendErrorPage(req, res, 500, 'unexpected', 'unexpected');
}
