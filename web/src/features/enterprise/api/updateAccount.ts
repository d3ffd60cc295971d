// PATCH /api/v1/admin/enterprise-accounts/{id} {is_active?, max_licenses?, billing_email?, company_name?}:
// Activate / Deactivate, and the member limit (never below the team's size: 422).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';
import { accountSchema } from './schemas';

const updatedSchema = z.object({ account: accountSchema });

export interface AccountChanges {
  is_active?: boolean;
  max_licenses?: number;
  billing_email?: string;
  company_name?: string;
}

export function updateAccount({ id, changes }: { id: string; changes: AccountChanges }) {
  return apiFetch(`/api/v1/admin/enterprise-accounts/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes, schema: updatedSchema });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSettled: () => queryClient.invalidateQueries({ queryKey: enterpriseKeys.admin() }),
  });
}
