// GET /api/v1/admin/enterprise-accounts/{id}: one account's users (email, role, added date) and licences
// (product, used / quantity), for View Details.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';
import { accountDetailsSchema } from './schemas';

export function fetchAdminAccount(id: string, signal?: AbortSignal) {
  const path = `/api/v1/admin/enterprise-accounts/${encodeURIComponent(id)}`;
  return apiFetch(path, signal ? { schema: accountDetailsSchema, signal } : { schema: accountDetailsSchema });
}

export const adminAccountQuery = (id: string) =>
  queryOptions({
    queryKey: enterpriseKeys.adminDetail(id),
    queryFn: ({ signal }) => fetchAdminAccount(id, signal),
  });

export function useAdminAccount(id: string, enabled: boolean) {
  return useQuery({ ...adminAccountQuery(id), enabled });
}
