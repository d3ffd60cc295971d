// POST /api/v1/admin/orders/{id}/refunds {amount, reason, restock}: a full or partial refund. The
// dialog sends one Idempotency-Key per opening, so a double click or a retry never refunds twice.
// The answer is the order as it now is; the lists and statistics reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { orderAnswerSchema } from './getOrder';
import { adminKeys } from './keys';

export interface RefundInput {
  id: string;
  /** Minor units, more than 0. */
  amount: number;
  reason: string;
  restock: boolean;
  idempotencyKey: string;
}

export async function refundOrder({ id, amount, reason, restock, idempotencyKey }: RefundInput) {
  const body: Record<string, unknown> = { amount, restock };
  if (reason.trim()) body.reason = reason.trim();
  const answer = await apiFetch(`/api/v1/admin/orders/${encodeURIComponent(id)}/refunds`, {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: orderAnswerSchema,
  });
  return answer.order;
}

export function useRefundOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundOrder,
    onSuccess: (order) => {
      queryClient.setQueryData(adminKeys.order(order.id), order);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.orders() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
      ]);
    },
  });
}
