// GET /api/v1/products/{slug} for the checkout: the shared catalogue query (one cache entry per
// product), always refetched on arrival so price, currency and stock are the server's current ones.
import { useQuery } from '@tanstack/react-query';
import { productQuery } from '@/lib/catalog';

export function useCheckoutProduct(slug: string) {
  return useQuery({ ...productQuery(slug), staleTime: 0 });
}
