// POST /api/v1/admin/orders/{id}/cancel {reason, restock}: "Cancel order" for a paid order (its
// `cancellable`): what is left is refunded through the payment provider, the items go back to stock
// when asked, the order is cancelled and the customer emailed. 409 invalid_transition when it is no
// longer cancellable; 502 payment_provider_error when the provider fails (nothing changed). The
// answer is the order as it now is; the lists, statistics and books reload. (An unpaid order is
// cancelled with PATCH {status: 'cancelled'}: updateOrderStatus.)
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { orderAnswerSchema } from './getOrder';
import { invalidateAfterOrderWrite, reloadOrdersAfterRefusal } from './invalidate';

/** The server's limit of a cancellation reason (one line, required). */
export const MAX_CANCEL_REASON = 500;

export interface CancelInput {
  id: string;
  reason: string;
  restock: boolean;
}

export async function cancelOrder({ id, reason, restock }: CancelInput) {
  const answer = await apiFetch(`/api/v1/admin/orders/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
    body: { reason: reason.trim(), restock },
    schema: orderAnswerSchema,
  });
  return answer.order;
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: (order) => invalidateAfterOrderWrite(queryClient, order),
    onError: (error) => reloadOrdersAfterRefusal(queryClient, error),
  });
}
