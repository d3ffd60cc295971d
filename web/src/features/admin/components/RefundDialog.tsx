// The "Refund" dialog of an order: the amount (prefilled with what is left), a reason and whether
// the items go back to stock. One Idempotency-Key per opening: pressing Refund twice, or again after
// a failure, never refunds twice (docs/billing.md, "The ledger, refunds and disputes").
import { useState, type SyntheticEvent } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import type { OrderDetail } from '../api/schemas';
import { useRefundOrder } from '../api/refundOrder';
import { majorToMinor, minorToMajor } from '../money';

export const REFUND_FAILED = 'The refund could not be made.';

interface RefundDialogProps {
  order: OrderDetail;
  onClose: () => void;
  onRefunded: (amount: number) => void;
}

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${String(Date.now())}-${String(Math.random())}`;
}

export function RefundDialog({ order, onClose, onRefunded }: RefundDialogProps) {
  const remaining = Math.max(0, order.total_amount - order.refunded_amount);
  const [amount, setAmount] = useState(minorToMajor(remaining));
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [key] = useState(newKey);
  const refund = useRefundOrder();

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const cents = majorToMinor(amount);
    if (cents === null || cents <= 0) {
      setErrors({ amount: 'Enter an amount above 0, e.g. 12.50' });
      return;
    }
    if (cents > remaining) {
      setErrors({ amount: `At most ${formatMoney(remaining, order.currency)} can still be refunded.` });
      return;
    }
    setErrors({});
    setFailure(null);
    refund.mutate(
      { id: order.id, amount: cents, reason, restock, idempotencyKey: key },
      {
        onSuccess: () => onRefunded(cents),
        onError: (error) => {
          if (isApiError(error)) setErrors(error.fields);
          setFailure(errorMessage(error, REFUND_FAILED));
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} title={`Refund order ${order.order_number}`} description={`${formatMoney(remaining, order.currency)} of ${formatMoney(order.total_amount, order.currency)} can still be refunded.`}>
      <DialogCloseButton onClick={onClose} />
      <form noValidate onSubmit={submit} className="mt-4 space-y-4">
        {failure ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {failure}
          </p>
        ) : null}
        <FormField
          label="Amount"
          name="amount"
          inputMode="decimal"
          required
          requiredMark
          hint={`In ${order.currency}, e.g. 12.50`}
          value={amount}
          error={errors.amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        <FormField label="Reason" name="reason" multiline maxLength={500} value={reason} error={errors.reason} onChange={(event) => setReason(event.target.value)} />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={restock} onChange={(event) => setRestock(event.target.checked)} />
          Return the items to stock
        </label>
        <div className="flex justify-end gap-3">
          <button type="button" className="btn-secondary" onClick={onClose} disabled={refund.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn-primary" disabled={refund.isPending}>
            {refund.isPending ? 'Refunding...' : 'Refund'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
