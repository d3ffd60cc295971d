// POST /functions/v1/create-checkout-session (docs/billing.md): the client names the product and,
// for a subscription, one of its plans; amount, currency and stock are the server's business.
import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';

export type CheckoutRequest =
  | { productSlug: string; priceId: string }
  | { productSlug: string; quantity: number };

const checkoutSessionSchema = z.object({
  /** The provider's session id. */
  sessionId: z.string(),
  /** Where the browser goes to pay. */
  url: z.string(),
  /** Our checkout id (the return page polls it). */
  checkoutId: z.string(),
});

export type CheckoutSessionResponse = z.infer<typeof checkoutSessionSchema>;

export function createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSessionResponse> {
  return apiFetch('/functions/v1/create-checkout-session', { method: 'POST', body: request, schema: checkoutSessionSchema });
}

export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}
