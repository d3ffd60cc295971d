// The catalogue endpoints' hooks (GET /api/v1/products[/{slug}]); the fetchers, keys and query
// options are shared in @/lib/catalog.
import { useQuery } from '@tanstack/react-query';
import { productQuery, productsQuery } from '@/lib/catalog';

export { fetchProduct, fetchProducts, productKeys, productQuery, productsQuery } from '@/lib/catalog';

export function useProducts() {
  return useQuery(productsQuery());
}

export function useProduct(slug: string) {
  return useQuery(productQuery(slug));
}
