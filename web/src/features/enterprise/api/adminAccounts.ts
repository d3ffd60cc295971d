// GET /api/v1/admin/enterprise-accounts?page=&q=: staff's list of enterprise accounts, newest first, with
// the admin's email and the counts of users and licences.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pageSchema, type z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';
import { accountSchema } from './schemas';

export const ADMIN_PAGE_SIZE = 20;

const accountPageSchema = pageSchema(accountSchema);

export type EnterpriseAccountPage = z.infer<typeof accountPageSchema>;

export function fetchAdminAccounts(page: number, q: string, signal?: AbortSignal) {
  const params = new URLSearchParams({ page: String(page), page_size: String(ADMIN_PAGE_SIZE) });
  if (q.trim()) params.set('q', q.trim());
  const path = `/api/v1/admin/enterprise-accounts?${params.toString()}`;
  return apiFetch(path, signal ? { schema: accountPageSchema, signal } : { schema: accountPageSchema });
}

export const adminAccountsQuery = (page: number, q: string) =>
  queryOptions({
    queryKey: enterpriseKeys.adminList(page, q),
    queryFn: ({ signal }) => fetchAdminAccounts(page, q, signal),
    placeholderData: keepPreviousData,
  });

export function useAdminAccounts(page: number, q: string) {
  return useQuery(adminAccountsQuery(page, q));
}
