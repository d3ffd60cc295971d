// POST /api/v1/account/subscriptions/{id}/change-plan {priceId}: moves the subscription to another
// plan of the same product and currency, charging or crediting the difference as its preview said
// (planChangePreview.ts). 422 for a plan of another product or currency; 409 already_on_plan, or
// past_due (the overdue renewal must be paid first). The dialog sends one Idempotency-Key per plan
// chosen, so a double click or a retry changes the plan (and charges) once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { subscriptionSchema } from './dashboard';
import { invalidateAfterSubscriptionWrite, subscriptionPath } from './subscriptionWrites';

export interface ChangePlanInput {
  id: string;
  planId: string;
  idempotencyKey: string;
}

export function changePlan({ id, planId, idempotencyKey }: ChangePlanInput) {
  return apiFetch(subscriptionPath(id, 'change-plan'), {
    method: 'POST',
    body: { priceId: planId },
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: subscriptionSchema,
  });
}

export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changePlan, onSettled: () => invalidateAfterSubscriptionWrite(queryClient) });
}
