// The order's money after the sale: the late-payment notice, its tax documents (each to its
// printable document) and any payment that arrived after it was cancelled.
import { Link } from 'react-router';
import { Panel } from '@/components/detail';
import { formatDate, formatMoney } from '@/lib/format';
import type { OrderDetail } from '../api/schemas';
import { invoiceKindLabel } from '../invoices';

export const PAID_AFTER_CANCELLATION = 'Paid after cancellation';

export function LateNotice({ order }: { order: OrderDetail }) {
  if (!order.paid_after_cancellation && order.late_payments.length === 0) return null;
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
  if (order.late_payments.length === 0) return null;
  return (
    <Panel id="late-payments" title="Late Payments" tone="alert">
      <ul className="mt-3 space-y-2 text-sm">
        {order.late_payments.map((payment, index) => (
          <li key={`${payment.at}-${String(index)}`}>
            {formatDate(payment.at, { withTime: true })}: {formatMoney(payment.amount, payment.currency)} via {payment.provider}
            {payment.provider_reference ? ` (${payment.provider_reference})` : ''}
          </li>
        ))}
      </ul>
    </Panel>
  );
}
