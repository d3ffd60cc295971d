// The landing and product pages each load as a chunk of their own (neither carries the other's
// code); main.tsx preloads the one of the current URL before the first render (lib/lazyPage.tsx).
import { lazyPage } from '@/lib/lazyPage';

export const LandingPage = lazyPage(() => import('./routes/LandingPage').then((m) => m.LandingPage));
export const ProductPage = lazyPage(() => import('./routes/ProductPage').then((m) => m.ProductPage));
export { productKeys, productQuery, productsQuery, fetchProduct, fetchProducts } from './api/products';
