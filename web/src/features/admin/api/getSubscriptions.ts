// GET /api/v1/admin/subscriptions?status=&q=&page=: newest first, filtered and paged by the server.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { adminKeys } from './keys';
import { pageSchema, subscriptionRowSchema } from './schemas';

const subscriptionPageSchema = pageSchema(subscriptionRowSchema);

export function fetchSubscriptions(params: ListQuery, signal?: AbortSignal) {
  const query = queryString({ ...params, page_size: PAGE_SIZE });
  return apiFetch(`/api/v1/admin/subscriptions${query}`, { schema: subscriptionPageSchema, signal });
}

export function useSubscriptions(params: ListQuery) {
  return useQuery({
    queryKey: adminKeys.subscriptions(params),
    queryFn: ({ signal }) => fetchSubscriptions(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
