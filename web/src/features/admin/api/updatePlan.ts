// PATCH /api/v1/admin/plans/{id}: the plan form's fields (price as a string of major units).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { planAnswerSchema } from './createPlan';
import { invalidateCatalogue } from './invalidate';
import type { PlanBody } from './planForm';

export async function updatePlan({ id, body }: { id: string; body: PlanBody }) {
  const answer = await apiFetch(`/api/v1/admin/plans/${encodeURIComponent(id)}`, { method: 'PATCH', body, schema: planAnswerSchema });
  return answer.plan;
}

export function useUpdatePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updatePlan, onSuccess: () => invalidateCatalogue(queryClient) });
}
