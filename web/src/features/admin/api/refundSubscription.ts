// POST /api/v1/admin/subscriptions/{id}/refunds {amount, reason?}: refunds part or all of the
// subscription's latest paid invoice through the payment provider (a credit note is issued). 422
// with a field error for more than is left, 409 nothing_to_refund / already_refunded. The dialog
// sends one Idempotency-Key per opening, like an order's refund.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { adminKeys } from './keys';

const subscriptionRefundSchema = z.object({
  id: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
});

export type SubscriptionRefund = z.infer<typeof subscriptionRefundSchema>;

export interface SubscriptionRefundInput {
  id: string;
  /** Minor units, more than 0. */
  amount: number;
  reason: string;
  idempotencyKey: string;
}

export function refundSubscription({ id, amount, reason, idempotencyKey }: SubscriptionRefundInput) {
  const body: Record<string, unknown> = { amount };
  if (reason.trim()) body.reason = reason.trim();
  return apiFetch(`/api/v1/admin/subscriptions/${encodeURIComponent(id)}/refunds`, {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: subscriptionRefundSchema,
  });
}

export function useRefundSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundSubscription,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.subscriptionLists() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
      ]),
  });
}
