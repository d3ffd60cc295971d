// GET /api/v1/enterprise: the account the signed-in person administers, with its members and
// licences; null when they administer none (the server answers 404, never 403).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, isApiError } from '@/lib/api';
import { enterpriseKeys } from './keys';
import { accountDetailsSchema, type EnterpriseAccountDetails } from './schemas';

export async function fetchTeam(signal?: AbortSignal): Promise<EnterpriseAccountDetails | null> {
  try {
    return await apiFetch('/api/v1/enterprise', signal ? { schema: accountDetailsSchema, signal } : { schema: accountDetailsSchema });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export const teamQuery = () =>
  queryOptions({
    queryKey: enterpriseKeys.team(),
    queryFn: ({ signal }) => fetchTeam(signal),
  });

export function useTeam() {
  return useQuery(teamQuery());
}
