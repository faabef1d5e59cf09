/**
 * The headers of a page that holds a secret in its address (a guest's order key, a reset token, a stock
 * alert's token) or someone's details: never stored by a cache, and never referred on to another site.
 *
 * `same-origin`, not `no-referrer`: under `no-referrer` browsers send `Origin: null` on a plain form post,
 * which the cross-site check must refuse, so the page's own forms failed before its scripts had run (or
 * without them). `same-origin` keeps the referrer, and the Origin, within the shop, and sends nothing to
 * anyone else.
 */
export const privatePageHeaders = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' } as const;
