// POST /api/v1/admin/orders/{id}/refunds {amount, reason?, restock, lines?}: a full or partial
// refund. With lines ({order_item_id, quantity}) the amount is at most those lines' price ×
// quantity and restock returns exactly those quantities; restock without lines is allowed only
// when the refund leaves nothing to refund (else 422 on `restock`). The dialog sends one
// Idempotency-Key per opening, so a double click or a retry never refunds twice. The answer is the
// order as it now is; the lists, statistics and books (a credit note) reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { orderAnswerSchema } from './getOrder';
import { invalidateAfterOrderWrite, reloadOrdersAfterRefusal } from './invalidate';

export interface RefundLine {
  order_item_id: string;
  /** 1 .. quantity − refunded_quantity of the line. */
  quantity: number;
}

export interface RefundInput {
  id: string;
  /** Minor units, more than 0. */
  amount: number;
  reason: string;
  restock: boolean;
  /** The lines refunded; empty for a refund of an amount only. */
  lines: RefundLine[];
  idempotencyKey: string;
  /** Returns this late payment (made for the order already paid) instead of the order's money. */
  latePaymentId?: string;
}

export async function refundOrder({ id, amount, reason, restock, lines, idempotencyKey, latePaymentId }: RefundInput) {
  const body: Record<string, unknown> = { amount, restock };
  if (reason.trim()) body.reason = reason.trim();
  if (lines.length > 0) body.lines = lines;
  if (latePaymentId) body.late_payment_id = latePaymentId;
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
    onSuccess: (order) => invalidateAfterOrderWrite(queryClient, order),
    onError: (error) => reloadOrdersAfterRefusal(queryClient, error),
  });
}
