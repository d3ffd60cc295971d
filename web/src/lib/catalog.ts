// The catalogue endpoints (GET /api/v1/products[/{slug}]): fetchers, cache keys and query options,
// plus the catalogue rules more than one feature needs (availability, plan order). Shared by every
// feature that shows a product (storefront, checkout, the subscription test page), so a product is
// one cache entry whichever screen loaded it. Hooks live in the features.
import { queryOptions } from '@tanstack/react-query';
import type { PricingPlan, Product } from './types';

// The first page's catalogue comes embedded in the HTML; the fetch wrapper loads with the first
// fetch (docs/performance.md).
const loadApi = () => import('./api');

export const productKeys = {
  all: ['products'] as const,
  list: () => [...productKeys.all, 'list'] as const,
  detail: (slug: string) => [...productKeys.all, 'detail', slug] as const,
};

export async function fetchProducts(signal?: AbortSignal): Promise<Product[]> {
  const { apiFetch } = await loadApi();
  const body = await apiFetch<{ products: Product[] }>('/api/v1/products', signal ? { signal } : {});
  return body.products;
}

/** The product with its plans, or null when it is missing or inactive (HTTP 404). */
export async function fetchProduct(slug: string, signal?: AbortSignal): Promise<Product | null> {
  const { apiFetch, isApiError } = await loadApi();
  try {
    const body = await apiFetch<{ product: Product }>(
      `/api/v1/products/${encodeURIComponent(slug)}`,
      signal ? { signal } : {},
    );
    return body.product;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export const productsQuery = () =>
  queryOptions({
    queryKey: productKeys.list(),
    queryFn: ({ signal }) => fetchProducts(signal),
  });

export const productQuery = (slug: string) =>
  queryOptions({
    queryKey: productKeys.detail(slug),
    queryFn: ({ signal }) => fetchProduct(slug, signal),
  });

type StockFields = Pick<Product, 'type' | 'track_inventory' | 'stock_quantity'>;

/** The stock count that matters: a tracked physical product's count, else null (no stock shown or limited). */
export function trackedStock(product: StockFields): number | null {
  if (product.type !== 'physical' || !product.track_inventory) return null;
  return product.stock_quantity ?? null;
}

/** Spec section 4 "Availability": a physical product that tracks inventory with stock 0 or less. */
export function isSoldOut(product: StockFields): boolean {
  const stock = trackedStock(product);
  return stock !== null && stock <= 0;
}

/** The product's plans in their sort order (the product is not changed). */
export function sortedPlans(product: Pick<Product, 'plans'>): PricingPlan[] {
  return [...(product.plans ?? [])].sort((a, b) => a.sort_order - b.sort_order);
}
