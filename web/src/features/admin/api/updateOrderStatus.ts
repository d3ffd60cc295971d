// PATCH /api/v1/admin/orders/{id} {status}: any of the five statuses, no ordering (spec section 4).
// The answer is the order as it now is (with its history); the lists and statistics reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { orderAnswerSchema } from './getOrder';
import { adminKeys } from './keys';
import type { OrderStatus } from './schemas';

export async function updateOrderStatus({ id, status }: { id: string; status: OrderStatus }) {
  const answer = await apiFetch(`/api/v1/admin/orders/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { status },
    schema: orderAnswerSchema,
  });
  return answer.order;
}

export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrderStatus,
    onSuccess: (order) => {
      queryClient.setQueryData(adminKeys.order(order.id), order);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.orders() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
      ]);
    },
  });
}
