// POST /api/v1/account/subscriptions/{id}/cancel {at_period_end}: at the end of the period (access
// stays until then, resumable) or now (access ends at once, no refund). 409 invalid_transition when
// the subscription can no longer move so; 502 payment_provider_error when the provider fails.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { subscriptionSchema } from './dashboard';
import { invalidateAfterSubscriptionWrite, subscriptionPath } from './subscriptionWrites';

export interface CancelSubscriptionInput {
  id: string;
  atPeriodEnd: boolean;
}

export function cancelSubscription({ id, atPeriodEnd }: CancelSubscriptionInput) {
  return apiFetch(subscriptionPath(id, 'cancel'), { method: 'POST', body: { at_period_end: atPeriodEnd }, schema: subscriptionSchema });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelSubscription, onSettled: () => invalidateAfterSubscriptionWrite(queryClient) });
}
