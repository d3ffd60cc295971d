// PATCH /api/v1/admin/orders/{id} {status}: any of the five statuses, no ordering (spec section 4).
// Marking as shipped may carry the carrier and tracking number (the server mails them to the customer).
// The answer is the order as it now is (with its history); the lists and statistics reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { orderAnswerSchema } from './getOrder';
import { adminKeys } from './keys';
import type { OrderStatus } from './schemas';

export interface OrderStatusChange {
  id: string;
  status: OrderStatus;
  /** Only with status 'shipped'; left out when empty. */
  carrier?: string;
  tracking_number?: string;
}

export async function updateOrderStatus({ id, status, carrier, tracking_number }: OrderStatusChange) {
  const body: Record<string, string> = { status };
  if (carrier?.trim()) body.carrier = carrier.trim();
  if (tracking_number?.trim()) body.tracking_number = tracking_number.trim();
  const answer = await apiFetch(`/api/v1/admin/orders/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
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
