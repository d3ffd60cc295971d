// GET /api/v1/admin/orders?status=&q=&to_ship=&disputed=&amount_mismatch=&payment_to_return=&page=: newest first, filtered and paged by the server.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { adminKeys } from './keys';
import { orderRowSchema, pageSchema } from './schemas';

const orderPageSchema = pageSchema(orderRowSchema);

export function fetchOrders(params: ListQuery, signal?: AbortSignal) {
  const query = queryString({ ...params, page_size: PAGE_SIZE });
  return apiFetch(`/api/v1/admin/orders${query}`, { schema: orderPageSchema, signal });
}

export function useOrders(params: ListQuery) {
  return useQuery({
    queryKey: adminKeys.orderList(params),
    queryFn: ({ signal }) => fetchOrders(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
