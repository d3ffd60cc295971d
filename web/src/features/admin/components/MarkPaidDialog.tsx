// "Mark as paid": an unpaid order whose money came outside the payment provider (a bank
// transfer). The payment's reference is required (one line, at most 100 characters); the server
// then records the payment, issues the tax invoice and emails the customer. Its field error (422)
// shows beside the input; a refused move (409) closes the dialog and goes to the page's alert.
import { useRef, useState } from 'react';
import { FormDialog } from '@/components/detail';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { isRefusedMove } from '../api/invalidate';
import type { OrderRow } from '../api/schemas';
import { MAX_PAYMENT_REFERENCE, useUpdateOrderStatus } from '../api/updateOrderStatus';
import { MARK_PAID_TEXT } from '../orderActions';

export const PAYMENT_REFERENCE_REQUIRED = 'Enter the payment reference, e.g. the bank transfer reference.';

interface MarkPaidDialogProps {
  order: Pick<OrderRow, 'id' | 'order_number'>;
  onClose: () => void;
  onPaid: () => void;
  onRefused: (message: string) => void;
}

export function MarkPaidDialog({ order, onClose, onPaid, onRefused }: MarkPaidDialogProps) {
  const update = useUpdateOrderStatus();
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const submit = () => {
    const text = reference.trim();
    if (!text) {
      setError(PAYMENT_REFERENCE_REQUIRED);
      return;
    }
    setError(undefined);
    setFailure(null);
    update.mutate(
      { id: order.id, status: 'paid', payment_reference: text },
      {
        onSuccess: onPaid,
        onError: (problem) => {
          if (isRefusedMove(problem)) onRefused(errorMessage(problem));
          else if (isApiError(problem) && problem.fields.payment_reference) setError(problem.fields.payment_reference);
          else setFailure(errorMessage(problem, 'Failed to mark the order as paid'));
        },
      },
    );
  };

  return (
    <FormDialog
      title={`Mark order ${order.order_number} as paid`}
      description={MARK_PAID_TEXT}
      initialFocusRef={inputRef}
      confirmLabel="Mark as paid"
      pendingLabel="Saving..."
      pending={update.isPending}
      error={failure}
      onSubmit={submit}
      onClose={onClose}
    >
      <FormField
        label="Payment reference"
        name="payment_reference"
        inputRef={inputRef}
        required
        requiredMark
        maxLength={MAX_PAYMENT_REFERENCE}
        hint="e.g. the bank transfer reference"
        value={reference}
        error={error}
        onChange={(event) => setReference(event.target.value)}
      />
    </FormDialog>
  );
}
