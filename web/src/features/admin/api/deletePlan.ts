// DELETE /api/v1/admin/plans/{id}: 204, or 409 plan_in_use when subscriptions use it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { invalidateCatalogue } from './invalidate';

export async function deletePlan(id: string): Promise<void> {
  await apiFetch(`/api/v1/admin/plans/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deletePlan, onSuccess: () => invalidateCatalogue(queryClient) });
}
