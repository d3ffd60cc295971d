// /admin/orders/:id: one order with its items, its status history (who changed what, when and
// from where, oldest first) and any payment that arrived after it was cancelled.
import { useCallback, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Banner, type BannerMessage } from '@/components/Banner';
import { errorMessage, isApiError } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { addressLines } from '@/lib/shipping';
import { useOrder } from '../api/getOrder';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { OrderStatusSelect } from '../components/OrderStatusSelect';
import { Badge } from '@/components/list/Badge';
import { RefundDialog } from '../components/RefundDialog';
import { ShipOrderDialog } from '../components/ShipOrderDialog';
import { orderTone, statusLabel } from '../status';
import { customerOf } from './OrderManagementPage';

const SOURCES: Record<string, string> = { staff: 'Staff', provider: 'Payment provider', system: 'System', customer: 'Customer' };

export const PAID_AFTER_CANCELLATION = 'Paid after cancellation';
export const DISPUTED = 'Disputed';

const REFUND_STATUSES: Record<string, string> = {
  requested: 'Waiting for the payment provider',
  pending: 'Pending',
  succeeded: 'Refunded',
  failed: 'Failed',
  canceled: 'Cancelled',
};

/** Only money that came through the payment provider can be refunded here, and only what is left. */
function refundable(order: { status: string; total_amount: number; refunded_amount: number; paid_after_cancellation: boolean }) {
  const paid = ['paid', 'shipped', 'completed', 'refunded'].includes(order.status) || order.paid_after_cancellation;
  return paid && order.refunded_amount < order.total_amount;
}

export function OrderDetailPage() {
  const { id = '' } = useParams();
  const order = useOrder(id);
  useLogLoadFailure('the order', order.error);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const [refunding, setRefunding] = useState(false);
  const [editingTracking, setEditingTracking] = useState(false);
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
              <OrderStatusSelect
                order={data}
                onChanged={(status) => setMessage({ tone: 'success', text: `Order ${data.order_number} is now ${statusLabel(status)}.` })}
                onFailed={(error) => setMessage({ tone: 'error', text: errorMessage(error, 'Failed to update the order status') })}
              />
            </dd>
          </div>
        </dl>
        {refundable(data) ? (
          <div className="mt-4 flex justify-end">
            <button type="button" className="btn-secondary" onClick={() => setRefunding(true)}>
              Refund
            </button>
          </div>
        ) : null}
      </section>
      {refunding ? (
        <RefundDialog
          order={data}
          onClose={() => setRefunding(false)}
          onRefunded={(amount) => {
            setRefunding(false);
            setMessage({ tone: 'success', text: `Refunded ${formatMoney(amount, data.currency)} of order ${data.order_number}.` });
          }}
        />
      ) : null}

      <section aria-labelledby="order-shipping" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="order-shipping" className="text-lg font-semibold text-slate-900">
            Shipping
          </h2>
          <div className="flex gap-3">
            {data.status === 'shipped' ? (
              <button type="button" className="btn-secondary" onClick={() => setEditingTracking(true)}>
                Update tracking
              </button>
            ) : null}
            {data.shipping_address ? (
              <Link to={`/admin/orders/${encodeURIComponent(data.id)}/packing-slip`} className="btn-secondary">
                Packing slip
              </Link>
            ) : null}
          </div>
        </div>
        {data.shipping_address ? (
          <dl className="mt-3 grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-slate-500">Ship to</dt>
              <dd className="mt-1 text-slate-900">
                <address className="not-italic">
                  {addressLines(data.shipping_address).map((line, index) => (
                    <span key={`${line}-${String(index)}`} className="block">
                      {line}
                    </span>
                  ))}
                </address>
                {data.shipping_address.phone ? <span className="mt-1 block">Phone: {data.shipping_address.phone}</span> : null}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Tracking</dt>
              <dd className="mt-1 text-slate-900">
                {data.carrier || data.tracking_number ? (
                  <>
                    {data.carrier ? <span className="block">Carrier: {data.carrier}</span> : null}
                    {data.tracking_number ? <span className="block">Tracking number: {data.tracking_number}</span> : null}
                  </>
                ) : (
                  <span className="text-slate-500">No tracking yet.</span>
                )}
                {data.shipped_at ? <span className="block text-xs text-slate-500">Shipped {formatDate(data.shipped_at, { withTime: true })}</span> : null}
              </dd>
            </div>
          </dl>
        ) : (
          <p className="mt-2 text-sm text-slate-500">
            No shipping address (a digital order).
            {data.carrier || data.tracking_number ? ` Tracking: ${[data.carrier, data.tracking_number].filter(Boolean).join(' ')}` : ''}
          </p>
        )}
        {editingTracking ? (
          <ShipOrderDialog
            open
            order={data}
            onClose={() => setEditingTracking(false)}
            onShipped={() => {
              setEditingTracking(false);
              setMessage({ tone: 'success', text: `Tracking of order ${data.order_number} updated.` });
            }}
          />
        ) : null}
      </section>

      <Panel id="order-items" title="Items">
        {data.items.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">No items.</p>
        ) : (
          <table className="mt-3 min-w-full text-sm">
            <caption className="sr-only">Items</caption>
            <thead>
              <tr className="text-left text-xs uppercase text-slate-500">
                <th scope="col" className="py-2">Product</th>
                <th scope="col" className="py-2">Quantity</th>
                <th scope="col" className="py-2">Unit Price</th>
                <th scope="col" className="py-2">Total</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.items.map((item, index) => (
                <tr key={`${item.product_id ?? 'item'}-${String(index)}`}>
                  <td className="py-2">{item.product_name}</td>
                  <td className="py-2">{item.quantity}</td>
                  <td className="py-2">{formatMoney(item.unit_amount, data.currency)}</td>
                  <td className="py-2">{formatMoney(item.unit_amount * item.quantity, data.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>

      <Panel id="order-history" title="Status History">
        {data.history.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">No status changes yet.</p>
        ) : (
          <table className="mt-3 min-w-full text-sm">
            <caption className="sr-only">Status History</caption>
            <thead>
              <tr className="text-left text-xs uppercase text-slate-500">
                <th scope="col" className="py-2">When</th>
                <th scope="col" className="py-2">Change</th>
                <th scope="col" className="py-2">Source</th>
                <th scope="col" className="py-2">By</th>
                <th scope="col" className="py-2">Note</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.history.map((entry, index) => (
                <tr key={`${entry.at}-${String(index)}`}>
                  <td className="py-2">{formatDate(entry.at, { withTime: true })}</td>
                  <td className="py-2">
                    {entry.from_status ? `${statusLabel(entry.from_status)} → ${statusLabel(entry.to_status)}` : statusLabel(entry.to_status)}
                  </td>
                  <td className="py-2">{SOURCES[entry.source] ?? entry.source}</td>
                  <td className="py-2">{entry.actor_email ?? '—'}</td>
                  <td className="py-2">{entry.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>

      {data.refunds.length > 0 ? (
        <Panel id="order-refunds" title="Refunds">
          <table className="mt-3 min-w-full text-sm">
            <caption className="sr-only">Refunds</caption>
            <thead>
              <tr className="text-left text-xs uppercase text-slate-500">
                <th scope="col" className="py-2">When</th>
                <th scope="col" className="py-2">Amount</th>
                <th scope="col" className="py-2">Status</th>
                <th scope="col" className="py-2">By</th>
                <th scope="col" className="py-2">Reason</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.refunds.map((refund) => (
                <tr key={refund.id}>
                  <td className="py-2">{formatDate(refund.created_at, { withTime: true })}</td>
                  <td className="py-2">
                    {formatMoney(refund.amount, refund.currency)}
                    {refund.restock ? <span className="block text-xs text-slate-500">Items returned to stock</span> : null}
                  </td>
                  <td className="py-2">{REFUND_STATUSES[refund.status] ?? refund.status}</td>
                  <td className="py-2">{refund.source === 'provider' ? 'Payment provider' : (refund.actor_email ?? 'Staff')}</td>
                  <td className="py-2">{refund.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      ) : null}

      {data.invoices.length > 0 ? (
        <Panel id="order-invoices" title="Tax Invoices">
          <ul className="mt-3 space-y-2 text-sm">
            {data.invoices.map((invoice) => (
              <li key={invoice.number}>
                <Link className="font-medium text-blue-700 underline" to={`/account/invoices/${encodeURIComponent(invoice.number)}?staff=1`}>
                  {invoice.kind === 'credit_note' ? 'Credit note' : 'Tax invoice'} {invoice.number}
                </Link>{' '}
                {formatMoney(invoice.total_amount, data.currency)}
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}

      {data.late_payments.length > 0 ? (
        <Panel id="late-payments" title="Late Payments" tone="alert">
          <ul className="mt-3 space-y-2 text-sm">
            {data.late_payments.map((payment, index) => (
              <li key={`${payment.at}-${String(index)}`}>
                {formatDate(payment.at, { withTime: true })}: {formatMoney(payment.amount, payment.currency)} via {payment.provider}
                {payment.provider_reference ? ` (${payment.provider_reference})` : ''}
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}
    </StaffPage>
  );
}

/** One card of the order page: a region named by its heading. */
function Panel({ id, title, tone, children }: { id: string; title: string; tone?: 'alert'; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={`rounded-xl border ${tone === 'alert' ? 'border-red-200' : 'border-slate-200'} bg-white p-5 shadow-sm`}>
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
