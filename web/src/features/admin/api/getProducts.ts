// GET /api/v1/admin/products: every product, active or not, newest first, each with its plans.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { adminKeys } from './keys';
import { adminProductSchema, pageSchema } from './schemas';

const productPageSchema = pageSchema(adminProductSchema);

export function fetchAdminProducts(params: ListQuery, signal?: AbortSignal) {
  const query = queryString({ ...params, page_size: PAGE_SIZE });
  return apiFetch(`/api/v1/admin/products${query}`, { schema: productPageSchema, signal });
}

export function useAdminProducts(params: ListQuery) {
  return useQuery({
    queryKey: adminKeys.productList(params),
    queryFn: ({ signal }) => fetchAdminProducts(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
