// GET /api/v1/admin/customers?q=&role=&two_factor=&unconfirmed=&closed=&sort=&dir=&page=: the
// customers, searched by email or name, filtered, sorted and paged by the server.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { pageSchema } from '@/lib/schema';
import { customerRowSchema } from './customerSchemas';
import { adminKeys } from './keys';

const customerPageSchema = pageSchema(customerRowSchema);

export function fetchCustomers(params: ListQuery, signal?: AbortSignal) {
  const query = queryString({ ...params, page_size: PAGE_SIZE });
  return apiFetch(`/api/v1/admin/customers${query}`, { schema: customerPageSchema, signal });
}

export function useCustomers(params: ListQuery) {
  return useQuery({
    queryKey: adminKeys.customerList(params),
    queryFn: ({ signal }) => fetchCustomers(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
