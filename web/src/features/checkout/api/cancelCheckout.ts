// POST /api/v1/account/checkouts/{id}/cancel (docs/billing.md): the buyer came back from the
// provider's page without paying; the checkout is abandoned and its stock released.
// 409 `checkout_closed` when it was already paid.
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';

export function cancelCheckout(checkoutId: string): Promise<{ status: string }> {
  return apiFetch<{ status: string }>(`/api/v1/account/checkouts/${encodeURIComponent(checkoutId)}/cancel`, { method: 'POST' });
}

export function useCancelCheckout() {
  return useMutation({ mutationFn: cancelCheckout });
}
