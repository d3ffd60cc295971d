// "Cancel order" for a paid order (its `cancellable`): a required reason (one line) and whether the
// items go back to stock, then a confirmation that says exactly what will happen ("Refunds $98.00
// to the customer, returns 2 items to stock, emails the customer."): what is left to refund, and
// the units not yet back in stock, left out when the box is unticked. The server's field errors
// show beside the fields; a provider failure (502, nothing changed) in the dialog; a refused move
// (409) closes it and goes to the page's alert.
import { useState } from 'react';
import { FormDialog } from '@/components/detail';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { MAX_CANCEL_REASON, useCancelOrder } from '../api/cancelOrder';
import { isRefusedMove } from '../api/invalidate';
import type { OrderDetail } from '../api/schemas';
import { refundStatement, unitsNotRestocked } from '../orderActions';

export const CANCEL_REASON_REQUIRED = 'Give the reason for cancelling the order.';

interface CancelOrderDialogProps {
  order: OrderDetail;
  onClose: () => void;
  onCancelled: () => void;
  onRefused: (message: string) => void;
}

export function CancelOrderDialog({ order, onClose, onCancelled, onRefused }: CancelOrderDialogProps) {
  const cancel = useCancelOrder();
  const [reason, setReason] = useState('');
  // Ticked for goods (a digital order has nothing to put back on a shelf); the confirmation says either way.
  const [restock, setRestock] = useState(order.has_physical_items);
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const review = () => {
    if (!reason.trim()) {
      setErrors({ reason: CANCEL_REASON_REQUIRED });
      return;
    }
    setErrors({});
    setFailure(null);
    setConfirming(true);
  };

  const confirm = () =>
    cancel.mutate(
      { id: order.id, reason, restock },
      {
        onSuccess: onCancelled,
        onError: (error) => {
          if (isRefusedMove(error)) {
            onRefused(errorMessage(error));
            return;
          }
          setConfirming(false);
          if (isApiError(error)) setErrors(error.fields);
          setFailure(errorMessage(error, 'The order could not be cancelled.'));
        },
      },
    );

  if (confirming) {
    const statement = refundStatement({ amount: order.refundable_amount, currency: order.currency, restocked: restock ? unitsNotRestocked(order.items) : 0 });
    return (
      <ConfirmDialog
        open
        title={`Confirm cancellation of order ${order.order_number}`}
        message={statement}
        confirmLabel="Cancel order"
        cancelLabel="Back"
        danger
        busy={cancel.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      />
    );
  }

  return (
    <FormDialog
      onClose={onClose}
      title={`Cancel order ${order.order_number}`}
      description="The order is cancelled and what is left of its payment goes back to the customer through the payment provider."
      confirmLabel="Continue"
      cancelLabel="Keep the order"
      danger
      error={failure}
      onSubmit={review}
    >
      <FormField
        label="Reason"
        name="reason"
        required
        requiredMark
        maxLength={MAX_CANCEL_REASON}
        hint="One line, e.g. what the customer asked for."
        value={reason}
        error={errors.reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={restock}
            aria-invalid={errors.restock ? true : undefined}
            aria-describedby={errors.restock ? 'cancel-restock-error' : undefined}
            onChange={(event) => setRestock(event.target.checked)}
          />
          Return the items to stock
        </label>
        {errors.restock ? (
          <p id="cancel-restock-error" className="mt-1 text-sm text-red-700">
            {errors.restock}
          </p>
        ) : null}
      </div>
    </FormDialog>
  );
}
