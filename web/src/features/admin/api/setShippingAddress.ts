// PUT /api/v1/admin/orders/{id}/shipping-address {shipping_address}: staff set or correct where an
// order's goods go while it is pending or paid (docs/billing.md, "Staff's address"). The server
// writes a history row ("Shipping address added: ..." / "Shipping address corrected: ...") and an
// audit entry; the answer is the order as it now is, and the lists, statistics and books reload as
// after any order write. A bad member is 422 `fields["shipping_address.{member}"]`. Refused (409):
// address_locked once it has shipped or ended, nothing_to_ship for a digital order,
// action_in_progress while a refund or Cancel order is with the payment provider; the order then
// reloads, so the page shows what it allows now.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, isApiError } from '@/lib/api';
import type { ShippingAddress } from '@/lib/shipping';
import { orderAnswerSchema } from './getOrder';
import { invalidateAfterOrderWrite } from './invalidate';
import { adminKeys } from './keys';

export const ADDRESS_LOCKED = 'address_locked';
export const NOTHING_TO_SHIP = 'nothing_to_ship';

export interface ShippingAddressChange {
  id: string;
  /** addressBody of the form's values. */
  shipping_address: ShippingAddress;
}

export async function setShippingAddress({ id, shipping_address }: ShippingAddressChange) {
  const answer = await apiFetch(`/api/v1/admin/orders/${encodeURIComponent(id)}/shipping-address`, {
    method: 'PUT',
    body: { shipping_address },
    schema: orderAnswerSchema,
  });
  return answer.order;
}

/** A 409: the order can no longer take an address (shipped, ended, digital) or is busy with the provider. */
export function isRefusedAddressChange(error: unknown): boolean {
  return isApiError(error) && error.status === 409;
}

export function useSetShippingAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setShippingAddress,
    onSuccess: (order) => invalidateAfterOrderWrite(queryClient, order),
    onError: (error) => {
      if (isRefusedAddressChange(error)) void queryClient.invalidateQueries({ queryKey: adminKeys.orders() });
    },
  });
}
