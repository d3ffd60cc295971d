// GET /api/v1/products: the active products, for the licence form's product choice.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';

const productsSchema = z.object({ products: z.array(z.object({ id: z.string(), name: z.string(), slug: z.string() })) });

export function fetchLicensableProducts(signal?: AbortSignal) {
  return apiFetch('/api/v1/products', signal ? { schema: productsSchema, signal } : { schema: productsSchema });
}

export const licensableProductsQuery = () =>
  queryOptions({
    queryKey: enterpriseKeys.products(),
    queryFn: ({ signal }) => fetchLicensableProducts(signal),
    staleTime: 60_000,
  });

export function useLicensableProducts(enabled: boolean) {
  return useQuery({ ...licensableProductsQuery(), enabled });
}
