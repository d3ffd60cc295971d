// GET /api/v1/admin/enterprise-accounts?q=&page=: staff's list of enterprise accounts, newest first,
// with the admin's email and the counts of users and licences.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pageSchema } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { enterpriseKeys } from './keys';
import { accountSchema } from './schemas';

const accountPageSchema = pageSchema(accountSchema);

export function fetchAdminAccounts(params: ListQuery, signal?: AbortSignal) {
  const path = `/api/v1/admin/enterprise-accounts${queryString({ ...params, page_size: PAGE_SIZE })}`;
  return apiFetch(path, signal ? { schema: accountPageSchema, signal } : { schema: accountPageSchema });
}

export const adminAccountsQuery = (params: ListQuery) =>
  queryOptions({
    queryKey: enterpriseKeys.adminList(params),
    queryFn: ({ signal }) => fetchAdminAccounts(params, signal),
    placeholderData: keepPreviousData,
  });

export function useAdminAccounts(params: ListQuery) {
  return useQuery(adminAccountsQuery(params));
}
