// POST /api/v1/account/subscriptions/{id}/resume: undoes a cancellation at the period end, so the
// subscription renews again. 409 when it is not scheduled to cancel.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { subscriptionSchema } from './dashboard';
import { invalidateAfterSubscriptionWrite, subscriptionPath } from './subscriptionWrites';

export function resumeSubscription(id: string) {
  return apiFetch(subscriptionPath(id, 'resume'), { method: 'POST', schema: subscriptionSchema });
}

export function useResumeSubscription() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: resumeSubscription, onSettled: () => invalidateAfterSubscriptionWrite(queryClient) });
}
