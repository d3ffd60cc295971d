// The order's money after the sale: the late-payment notice, its tax documents (each to its
// printable document) and any payment that arrived after it was cancelled, or after it was paid
// another way (Mark as paid): that one staff return here, with no credit note.
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Panel } from '@/components/detail';
import { FormAlert } from '@/components/detail/FormAlert';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { newIdempotencyKey } from '@/lib/idempotency';
import { useRefundOrder } from '../api/refundOrder';
import type { OrderDetail } from '../api/schemas';
import { invoiceKindLabel } from '../invoices';

export const PAID_AFTER_CANCELLATION = 'Paid after cancellation';

export const PAID_TWICE_NOTICE = 'Paid twice';

export function LateNotice({ order }: { order: OrderDetail }) {
  if (order.payment_to_return)
    return (
      <div role="note" aria-label={PAID_TWICE_NOTICE} className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
        <p className="font-semibold">{PAID_TWICE_NOTICE}</p>
        <p className="mt-1 text-sm">
          A payment arrived for this order after it had been paid another way. Return it to the customer under Late Payments: the order stays paid.
        </p>
      </div>
    );
  if (!order.paid_after_cancellation && !order.late_payments.some((p) => p.reason === 'after_cancellation')) return null;
  return (
    <div role="note" aria-label={PAID_AFTER_CANCELLATION} className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">{PAID_AFTER_CANCELLATION}</p>
      <p className="mt-1 text-sm">
        A payment arrived after this order was cancelled. It is counted as revenue until it is refunded: refund it or reinstate the order.
      </p>
    </div>
  );
}

export function OrderInvoices({ order }: { order: OrderDetail }) {
  if (order.invoices.length === 0) return null;
  return (
    <Panel id="order-invoices" title="Tax Invoices">
      <ul className="mt-3 space-y-2 text-sm">
        {order.invoices.map((invoice) => (
          <li key={invoice.number}>
            <Link className="font-medium text-blue-700 underline" to={`/account/invoices/${encodeURIComponent(invoice.number)}?staff=1`}>
              {invoiceKindLabel(invoice.kind)} {invoice.number}
            </Link>{' '}
            {formatMoney(invoice.total_amount, order.currency)}
          </li>
        ))}
      </ul>
    </Panel>
  );
}

export function LatePayments({ order }: { order: OrderDetail }) {
  const [returning, setReturning] = useState<OrderDetail['late_payments'][number] | null>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const refund = useRefundOrder();
  if (order.late_payments.length === 0) return null;
  const left = (p: OrderDetail['late_payments'][number]) => p.amount - p.returned_amount;
  const confirm = () => {
    if (!returning) return;
    refund.mutate(
      { id: order.id, amount: left(returning), reason: 'Paid twice', restock: false, lines: [], idempotencyKey: key, latePaymentId: returning.id },
      {
        onSuccess: () => {
          setReturning(null);
          setKey(newIdempotencyKey());
        },
      },
    );
  };
  return (
    <Panel id="late-payments" title="Late Payments" tone="alert">
      <ul className="mt-3 space-y-2 text-sm">
        {order.late_payments.map((payment) => (
          <li key={payment.id}>
            {formatDate(payment.at, { withTime: true })}: {formatMoney(payment.amount, payment.currency)} via {payment.provider}
            {payment.provider_reference ? ` (${payment.provider_reference})` : ''}
            {payment.reason === 'already_paid' ? (
              <>
                {' '}
                · paid twice
                {payment.returned_amount > 0 ? `, ${formatMoney(payment.returned_amount, payment.currency)} returned` : ''}
                {left(payment) > 0 ? (
                  <button type="button" className="btn-secondary ml-3" onClick={() => setReturning(payment)}>
                    Return payment
                  </button>
                ) : null}
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {refund.error && !returning ? <FormAlert tone="error">{errorMessage(refund.error, 'The payment could not be returned.')}</FormAlert> : null}
      <ConfirmDialog
        open={returning !== null}
        title="Return payment"
        message={
          returning
            ? `Return ${formatMoney(left(returning), returning.currency)} to the customer through ${returning.provider}? The order stays paid, and no credit note is issued.`
            : ''
        }
        confirmLabel="Return payment"
        danger
        busy={refund.isPending}
        onConfirm={confirm}
        onCancel={() => setReturning(null)}
      />
    </Panel>
  );
}
