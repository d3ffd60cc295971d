// GET /api/v1/admin/orders?status=&q=&disputed=&page=: newest first, filtered and paged by the server.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { adminKeys } from './keys';
import { ADMIN_PAGE_SIZE, orderRowSchema, pageSchema, queryString } from './schemas';

const orderPageSchema = pageSchema(orderRowSchema);

export interface OrderListParams {
  page: number;
  status: string;
  q: string;
  /** 'true': only orders a dispute was opened for. */
  disputed?: string;
}

export function fetchOrders({ page, status, q, disputed = '' }: OrderListParams, signal?: AbortSignal) {
  const query = queryString({ page, page_size: ADMIN_PAGE_SIZE, status, q, disputed });
  return apiFetch(`/api/v1/admin/orders${query}`, { schema: orderPageSchema, signal });
}

export function useOrders(params: OrderListParams) {
  return useQuery({
    queryKey: adminKeys.orderList({ ...params }),
    queryFn: ({ signal }) => fetchOrders(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
