// The landing and product pages are in the first chunk: measured, one chunk with both is smaller
// than either page with a chunk of its own (docs/performance.md).
export { LandingPage } from './routes/LandingPage';
export { ProductPage } from './routes/ProductPage';
export { productKeys, productQuery, productsQuery, fetchProduct, fetchProducts } from './api/products';
