// POST /api/v1/account/checkouts/{id}/cancel (docs/billing.md): the buyer came back from the
// provider's page without paying; the checkout is abandoned and its stock released.
// 409 `checkout_closed` when it was already paid.
import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';

const cancelledSchema = z.object({ status: z.string() });

export function cancelCheckout(checkoutId: string): Promise<{ status: string }> {
  const path = `/api/v1/account/checkouts/${encodeURIComponent(checkoutId)}/cancel`;
  return apiFetch(path, { method: 'POST', schema: cancelledSchema });
}

export function useCancelCheckout() {
  return useMutation({ mutationFn: cancelCheckout });
}
