// Seeds the query cache from the server-embedded initial data, so the first render of `/` and
// `/product/{slug}` needs no request.
import type { QueryClient } from '@tanstack/react-query';
import { productKeys } from '@/features/storefront';
import type { InitialData } from '@/lib/initialData';

function productSlugFromPath(pathname: string): string | null {
  const match = /^\/product\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** Puts the initial data into the cache; returns true when the server rendered this page's head. */
export function seedQueryCache(queryClient: QueryClient, data: InitialData | null, pathname: string): boolean {
  if (!data) return false;
  if (data.page === 'landing' && pathname === '/') {
    queryClient.setQueryData(productKeys.list(), data.products);
    return true;
  }
  if (data.page === 'product') {
    const slug = productSlugFromPath(pathname);
    if (slug === null) return false;
    queryClient.setQueryData(productKeys.detail(slug), data.product);
    return true;
  }
  return false;
}
