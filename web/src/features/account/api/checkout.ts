// GET /api/v1/account/checkouts/{id} (docs/billing.md), polled after the return from payment:
// fulfilment comes from the provider's events, so the page waits for the order to become paid.
import { useQuery } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch, isApiError } from '@/lib/api';
import { accountKeys } from './keys';

export const checkoutStateSchema = z.object({
  id: z.string(),
  /** open | completed | expired */
  status: z.string(),
  mode: z.string(),
  product_slug: z.string().nullable(),
  order: z.object({ order_number: z.string(), status: z.string(), total_amount: z.number().int(), currency: z.string() }).nullable(),
});

export type CheckoutState = z.infer<typeof checkoutStateSchema>;

/** How often the checkout is asked about, and for how long at most. */
export const CHECKOUT_POLL_INTERVAL_MS = 1500;
export const CHECKOUT_POLL_TIMEOUT_MS = 60_000;

export type CheckoutOutcome = 'waiting' | 'paid' | 'not_paid';

/**
 * Paid when the order is paid (or, without an order, when the checkout completed); not paid when
 * the checkout expired or its order was cancelled; otherwise still waiting for the provider.
 */
export function checkoutOutcome(checkout: CheckoutState | undefined): CheckoutOutcome {
  if (!checkout) return 'waiting';
  if (checkout.order?.status === 'paid') return 'paid';
  if (!checkout.order && checkout.status === 'completed') return 'paid';
  if (checkout.status === 'expired' || checkout.order?.status === 'cancelled') return 'not_paid';
  return 'waiting';
}

export function fetchCheckout(id: string, signal?: AbortSignal): Promise<CheckoutState> {
  const path = `/api/v1/account/checkouts/${encodeURIComponent(id)}`;
  return apiFetch(path, signal ? { schema: checkoutStateSchema, signal } : { schema: checkoutStateSchema });
}

/** Polls the checkout every 1.5 s while `polling` and the outcome is still open. */
export function useCheckoutPolling(id: string, polling: boolean) {
  return useQuery({
    queryKey: accountKeys.checkout(id),
    queryFn: ({ signal }) => fetchCheckout(id, signal),
    staleTime: 0,
    retry: false,
    // Keep asking while the tab is in the background: the payment is confirmed either way.
    refetchIntervalInBackground: true,
    refetchInterval: (query) => {
      if (!polling) return false;
      const { error, data } = query.state;
      // A checkout that is not ours (or not there) will not appear by asking again.
      if (isApiError(error) && error.status === 404) return false;
      return checkoutOutcome(data) === 'waiting' ? CHECKOUT_POLL_INTERVAL_MS : false;
    },
  });
}
