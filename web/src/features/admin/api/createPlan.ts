// POST /api/v1/admin/products/{id}/plans with the price as a string of major units.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { invalidateCatalogue } from './invalidate';
import type { PlanBody } from './planForm';
import { planSchema } from './schemas';

export const planAnswerSchema = z.object({ plan: planSchema });

export async function createPlan({ productId, body }: { productId: string; body: PlanBody }) {
  const answer = await apiFetch(`/api/v1/admin/products/${encodeURIComponent(productId)}/plans`, {
    method: 'POST',
    body,
    schema: planAnswerSchema,
  });
  return answer.plan;
}

export function useCreatePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPlan, onSuccess: () => invalidateCatalogue(queryClient) });
}
