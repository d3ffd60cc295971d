// POST /api/v1/account/orders/{id}/cancel (docs/billing.md, "Unpaid orders"): the customer cancels
// their own unpaid order; its reserved stock goes back. The answer is the order as it now is; the
// dashboard and the older pages of the Order History reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { orderSchema } from './dashboard';
import { accountKeys } from './keys';

export function cancelOrder(id: string) {
  return apiFetch(`/api/v1/account/orders/${encodeURIComponent(id)}/cancel`, { method: 'POST', body: {}, schema: orderSchema });
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.dashboard() }),
        queryClient.invalidateQueries({ queryKey: accountKeys.orders() }),
      ]),
  });
}
