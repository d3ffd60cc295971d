// The way to the payment provider's billing portal (Stripe's; the local test portal offline), back
// to the dashboard afterwards: "Manage billing" beside the heading and "Update payment method" in
// a past-due warning are this one button with their own labels.
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { subscriptionClient } from '../subscriptionClient';

interface BillingPortalButtonProps {
  label: string;
  /** 'primary' inside a warning; 'secondary' (default) elsewhere. */
  variant?: 'primary' | 'secondary';
  /** Links the button to the text it acts on (a subscription's warning). */
  describedBy?: string;
  /** Opens the portal at once, once (the payment-failed mail's link: /dashboard?billing=portal). */
  autoOpen?: boolean;
}

export function BillingPortalButton({ label, variant = 'secondary', describedBy, autoOpen = false }: BillingPortalButtonProps) {
  const [state, setState] = useState<'idle' | 'opening' | 'leaving'>('idle');
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    setError(null);
    setState('opening');
    try {
      await subscriptionClient.createPortalSession({ returnPath: '/dashboard' });
      setState('leaving');
    } catch (failure) {
      setState('idle');
      setError(errorMessage(failure));
    }
  };
  const opened = useRef(false);
  useEffect(() => {
    if (!autoOpen || opened.current) return;
    opened.current = true;
    void open();
    // Once per page load: the mail's link, not every render.
  }, [autoOpen]);
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        className={variant === 'primary' ? 'btn-primary' : 'btn-secondary'}
        aria-describedby={describedBy}
        onClick={() => void open()}
        disabled={state !== 'idle'}
      >
        {state === 'idle' ? label : 'Opening billing portal...'}
      </button>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
