// /admin/orders/:id: one order with its items (what was refunded and returned to stock per line),
// its status history (who changed what, when and from where, oldest first), its refunds and tax
// documents, any payment that arrived after it was cancelled, and the actions its status allows
// (components/OrderActions: no free status choice; the lifecycle table is the server's).
import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Banner, type BannerMessage } from '@/components/Banner';
import { isApiError } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { useOrder } from '../api/getOrder';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { Badge } from '@/components/list/Badge';
import { invoiceKindLabel } from '../invoices';
import { OrderActions } from '../components/OrderActions';
import { OrderPanel } from '../components/OrderPanel';
import { OrderShipping } from '../components/OrderShipping';
import { OrderItemsTable, RefundsTable, StatusHistoryTable } from '../components/OrderTables';
import { AMOUNT_MISMATCH, orderTone, statusLabel } from '../status';
import { customerOf } from './OrderManagementPage';

export const PAID_AFTER_CANCELLATION = 'Paid after cancellation';
export const DISPUTED = 'Disputed';

export function OrderDetailPage() {
  const { id = '' } = useParams();
  const order = useOrder(id);
  useLogLoadFailure('the order', order.error);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const dismiss = useCallback(() => setMessage(null), []);
  const back = { to: '/admin/orders', label: 'Back to Order Management' };
  const data = order.data;

  if (!data) {
    const missing = isApiError(order.error) && order.error.status === 404;
    return (
      <StaffPage title="Order Details" back={back} error={order.error}>
        {order.isPending ? (
          <p role="status" className="py-12 text-center text-slate-500">
            Loading ...
          </p>
        ) : (
          <p className="text-slate-600">{missing ? 'Order not found.' : 'The order could not be loaded.'}</p>
        )}
      </StaffPage>
    );
  }

  const late = data.paid_after_cancellation || data.late_payments.length > 0;
  return (
    <StaffPage title={`Order ${data.order_number}`} back={back}>
      <Banner message={message} onDismiss={dismiss} />
      {late ? (
        <div role="note" aria-label={PAID_AFTER_CANCELLATION} className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
          <p className="font-semibold">{PAID_AFTER_CANCELLATION}</p>
          <p className="mt-1 text-sm">
            A payment arrived after this order was cancelled. It is counted as revenue until it is refunded: refund it or reinstate the order.
          </p>
        </div>
      ) : null}
      <section aria-label="Summary" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-500">Customer</dt>
            <dd className="mt-1 font-medium text-slate-900">
              {customerOf(data)}
              {!data.user_id && data.customer_email ? <span className="block text-xs font-normal text-slate-500">{data.customer_email}</span> : null}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Amount</dt>
            <dd className="mt-1 font-medium text-slate-900">
              {formatMoney(data.total_amount, data.currency)}
              {data.refunded_amount > 0 ? (
                <span className="block text-xs font-normal text-slate-600">Refunded: {formatMoney(data.refunded_amount, data.currency)}</span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Date</dt>
            <dd className="mt-1 font-medium text-slate-900">{formatDate(data.created_at, { withTime: true })}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Status</dt>
            <dd className="mt-1 flex items-center gap-2">
              <Badge tone={orderTone(data.status)}>{statusLabel(data.status)}</Badge>
              {data.disputed ? <Badge tone="red">{DISPUTED}</Badge> : null}
              {data.amount_mismatch ? <Badge tone="red">{AMOUNT_MISMATCH}</Badge> : null}
            </dd>
          </div>
        </dl>
        <OrderActions order={data} onMessage={setMessage} />
      </section>

      <OrderShipping order={data} onMessage={setMessage} />

      <OrderPanel id="order-items" title="Items">
        <OrderItemsTable order={data} />
      </OrderPanel>

      <OrderPanel id="order-history" title="Status History">
        <StatusHistoryTable history={data.history} />
      </OrderPanel>

      {data.refunds.length > 0 ? (
        <OrderPanel id="order-refunds" title="Refunds">
          <RefundsTable refunds={data.refunds} />
        </OrderPanel>
      ) : null}

      {data.invoices.length > 0 ? (
        <OrderPanel id="order-invoices" title="Tax Invoices">
          <ul className="mt-3 space-y-2 text-sm">
            {data.invoices.map((invoice) => (
              <li key={invoice.number}>
                <Link className="font-medium text-blue-700 underline" to={`/account/invoices/${encodeURIComponent(invoice.number)}?staff=1`}>
                  {invoiceKindLabel(invoice.kind)} {invoice.number}
                </Link>{' '}
                {formatMoney(invoice.total_amount, data.currency)}
              </li>
            ))}
          </ul>
        </OrderPanel>
      ) : null}

      {data.late_payments.length > 0 ? (
        <OrderPanel id="late-payments" title="Late Payments" tone="alert">
          <ul className="mt-3 space-y-2 text-sm">
            {data.late_payments.map((payment, index) => (
              <li key={`${payment.at}-${String(index)}`}>
                {formatDate(payment.at, { withTime: true })}: {formatMoney(payment.amount, payment.currency)} via {payment.provider}
                {payment.provider_reference ? ` (${payment.provider_reference})` : ''}
              </li>
            ))}
          </ul>
        </OrderPanel>
      ) : null}
    </StaffPage>
  );
}
