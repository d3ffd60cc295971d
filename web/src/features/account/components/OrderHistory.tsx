// The dashboard's Order History (spec section 2 "Dashboard"): the newest orders from the dashboard
// call, then older ones a page at a time; each with its items, delivery and, while unpaid, the way
// to pay or cancel it (docs/billing.md, "Unpaid orders").
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/list/Badge';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { addressLines, trackingText } from '@/lib/shipping';
import { useCancelOrder } from '../api/cancelOrder';
import type { Order } from '../api/dashboard';
import { useOlderOrders } from '../api/orders';
import { orderBadge } from '../rules';

/**
 * The dashboard's newest orders, then older ones a page at a time ("Show older orders") while the
 * customer has more than are shown. An order placed meanwhile shifts the pages: ids already shown
 * are skipped.
 */
export function OrderList({ newest, total }: { newest: Order[]; total: number }) {
  const [showOlder, setShowOlder] = useState(false);
  const older = useOlderOrders(showOlder);
  const seen = new Set<string>();
  const orders: Order[] = [];
  for (const order of [...newest, ...(older.data?.pages.flatMap((page) => page.items) ?? [])]) {
    if (seen.has(order.id)) continue;
    seen.add(order.id);
    orders.push(order);
  }
  // Once asked for: more while the last page says so, or after a failure (the button retries).
  const more = showOlder ? (older.data ? older.hasNextPage : true) : orders.length < total;
  const loading = older.isFetching;

  useEffect(() => {
    if (older.error) console.error('Failed to load older orders', older.error);
  }, [older.error]);

  return (
    <>
      <ul className="mt-4 space-y-4">
        {orders.map((order) => (
          <OrderRow key={order.id} order={order} />
        ))}
      </ul>
      {older.error && !loading ? (
        <LoadError
          className={`mt-4 ${LOAD_ERROR_CLASS}`}
          error={older.error}
          title="Failed to load older orders."
          onRetry={() => void (older.data ? older.fetchNextPage() : older.refetch())}
        />
      ) : more || loading ? (
        <div className="mt-4 flex justify-center">
          <button
            type="button"
            className="btn-secondary"
            disabled={loading}
            onClick={() => {
              if (!showOlder) setShowOlder(true);
              else if (!older.data) void older.refetch();
              else void older.fetchNextPage();
            }}
          >
            {loading ? 'Loading...' : 'Show older orders'}
          </button>
        </div>
      ) : null}
    </>
  );
}

function OrderRow({ order }: { order: Order }) {
  return (
    <li>
      <article aria-label={`Order ${order.order_number}`} className="rounded-xl border border-slate-200 p-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <p className="font-semibold text-slate-900">Order {order.order_number}</p>
            <p className="text-sm text-slate-600">{formatDate(order.created_at)}</p>
            {order.invoice_number ? (
              <Link className="text-sm font-medium text-blue-700 underline" to={`/account/invoices/${encodeURIComponent(order.invoice_number)}`}>
                Tax invoice {order.invoice_number}
              </Link>
            ) : null}
          </div>
          <div className="flex items-center gap-3">
            <OrderBadge status={order.status} />
            <div className="text-right">
              <p className="text-lg font-bold text-slate-900">{formatMoney(order.total_amount, order.currency)}</p>
              {order.refunded_amount ? <p className="text-sm text-slate-600">Refunded {formatMoney(order.refunded_amount, order.currency)}</p> : null}
            </div>
          </div>
        </div>
        {order.items.length > 0 ? (
          <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3 text-sm text-slate-700" aria-label="Items">
            {order.items.map((item, index) => (
              <li key={`${item.product_name}-${String(index)}`} className="flex justify-between gap-4">
                <span>
                  {item.quantity} × {item.product_name}
                </span>
                <span>{formatMoney(item.unit_amount * item.quantity, order.currency)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <Delivery order={order} />
        <UnpaidOrder order={order} />
      </article>
    </li>
  );
}

/**
 * An unpaid order: while its checkout is open, "Complete payment" (back to the same checkout) and
 * "Cancel order" (asked twice: its items go back on sale); once the window has closed, says so.
 */
function UnpaidOrder({ order }: { order: Order }) {
  const cancel = useCancelOrder();
  const [confirming, setConfirming] = useState(false);
  if (order.checkout_state === 'expired') {
    return <p className="mt-3 border-t border-slate-100 pt-3 text-sm font-medium text-slate-700">Payment window expired. This order was not paid.</p>;
  }
  if (order.status !== 'pending' || order.checkout_state !== 'open') return null;
  const until = order.checkout_expires_at ? formatDate(order.checkout_expires_at, { withTime: true }) : null;
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-3 text-sm">
      <p className="text-slate-700">Awaiting payment{until ? ` until ${until}` : ''}.</p>
      {confirming ? (
        <div role="group" aria-label={`Cancel order ${order.order_number}?`} className="flex flex-wrap items-center gap-3">
          <span className="text-slate-700">Cancel this order? Its items go back on sale.</span>
          <button
            type="button"
            className="btn-primary bg-red-600 hover:bg-red-700"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(order.id, { onSuccess: () => setConfirming(false) })}
          >
            {cancel.isPending ? 'Cancelling...' : 'Yes, cancel order'}
          </button>
          <button type="button" className="btn-secondary" disabled={cancel.isPending} onClick={() => setConfirming(false)}>
            Keep order
          </button>
        </div>
      ) : (
        <div className="flex flex-wrap gap-3">
          {order.checkout_url ? (
            <a className="btn-primary" href={order.checkout_url}>
              Complete payment
            </a>
          ) : null}
          <button type="button" className="btn-secondary" onClick={() => setConfirming(true)}>
            Cancel order
          </button>
        </div>
      )}
      {cancel.error ? (
        <p role="alert" className="w-full text-red-700">
          {errorMessage(cancel.error)}
        </p>
      ) : null}
    </div>
  );
}

/** Completed green, shipped blue, others grey (spec section 4). */
function OrderBadge({ status }: { status: string }) {
  const badge = orderBadge(status);
  return <Badge tone={badge.tone}>{badge.label}</Badge>;
}

/** Where a physical order goes and, once shipped, its carrier and tracking number. */
function Delivery({ order }: { order: Order }) {
  const tracking = trackingText(order);
  if (!order.shipping_address && !tracking) return null;
  return (
    <div className="mt-3 grid gap-3 border-t border-slate-100 pt-3 text-sm text-slate-700 sm:grid-cols-2">
      {order.shipping_address ? (
        <div>
          <p className="font-medium text-slate-900">Shipping to</p>
          <address className="not-italic">{addressLines(order.shipping_address).join(', ')}</address>
        </div>
      ) : null}
      <div>
        <p className="font-medium text-slate-900">Tracking</p>
        {tracking ? (
          <p>
            {order.carrier ? `${order.carrier}: ` : ''}
            {order.tracking_number ?? 'no tracking number'}
          </p>
        ) : (
          <p className="text-slate-500">{order.status === 'shipped' ? 'Shipped without a tracking number.' : 'Not shipped yet.'}</p>
        )}
      </div>
    </div>
  );
}
