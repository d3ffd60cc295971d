// The top card of the order page: customer (a link to their page when the order has an account),
// amount and refunds, date, status with its flags, and the actions the status allows.
import { Link } from 'react-router';
import type { BannerMessage } from '@/components/Banner';
import { FieldList, type Field } from '@/components/detail';
import { Badge } from '@/components/list/Badge';
import { formatDate, formatMoney } from '@/lib/format';
import type { OrderDetail } from '../api/schemas';
import { OrderActions } from '../components/OrderActions';
import { customerPath } from '../links';
import { customerOf } from '../routes/OrderManagementPage';
import { AMOUNT_MISMATCH, PAID_TWICE, orderTone, statusLabel } from '../status';

export const DISPUTED = 'Disputed';

function Customer({ order }: { order: OrderDetail }) {
  if (order.user_id && order.customer_email) {
    return (
      <Link to={customerPath(order.user_id)} className="text-brand-700 hover:underline">
        {order.customer_email}
      </Link>
    );
  }
  return (
    <>
      {customerOf(order)}
      {!order.user_id && order.customer_email ? <span className="block text-xs font-normal text-slate-500">{order.customer_email}</span> : null}
    </>
  );
}

export function OrderSummary({ order, onMessage }: { order: OrderDetail; onMessage: (message: BannerMessage) => void }) {
  const fields: Field[] = [
    ['Customer', <Customer key="customer" order={order} />],
    [
      'Amount',
      <>
        {formatMoney(order.total_amount, order.currency)}
        {order.refunded_amount > 0 ? (
          <span className="block text-xs font-normal text-slate-600">Refunded: {formatMoney(order.refunded_amount, order.currency)}</span>
        ) : null}
      </>,
    ],
    ['Date', formatDate(order.created_at, { withTime: true })],
    [
      'Status',
      <div key="status" className="flex items-center gap-2">
        <Badge tone={orderTone(order.status)}>{statusLabel(order.status)}</Badge>
        {order.disputed ? <Badge tone="red">{DISPUTED}</Badge> : null}
        {order.amount_mismatch ? <Badge tone="red">{AMOUNT_MISMATCH}</Badge> : null}
        {order.payment_to_return ? <Badge tone="red">{PAID_TWICE}</Badge> : null}
      </div>,
    ],
  ];
  return (
    <section aria-label="Summary" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <FieldList fields={fields} className="" />
      <OrderActions order={order} onMessage={onMessage} />
    </section>
  );
}
