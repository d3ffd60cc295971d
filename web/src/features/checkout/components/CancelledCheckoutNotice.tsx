// `?cancelled=<checkout id>` on /checkout/{slug}: the buyer came back from the provider's page
// without paying; the page abandons that checkout once and says so (or that it was paid after all).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '@/lib/api';
import { productKeys } from '@/lib/catalog';
import { useCancelCheckout } from '../api/cancelCheckout';

const CANCELLED_TEXT = 'Your checkout was cancelled and nothing was charged.';

/** `?cancelled=<checkout id>`: the buyer left the provider's page; abandon that checkout once. */
export function CancelledCheckoutNotice({ slug }: { slug: string }) {
  const [searchParams] = useSearchParams();
  const checkoutId = searchParams.get('cancelled');
  const queryClient = useQueryClient();
  const { mutate, status, error } = useCancelCheckout();
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!checkoutId || sent.current === checkoutId) return;
    sent.current = checkoutId;
    mutate(checkoutId, {
      // The reservation is released: show the stock as it is now.
      onSettled: () => void queryClient.invalidateQueries({ queryKey: productKeys.detail(slug) }),
      onError: (cause) => {
        if (!(isApiError(cause) && cause.code === 'checkout_closed')) console.error('Failed to cancel checkout', cause);
      },
    });
  }, [checkoutId, mutate, queryClient, slug]);

  if (!checkoutId) return null;
  if (status === 'idle' || status === 'pending') {
    return (
      <p role="status" className="mb-6 rounded-xl border border-slate-200 bg-white p-4 text-slate-700">
        Cancelling your checkout...
      </p>
    );
  }
  if (isApiError(error) && error.code === 'checkout_closed') {
    // Paid after all (money was taken): the order is on the dashboard.
    return (
      <div role="status" className="mb-6 rounded-xl border border-green-300 bg-green-50 p-4 text-green-900">
        <p className="font-semibold">{error.message}</p>
        <p className="mt-1 text-sm">
          This checkout was already paid. See it in your <Link to="/dashboard" className="font-medium underline">Dashboard</Link>.
        </p>
      </div>
    );
  }
  return (
    <div role="status" className="mb-6 rounded-xl border border-yellow-300 bg-yellow-50 p-4 text-yellow-900">
      <p className="font-semibold">Checkout cancelled</p>
      <p className="mt-1 text-sm">{CANCELLED_TEXT}</p>
    </div>
  );
}
