// PATCH /api/v1/admin/orders/{id} {status, carrier?, tracking_number?, payment_reference?}: a move the
// order's lifecycle table allows (its `allowed_statuses`); any other is 409 invalid_transition with
// the message shown on the page. Marking as shipped may carry the carrier and tracking number (the
// server mails them to the customer); marking an unpaid order as paid needs the payment's reference
// (a bank transfer's): the server then issues the tax invoice and emails the customer. The answer
// is the order as it now is (with its history); the lists, statistics and books reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { orderAnswerSchema } from './getOrder';
import { invalidateAfterOrderWrite, reloadOrdersAfterRefusal } from './invalidate';
import type { OrderStatus } from './schemas';

/** The server's limit of a payment reference (one line). */
export const MAX_PAYMENT_REFERENCE = 100;

export interface OrderStatusChange {
  id: string;
  status: OrderStatus;
  /** Only with status 'shipped'; left out when empty. */
  carrier?: string;
  tracking_number?: string;
  /** Only for pending → paid ("Mark as paid"), where it is required. */
  payment_reference?: string;
}

export async function updateOrderStatus({ id, status, carrier, tracking_number, payment_reference }: OrderStatusChange) {
  const body: Record<string, string> = { status };
  if (carrier?.trim()) body.carrier = carrier.trim();
  if (tracking_number?.trim()) body.tracking_number = tracking_number.trim();
  if (payment_reference?.trim()) body.payment_reference = payment_reference.trim();
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
    onSuccess: (order) => invalidateAfterOrderWrite(queryClient, order),
    onError: (error) => reloadOrdersAfterRefusal(queryClient, error),
  });
}
