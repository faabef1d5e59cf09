/** The catalogue's public server API: the only file other modules and routes import (besides the schemas). */
export {
  countProducts,
  createProduct,
  deleteProduct,
  firstImageKeys,
  getProduct,
  getProductRecord,
  getProductsByIds,
  listOwnerProducts,
  listProductDates,
  isProductId,
  listProducts,
  productExists,
  productTaxClasses,
  rebuildSearchText,
  updateProduct,
  type ListProductsOptions,
  type OwnerProductRow,
  type ProductRecord,
} from './catalog.server';
export { bumpStoredCatalogVersion, catalogVersion, markCatalogChanged, onCatalogChange, storedCatalogVersion, watchCatalogVersion } from './catalog-version.server';
export { importProducts } from './import.server';
export { SkuTakenError, findVariants, listVariantPrices, setZlotyPrices, skuFor, variantLabelsIn, variantsOf, type VariantPriceRow } from './variants.server';
export * from './catalog.schema';
export { normalizeSearchText, searchTerms } from './search';
