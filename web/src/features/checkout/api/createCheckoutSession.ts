// POST /functions/v1/create-checkout-session (docs/billing.md): the client names the product and,
// for a subscription, one of its plans; amount, currency and stock are the server's business.
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';

export type CheckoutRequest =
  | { productSlug: string; priceId: string }
  | { productSlug: string; quantity: number };

export interface CheckoutSessionResponse {
  /** The provider's session id. */
  sessionId: string;
  /** Where the browser goes to pay. */
  url: string;
  /** Our checkout id (the return page polls it). */
  checkoutId: string;
}

export function createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSessionResponse> {
  return apiFetch<CheckoutSessionResponse>('/functions/v1/create-checkout-session', { method: 'POST', body: request });
}

export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}
