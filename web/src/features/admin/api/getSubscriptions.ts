// GET /api/v1/admin/subscriptions?status=&q=&page=: newest first, filtered and paged by the server.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { adminKeys } from './keys';
import { ADMIN_PAGE_SIZE, pageSchema, queryString, subscriptionRowSchema } from './schemas';

const subscriptionPageSchema = pageSchema(subscriptionRowSchema);

export interface SubscriptionListParams {
  page: number;
  status: string;
  q: string;
}

export function fetchSubscriptions({ page, status, q }: SubscriptionListParams, signal?: AbortSignal) {
  const query = queryString({ page, page_size: ADMIN_PAGE_SIZE, status, q });
  return apiFetch(`/api/v1/admin/subscriptions${query}`, { schema: subscriptionPageSchema, signal });
}

export function useSubscriptions(params: SubscriptionListParams) {
  return useQuery({
    queryKey: adminKeys.subscriptions({ ...params }),
    queryFn: ({ signal }) => fetchSubscriptions(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
