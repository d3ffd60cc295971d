// POST /api/v1/admin/subscriptions/{id}/cancel {at_period_end, reason}: staff cancel a customer's
// subscription at the end of its period (access stays until then) or now (access ends at once; no
// refund is made here). The reason is required, one line, at most 500 characters (422 with field
// errors otherwise); 409 invalid_transition when the lifecycle no longer allows the move; 502
// payment_provider_error when the provider fails. The answer is the row as it now is; the
// subscription lists, the statistics and the customer pages reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { MAX_CANCEL_REASON } from './cancelOrder';
import { adminKeys } from './keys';
import { subscriptionRowSchema } from './schemas';

/** The same limit as an order's cancellation reason. */
export const MAX_SUBSCRIPTION_CANCEL_REASON = MAX_CANCEL_REASON;

export interface CancelSubscriptionInput {
  id: string;
  atPeriodEnd: boolean;
  reason: string;
}

export function cancelSubscription({ id, atPeriodEnd, reason }: CancelSubscriptionInput) {
  return apiFetch(`/api/v1/admin/subscriptions/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
    body: { at_period_end: atPeriodEnd, reason: reason.trim() },
    schema: subscriptionRowSchema,
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.subscriptionLists() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.customers() }),
      ]),
  });
}
