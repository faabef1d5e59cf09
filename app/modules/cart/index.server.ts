/** The cart's public server API: the only file other modules and routes import (besides the schemas). */
export {
  addToCart,
  changeLineQuantity,
  claimCart,
  defaultVariantOf,
  ensureUserCart,
  countCartItems,
  getCart,
  pruneCartRequests,
  removeFromCart,
  enterCode,
  removeCode,
  type CodeOutcome,
  setLineQuantity,
  type StockRefusal,
} from './cart.server';
export * from './cart.schema';
export { cartWeightGrams, goodsToPay, type CartCode } from './cart.types';
