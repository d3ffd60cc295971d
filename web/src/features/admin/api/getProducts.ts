// GET /api/v1/admin/products: every product, active or not, newest first, each with its plans.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { adminKeys } from './keys';
import { adminProductSchema, ADMIN_PAGE_SIZE, pageSchema, queryString } from './schemas';

const productPageSchema = pageSchema(adminProductSchema);

export interface ProductListParams {
  page: number;
  q: string;
}

export function fetchAdminProducts({ page, q }: ProductListParams, signal?: AbortSignal) {
  const query = queryString({ page, page_size: ADMIN_PAGE_SIZE, q });
  return apiFetch(`/api/v1/admin/products${query}`, { schema: productPageSchema, signal });
}

export function useAdminProducts(params: ProductListParams) {
  return useQuery({
    queryKey: adminKeys.productList({ page: params.page, q: params.q }),
    queryFn: ({ signal }) => fetchAdminProducts(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
