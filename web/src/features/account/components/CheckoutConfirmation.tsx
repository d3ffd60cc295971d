// The return from payment (`/dashboard?checkout=<id>`, docs/billing.md "Flow" step 4): the order
// is fulfilled by the provider's events, not by this visit, so the page polls the checkout every
// 1.5 s for at most 60 s until its order is paid (then the dashboard is reloaded) or it expired.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '@/lib/api';
import { SUPPORT_EMAIL } from '@/lib/company';
import { CHECKOUT_POLL_TIMEOUT_MS, checkoutOutcome, useCheckoutPolling } from '../api/checkout';
import { accountKeys } from '../api/keys';

const CONFIRMING_TEXT = 'Confirming your payment...';
const NOT_PAID_TEXT = 'This checkout was not paid: it expired or was cancelled. Nothing was charged.';
const NOT_FOUND_TEXT = 'We could not find that checkout.';
const TIMED_OUT_TEXT = `We have not had confirmation of your payment yet. If you completed the payment, it will appear here shortly: check again in a minute, or contact ${SUPPORT_EMAIL}.`;

function paidText(orderNumber: string | null): string {
  return orderNumber ? `Payment received — order ${orderNumber} confirmed` : 'Payment received — thank you';
}

export function CheckoutConfirmation({ checkoutId }: { checkoutId: string }) {
  const queryClient = useQueryClient();
  // Each round of polling lasts at most 60 s; "Check again" starts another.
  const [round, setRound] = useState(0);
  const [timedOutRound, setTimedOutRound] = useState<number | null>(null);
  const timedOut = timedOutRound === round;

  useEffect(() => {
    const timer = window.setTimeout(() => setTimedOutRound(round), CHECKOUT_POLL_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [checkoutId, round]);

  const query = useCheckoutPolling(checkoutId, !timedOut);
  const outcome = checkoutOutcome(query.data);

  // Paid: the new order and subscription are on the dashboard now. A first load of the dashboard
  // still on its way may have been answered before the payment: it is cancelled and asked again
  // (invalidating alone would wait for that load instead of starting a new one).
  const reloaded = useRef(false);
  useEffect(() => {
    if (outcome !== 'paid' || reloaded.current) return;
    reloaded.current = true;
    const queryKey = accountKeys.dashboard();
    void queryClient.cancelQueries({ queryKey }).then(() => queryClient.invalidateQueries({ queryKey }));
  }, [outcome, queryClient]);

  if (outcome === 'paid') {
    return (
      <div role="status" className="mt-6 rounded-xl border border-green-300 bg-green-50 p-4 text-green-900">
        <p className="font-semibold">{paidText(query.data?.order?.order_number ?? null)}</p>
        <p className="mt-1 text-sm">Thank you. Your subscriptions and orders below are up to date.</p>
      </div>
    );
  }
  if (outcome === 'not_paid') {
    return (
      <div role="alert" className="mt-6 rounded-xl border border-yellow-300 bg-yellow-50 p-4 text-yellow-900">
        <p className="font-semibold">{NOT_PAID_TEXT}</p>
      </div>
    );
  }
  if (isApiError(query.error) && query.error.status === 404) {
    return (
      <div role="alert" className="mt-6 rounded-xl border border-red-300 bg-red-50 p-4 text-red-800">
        <p className="font-semibold">{NOT_FOUND_TEXT}</p>
      </div>
    );
  }
  if (timedOut) {
    return (
      <div role="alert" className="mt-6 rounded-xl border border-yellow-300 bg-yellow-50 p-4 text-yellow-900">
        <p>{TIMED_OUT_TEXT}</p>
        <button
          type="button"
          className="btn-secondary mt-3"
          onClick={() => {
            setRound((value) => value + 1);
            void query.refetch();
          }}
        >
          Check again
        </button>
      </div>
    );
  }
  return (
    <div role="status" className="mt-6 flex items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-brand-900">
      <span className="h-5 w-5 shrink-0 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" aria-hidden="true" />
      <div>
        <p className="font-semibold">{CONFIRMING_TEXT}</p>
        <p className="text-sm">This usually takes a few seconds. You can stay on this page.</p>
      </div>
    </div>
  );
}
