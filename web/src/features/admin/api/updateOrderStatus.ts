// PATCH /api/v1/admin/orders/{id} {status, carrier?, tracking_number?, payment_reference?,
// shipping_address?}: a move the order's lifecycle table allows (its `allowed_statuses`); any other
// is 409 invalid_transition with the message shown on the page. Marking as shipped may carry the
// carrier and tracking number (the server mails them to the customer); marking an unpaid order as
// paid needs the payment's reference (a bank transfer's): the server then issues the tax invoice and
// emails the customer. An order of goods with no address yet needs its shipping address in the same
// request (docs/billing.md, "Staff's address": 422 `fields.shipping_address` without it,
// `fields["shipping_address.{member}"]` for a bad member). The answer is the order as it now is
// (with its history); the lists, statistics and books reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import type { ShippingAddress } from '@/lib/shipping';
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
  /** Only with Mark as paid of goods that have no address yet (addressBody). */
  shipping_address?: ShippingAddress;
}

export async function updateOrderStatus({ id, status, carrier, tracking_number, payment_reference, shipping_address }: OrderStatusChange) {
  const body: Record<string, unknown> = { status };
  if (carrier?.trim()) body.carrier = carrier.trim();
  if (tracking_number?.trim()) body.tracking_number = tracking_number.trim();
  if (payment_reference?.trim()) body.payment_reference = payment_reference.trim();
  if (shipping_address) body.shipping_address = shipping_address;
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
