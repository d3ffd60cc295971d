// The order page's tables: its items (with what was refunded and returned to stock per line), its
// status history (who changed what, when and from where, oldest first) and its refunds.
import { PlainTable } from '@/components/detail/PlainTable';
import { formatDate, formatMoney } from '@/lib/format';
import type { OrderDetail } from '../api/schemas';
import { statusLabel } from '../status';

const SOURCES: Record<string, string> = { staff: 'Staff', provider: 'Payment provider', system: 'System', customer: 'Customer' };

const REFUND_STATUSES: Record<string, string> = {
  requested: 'Waiting for the payment provider',
  pending: 'Pending',
  succeeded: 'Refunded',
  failed: 'Failed',
  canceled: 'Cancelled',
};

export function OrderItemsTable({ order }: { order: OrderDetail }) {
  if (order.items.length === 0) return <p className="mt-2 text-sm text-slate-500">No items.</p>;
  return (
    <PlainTable caption="Items" headers={['Product', 'Quantity', 'Unit Price', 'Total', 'Refunded', 'Returned to stock']}>
      {order.items.map((item) => (
        <tr key={item.id}>
          <td className="py-2 pr-3">{item.product_name}</td>
          <td className="py-2 pr-3">{item.quantity}</td>
          <td className="py-2 pr-3">{formatMoney(item.unit_amount, order.currency)}</td>
          <td className="py-2 pr-3">{formatMoney(item.unit_amount * item.quantity, order.currency)}</td>
          <td className="py-2 pr-3">{item.refunded_quantity}</td>
          <td className="py-2 pr-3">{item.restocked_quantity}</td>
        </tr>
      ))}
    </PlainTable>
  );
}

export function StatusHistoryTable({ history }: { history: OrderDetail['history'] }) {
  if (history.length === 0) return <p className="mt-2 text-sm text-slate-500">No status changes yet.</p>;
  return (
    <PlainTable caption="Status History" headers={['When', 'Change', 'Source', 'By', 'Note']}>
      {history.map((entry, index) => (
        <tr key={`${entry.at}-${String(index)}`}>
          <td className="py-2 pr-3">{formatDate(entry.at, { withTime: true })}</td>
          <td className="py-2 pr-3">{entry.from_status ? `${statusLabel(entry.from_status)} → ${statusLabel(entry.to_status)}` : statusLabel(entry.to_status)}</td>
          <td className="py-2 pr-3">{SOURCES[entry.source] ?? entry.source}</td>
          <td className="py-2 pr-3">{entry.actor_email ?? '—'}</td>
          <td className="py-2 pr-3">{entry.note ?? ''}</td>
        </tr>
      ))}
    </PlainTable>
  );
}

export function RefundsTable({ refunds }: { refunds: OrderDetail['refunds'] }) {
  return (
    <PlainTable caption="Refunds" headers={['When', 'Amount', 'Status', 'By', 'Reason']}>
      {refunds.map((refund) => (
        <tr key={refund.id}>
          <td className="py-2 pr-3">{formatDate(refund.created_at, { withTime: true })}</td>
          <td className="py-2 pr-3">
            {formatMoney(refund.amount, refund.currency)}
            {refund.restock ? <span className="block text-xs text-slate-500">Items returned to stock</span> : null}
          </td>
          <td className="py-2 pr-3">{REFUND_STATUSES[refund.status] ?? refund.status}</td>
          <td className="py-2 pr-3">{refund.source === 'provider' ? 'Payment provider' : (refund.actor_email ?? 'Staff')}</td>
          <td className="py-2 pr-3">{refund.reason ?? ''}</td>
        </tr>
      ))}
    </PlainTable>
  );
}
