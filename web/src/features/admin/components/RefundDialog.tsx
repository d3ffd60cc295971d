// The "Refund" dialog of an order: how many units of each line to refund (none: an amount only),
// the amount (the chosen lines' total, or what is left; it may be lowered, never raised), a
// reason, and whether the chosen items go back to stock. Then a confirmation that says what will
// happen ("Refunds $49.00 to the customer, returns 1 item to stock, emails the customer."). The
// server's field errors (amount, restock, `lines[i]`) show beside their fields. One
// Idempotency-Key per opening: pressing Refund twice, or again after a failure, never refunds
// twice (docs/billing.md, "The ledger, refunds and disputes").
import { useState } from 'react';
import { FormDialog } from '@/components/detail';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import { isRefusedMove } from '../api/invalidate';
import { newIdempotencyKey } from '@/lib/idempotency';
import { useRefundOrder, type RefundLine } from '../api/refundOrder';
import type { OrderDetail } from '../api/schemas';
import { majorToMinor, minorToMajor } from '../money';
import { refundStatement } from '../orderActions';
import { RefundLines } from './RefundLines';

export const REFUND_FAILED = 'The refund could not be made.';

interface RefundDialogProps {
  order: OrderDetail;
  onClose: () => void;
  onRefunded: (amount: number) => void;
  onRefused: (message: string) => void;
}

interface Plan {
  amount: number;
  lines: RefundLine[];
  restock: boolean;
}

/** The chosen lines, in the order's order (their places are the `lines[i]` of the server's errors). */
function chosenLines(order: OrderDetail, quantities: Record<string, number>): RefundLine[] {
  return order.items.flatMap((item) => {
    const quantity = quantities[item.id] ?? 0;
    return quantity > 0 ? [{ order_item_id: item.id, quantity }] : [];
  });
}

/** The most the refund may be: the chosen lines' total (within what is left), or what is left. */
function ceiling(order: OrderDetail, lines: RefundLine[]): number {
  if (lines.length === 0) return order.refundable_amount;
  const total = lines.reduce((sum, line) => sum + line.quantity * (order.items.find((i) => i.id === line.order_item_id)?.unit_amount ?? 0), 0);
  return Math.min(total, order.refundable_amount);
}

export function RefundDialog({ order, onClose, onRefunded, onRefused }: RefundDialogProps) {
  const remaining = order.refundable_amount;
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [amount, setAmount] = useState(minorToMajor(remaining));
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [sent, setSent] = useState<RefundLine[]>([]);
  const [key] = useState(newIdempotencyKey);
  const refund = useRefundOrder();
  const lines = chosenLines(order, quantities);
  const cap = ceiling(order, lines);

  const choose = (itemId: string, quantity: number) => {
    const next = { ...quantities, [itemId]: quantity };
    const nextLines = chosenLines(order, next);
    setQuantities(next);
    setAmount(minorToMajor(ceiling(order, nextLines)));
    if (nextLines.length === 0) setRestock(false);
  };

  const review = () => {
    const cents = majorToMinor(amount);
    if (cents === null || cents <= 0) {
      setErrors({ amount: 'Enter an amount above 0, e.g. 12.50' });
      return;
    }
    if (cents > cap) {
      const text = lines.length > 0 ? `At most ${formatMoney(cap, order.currency)} for the chosen items.` : `At most ${formatMoney(remaining, order.currency)} can still be refunded.`;
      setErrors({ amount: text });
      return;
    }
    setErrors({});
    setFailure(null);
    setPlan({ amount: cents, lines, restock: restock && lines.length > 0 });
  };

  const confirm = (chosen: Plan) => {
    setSent(chosen.lines);
    refund.mutate(
      { id: order.id, amount: chosen.amount, reason, restock: chosen.restock, lines: chosen.lines, idempotencyKey: key },
      {
        onSuccess: () => onRefunded(chosen.amount),
        onError: (error) => {
          if (isRefusedMove(error)) {
            onRefused(errorMessage(error));
            return;
          }
          setPlan(null);
          if (isApiError(error)) setErrors(error.fields);
          setFailure(errorMessage(error, REFUND_FAILED));
        },
      },
    );
  };

  if (plan) {
    const restocked = plan.restock ? plan.lines.reduce((sum, line) => sum + line.quantity, 0) : 0;
    return (
      <ConfirmDialog
        open
        title={`Confirm refund of order ${order.order_number}`}
        message={refundStatement({ amount: plan.amount, currency: order.currency, restocked })}
        confirmLabel="Refund"
        cancelLabel="Back"
        danger
        busy={refund.isPending}
        onConfirm={() => confirm(plan)}
        onCancel={() => setPlan(null)}
      />
    );
  }

  // A line's error names its place among the lines last sent.
  const lineErrors = Object.fromEntries(sent.map((line, index) => [line.order_item_id, errors[`lines[${String(index)}]`]]));
  return (
    <FormDialog
      onClose={onClose}
      size="lg"
      title={`Refund order ${order.order_number}`}
      description={`${formatMoney(remaining, order.currency)} of ${formatMoney(order.total_amount, order.currency)} can still be refunded.`}
      confirmLabel="Continue"
      error={failure}
      onSubmit={review}
    >
      <RefundLines items={order.items} currency={order.currency} quantities={quantities} errors={lineErrors} onChange={choose} />
      {errors.lines ? <p className="text-sm text-red-700">{errors.lines}</p> : null}
      <FormField
        label="Amount"
        name="amount"
        inputMode="decimal"
        required
        requiredMark
        hint={lines.length > 0 ? `In ${order.currency}: the chosen items come to ${formatMoney(cap, order.currency)}; you may refund less.` : `In ${order.currency}, e.g. 12.50`}
        value={amount}
        error={errors.amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <FormField label="Reason" name="reason" multiline rows={3} maxLength={500} value={reason} error={errors.reason} onChange={(event) => setReason(event.target.value)} />
      <div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={restock}
            disabled={lines.length === 0}
            aria-describedby="refund-restock-note"
            aria-invalid={errors.restock ? true : undefined}
            onChange={(event) => setRestock(event.target.checked)}
          />
          Return these items to stock
        </label>
        <p id="refund-restock-note" className={errors.restock ? 'mt-1 text-sm text-red-700' : 'mt-1 text-xs text-slate-500'}>
          {errors.restock ?? (lines.length > 0 ? 'The units chosen above go back to stock.' : 'Choose the items above to return them to stock.')}
        </p>
      </div>
    </FormDialog>
  );
}
