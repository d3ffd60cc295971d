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

/** One key per opening of a refund dialog: a double click or a retry never refunds twice. */
export function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${String(Date.now())}-${String(Math.random())}`;
}

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
}

export async function refundOrder({ id, amount, reason, restock, lines, idempotencyKey }: RefundInput) {
  const body: Record<string, unknown> = { amount, restock };
  if (reason.trim()) body.reason = reason.trim();
  if (lines.length > 0) body.lines = lines;
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
