// "Cancel subscription": the choices the server allows, each saying what it does before it is
// pressed: "Cancel at the end of the period" (access stays until the date given, and it can be
// resumed) and "Cancel now" (access ends at once, no refund). Either calls the cancel endpoint;
// the dialog stays open (and cannot be closed) while it runs, and shows the server's refusal.
import { useId, useRef, useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { useCancelSubscription } from '../api/cancelSubscription';
import type { Subscription } from '../api/dashboard';
import { accessUntil, cancelTexts } from '../rules';
import { FormAlert } from '@/components/detail/FormAlert';

interface CancelSubscriptionDialogProps {
  subscription: Subscription;
  onClose: () => void;
  /** After the change, with what it did (for the panel's message). */
  onDone: (message: string) => void;
}

export function CancelSubscriptionDialog({ subscription, onClose, onDone }: CancelSubscriptionDialogProps) {
  const cancel = useCancelSubscription();
  const [choice, setChoice] = useState<boolean | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const endId = useId();
  const nowId = useId();
  const allowed = subscription.allowed_actions ?? [];
  const busy = cancel.isPending;

  const run = (atPeriodEnd: boolean) => {
    setFailure(null);
    setChoice(atPeriodEnd);
    cancel.mutate(
      { id: subscription.id, atPeriodEnd },
      {
        onSuccess: (answer) => {
          const until = accessUntil(answer);
          onDone(atPeriodEnd && until ? `Your subscription will end on ${formatDate(until)}.` : 'Your subscription has been cancelled.');
        },
        onError: (error) => setFailure(errorMessage(error, 'The subscription could not be cancelled.')),
      },
    );
  };

  return (
    <Dialog
      open
      onClose={() => {
        if (!busy) onClose();
      }}
      title="Cancel subscription"
      description={`Choose when your ${subscription.product.name} subscription ends.`}
      initialFocusRef={keepRef}
    >
      <div className="mt-4 space-y-4">
        <FormAlert tone="error">{failure}</FormAlert>
        {allowed.includes('cancel_at_period_end') ? (
          <div className="rounded-lg border border-slate-200 p-4">
            <p id={endId} className="text-sm text-slate-700">
              {cancelTexts.atPeriodEnd(subscription)}
            </p>
            <button type="button" className="btn-primary mt-3" aria-describedby={endId} disabled={busy} onClick={() => run(true)}>
              {busy && choice === true ? 'Cancelling...' : 'Cancel at the end of the period'}
            </button>
          </div>
        ) : null}
        {allowed.includes('cancel_now') ? (
          <div className="rounded-lg border border-red-200 p-4">
            <p id={nowId} className="text-sm text-slate-700">
              {cancelTexts.now}
            </p>
            <button type="button" className="btn-primary mt-3 bg-red-600 hover:bg-red-700" aria-describedby={nowId} disabled={busy} onClick={() => run(false)}>
              {busy && choice === false ? 'Cancelling...' : 'Cancel now'}
            </button>
          </div>
        ) : null}
        <div className="flex justify-end">
          <button ref={keepRef} type="button" className="btn-secondary" disabled={busy} onClick={onClose}>
            Keep subscription
          </button>
        </div>
      </div>
    </Dialog>
  );
}
