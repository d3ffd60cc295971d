// Staff "Refund latest payment" for a customer's subscription: the amount (major units) and an
// optional reason, then a confirmation that says what happens before anything is done. One
// Idempotency-Key per opening, so pressing Refund twice, or again after a failure, never refunds
// twice. The server's field errors show beside the field, anything else in the dialog.
import { useState } from 'react';
import { FormDialog } from '@/components/detail';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { newIdempotencyKey } from '@/lib/idempotency';
import { useRefundSubscription, type SubscriptionRefund } from '../api/refundSubscription';
import type { SubscriptionRow } from '../api/schemas';
import { majorToMinor, minorToMajor } from '../money';
import { subscriptionSubject } from './SubscriptionRowActions';

export const SUBSCRIPTION_REFUND_FAILED = 'The refund could not be made.';

interface SubscriptionRefundDialogProps {
  row: SubscriptionRow;
  onClose: () => void;
  onRefunded: (refund: SubscriptionRefund) => void;
}

export function SubscriptionRefundDialog({ row, onClose, onRefunded }: SubscriptionRefundDialogProps) {
  const refund = useRefundSubscription();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [cents, setCents] = useState<number | null>(null);
  const [key] = useState(newIdempotencyKey);
  const subject = subscriptionSubject(row);

  const review = () => {
    const value = majorToMinor(amount);
    if (value === null || value <= 0) {
      setErrors({ amount: 'Enter an amount above 0, e.g. 12.50' });
      return;
    }
    setErrors({});
    setFailure(null);
    setCents(value);
  };

  const confirm = (value: number) => {
    refund.mutate(
      { id: row.id, amount: value, reason, idempotencyKey: key },
      {
        onSuccess: onRefunded,
        onError: (error) => {
          setCents(null);
          if (isApiError(error)) setErrors(error.fields);
          setFailure(errorMessage(error, SUBSCRIPTION_REFUND_FAILED));
        },
      },
    );
  };

  if (cents !== null)
    return (
      <ConfirmDialog
        open
        title={`Confirm refund: ${subject}`}
        message={`${minorToMajor(cents)} of the latest payment goes back to the card or account it came from, and a credit note is issued. This cannot be undone.`}
        confirmLabel="Refund"
        cancelLabel="Back"
        danger
        busy={refund.isPending}
        onConfirm={() => confirm(cents)}
        onCancel={() => setCents(null)}
      />
    );

  return (
    <FormDialog onClose={onClose} title={`Refund latest payment: ${row.product_name}`} description={`Refunds part or all of the latest payment of ${subject}.`} confirmLabel="Review refund" error={failure} onSubmit={review}>
      <FormField
        label="Amount"
        name="amount"
        inputMode="decimal"
        required
        requiredMark
        hint="In the payment's currency, e.g. 12.50"
        value={amount}
        error={errors.amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <FormField label="Reason" name="reason" maxLength={500} hint="One line (optional)." value={reason} error={errors.reason} onChange={(event) => setReason(event.target.value)} />
    </FormDialog>
  );
}
