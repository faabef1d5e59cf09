import type { Cart } from '~/modules/cart/cart.types';
import { refusalMessage } from '~/modules/cart/refusal';
import { useI18n } from '~/modules/i18n/react';

/**
 * What the stock changed in the cart (a line capped to what is left, a sold-out one taken out) and, without
 * JavaScript, why an add or a quantity was refused: the stock, a quantity out of range, a variant no longer
 * sold (with JavaScript the button or the line says it where it happened).
 */
export function StockNotes({ capped, refused }: { capped: Cart['stockCapped']; refused?: unknown }) {
  const { t } = useI18n();
  const refusal = refusalMessage(refused, 'page');
  if (capped.length === 0 && !refusal) return null;
  return (
    <div role="status" className="mt-6 space-y-1 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="stock-notes">
      {capped.map((line) => (
        <p key={line.variantId}>{line.left === 0 ? t('cart.stock.soldOut', { name: line.name }) : t('cart.stock.capped', { name: line.name, count: line.left })}</p>
      ))}
      {refusal && <p data-testid="cart-refusal">{t(refusal.key, refusal.vars)}</p>}
    </div>
  );
}
