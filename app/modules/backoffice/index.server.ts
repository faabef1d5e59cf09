/** The back office's public server API: the owner's catalogue work. */
export { addProduct, changeProduct, keptImages, removeProduct, uploadedFiles, type BackofficeServices, type SaveOutcome } from './products.server';
export { ImageRejected, checkImage, sniffImage, storeUploadedImages } from './uploads.server';
export * from './product-form';
