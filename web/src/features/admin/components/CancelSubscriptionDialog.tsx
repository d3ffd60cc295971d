// Staff "Cancel at period end" / "Cancel now" for a customer's subscription: the dialog says what
// will happen and when access ends before anything is done, and asks for the reason (required, one
// line; it goes to the audit log). The server's field errors show beside the field, anything else
// in the dialog, which stays open while the call runs.
import { useState } from 'react';
import { FormDialog } from '@/components/detail';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { MAX_SUBSCRIPTION_CANCEL_REASON, useCancelSubscription } from '../api/cancelSubscription';
import type { SubscriptionRow } from '../api/schemas';

export const SUBSCRIPTION_REASON_REQUIRED = 'Give the reason for cancelling the subscription.';

/** What the cancellation does, with the date access ends. */
export function staffCancelStatement(row: Pick<SubscriptionRow, 'current_period_end' | 'user_email'>, atPeriodEnd: boolean): string {
  const who = row.user_email ?? 'The customer';
  if (!atPeriodEnd) return `${who} loses access immediately. No refund is made.`;
  const end = row.current_period_end ? formatDate(row.current_period_end) : 'the end of the current period';
  return `The subscription does not renew. ${who} keeps access until ${end}.`;
}

interface CancelSubscriptionDialogProps {
  row: SubscriptionRow;
  atPeriodEnd: boolean;
  onClose: () => void;
  onCancelled: (row: SubscriptionRow) => void;
}

export function CancelSubscriptionDialog({ row, atPeriodEnd, onClose, onCancelled }: CancelSubscriptionDialogProps) {
  const cancel = useCancelSubscription();
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const busy = cancel.isPending;
  const close = () => {
    if (!busy) onClose();
  };

  const submit = () => {
    const text = reason.trim();
    // A text input holds one line; the server checks the length and the line again (422 fields).
    if (!text) {
      setErrors({ reason: SUBSCRIPTION_REASON_REQUIRED });
      return;
    }
    setErrors({});
    setFailure(null);
    cancel.mutate(
      { id: row.id, atPeriodEnd, reason: text },
      {
        onSuccess: onCancelled,
        onError: (error) => {
          if (isApiError(error)) setErrors(error.fields);
          setFailure(errorMessage(error, 'The subscription could not be cancelled.'));
        },
      },
    );
  };

  const action = atPeriodEnd ? 'Cancel at period end' : 'Cancel now';
  return (
    <FormDialog
      title={`${action}: ${row.product_name}`}
      description={staffCancelStatement(row, atPeriodEnd)}
      confirmLabel={action}
      pendingLabel="Cancelling..."
      cancelLabel="Keep the subscription"
      danger
      pending={busy}
      error={failure}
      onSubmit={submit}
      onClose={close}
    >
      <FormField
        label="Reason"
        name="reason"
        required
        requiredMark
        maxLength={MAX_SUBSCRIPTION_CANCEL_REASON}
        hint="One line, e.g. what the customer asked for."
        value={reason}
        error={errors.reason}
        onChange={(event) => setReason(event.target.value)}
      />
    </FormDialog>
  );
}
