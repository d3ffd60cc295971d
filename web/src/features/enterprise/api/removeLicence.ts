// DELETE /api/v1/admin/enterprise-accounts/{id}/licences/{licenceId}: the licence and its seats.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';

const removedSchema = z.object({ id: z.string(), deleted: z.boolean() });

export function removeLicence({ accountId, licenceId }: { accountId: string; licenceId: string }) {
  return apiFetch(`/api/v1/admin/enterprise-accounts/${encodeURIComponent(accountId)}/licences/${encodeURIComponent(licenceId)}`, {
    method: 'DELETE',
    schema: removedSchema,
  });
}

export function useRemoveLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeLicence,
    onSettled: () => queryClient.invalidateQueries({ queryKey: enterpriseKeys.admin() }),
  });
}
