import type { Locale } from '~/modules/i18n/translate';

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A mail's text lines as its HTML body: one paragraph per non-empty line, escaped. */
export function htmlMail(locale: Locale, lines: string[]): string {
  return [
    `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;color:#2b1d14">`,
    ...lines.filter((line) => line !== '').map((line) => `<p>${escapeHtml(line)}</p>`),
    '</body></html>',
  ].join('');
}
