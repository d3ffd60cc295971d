// GET /api/v1/enterprise: the account the signed-in person administers, with its members and
// licences; null when they administer none (the server answers 404, never 403).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, isApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth';
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

/**
 * Whether the signed-in person administers an enterprise account (the header's Enterprise link).
 * The same one call as the team page, shared through the cache; asked only once signed in and
 * past the two-factor step.
 */
export function useAdministersEnterprise(): boolean {
  const { user, needsMfa } = useAuth();
  const query = useQuery({ ...teamQuery(), enabled: Boolean(user) && !needsMfa });
  return Boolean(user) && query.data != null;
}
