export { LandingPage, LANDING_HEAD, BETA_TESTING_URL } from './routes/LandingPage';
export { ProductPage, productHead } from './routes/ProductPage';
export { productKeys, productQuery, productsQuery, fetchProduct, fetchProducts } from './api/products';
