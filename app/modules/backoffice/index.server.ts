/** The back office's public server API: the owner's catalogue work. */
export { addProduct, changeProduct, removeProduct, type BackofficeServices, type SaveOutcome } from './products.server';
export { checkImage, storeUploadedImages } from './uploads.server';
export * from './product-form';
export { changeStock, type StockChangeOutcome, type StockServices } from './stock.server';
export { applyZlotyPrices, proposeZlotyPrices, type ApplyOutcome, type ZlotyProposal, type ZlotyProposals } from './zloty-prices.server';
