import type { Cart } from '~/modules/cart/cart.types';
import { useI18n } from '~/modules/i18n/react';

/**
 * What the stock changed in the cart (a line capped to what is left, a sold-out one taken out) and, without
 * JavaScript, why an add was refused (with JavaScript the button or the line says it where it happened).
 */
export function StockNotes({ capped, refused }: { capped: Cart['stockCapped']; refused?: { ok: boolean; error?: string; left?: number } }) {
  const { t } = useI18n();
  const refusal = refused && !refused.ok && (refused.error === 'sold_out' || refused.error === 'not_enough') ? refused : null;
  if (capped.length === 0 && !refusal) return null;
  return (
    <div role="status" className="mt-6 space-y-1 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="stock-notes">
      {capped.map((line) => (
        <p key={line.variantId}>{line.left === 0 ? t('cart.stock.soldOut', { name: line.name }) : t('cart.stock.capped', { name: line.name, count: line.left })}</p>
      ))}
      {refusal && <p>{refusal.error === 'sold_out' ? t('product.addSoldOut') : t('product.notEnough', { count: refusal.left ?? 0 })}</p>}
    </div>
  );
}
