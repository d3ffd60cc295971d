// /dashboard (spec section 2 "Dashboard"): three cards, the Active Subscriptions panel with a
// Refresh button, and the Order History, all from one call (GET /api/v1/account/dashboard).
// Load errors are logged only (spec section 8): the page then shows empty lists and zero counts.
// Back from payment (`?checkout=<id>`) it confirms the payment first (CheckoutConfirmation).
// Unpaid orders are listed too: "Complete payment" goes back to the same checkout and "Cancel order"
// gives the order up while its checkout is open; an expired one says so. "Manage billing" opens the
// payment provider's billing portal for customers it knows (docs/billing.md, "Unpaid orders").
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '@/components/list/Badge';
import { Loading } from '@/components/Spinner';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { addressLines, trackingText } from '@/lib/shipping';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useCancelOrder } from '../api/cancelOrder';
import { EMPTY_DASHBOARD, useDashboard, type ActiveSubscription, type Order } from '../api/dashboard';
import { useOlderOrders } from '../api/orders';
import { RefreshIcon } from '../components/AccountIcons';
import { CheckoutConfirmation } from '../components/CheckoutConfirmation';
import { SubscriptionStatusIcon } from '../components/SubscriptionStatusIcon';
import { subscriptionClient } from '../subscriptionClient';
import { countActive, expiryText, orderBadge, subscriptionDisplay, underscoresAsSpaces } from '../rules';

const HEAD = { title: `Dashboard | ${SITE_NAME}`, robots: 'noindex' };

/** The Account Type card when the server does not say: Individual. */
const DEFAULT_ACCOUNT_TYPE = 'Individual';
/** An active-subscription result granted by an enterprise licence seat (not a subscription row). */
const ENTERPRISE_SOURCE = 'enterprise_licence';

export function DashboardPage() {
  useDocumentHead(HEAD);
  const [searchParams] = useSearchParams();
  const checkoutId = searchParams.get('checkout');
  const query = useDashboard();
  // "Now" for the expiry texts: when the page was opened (days, not seconds, matter here).
  const [now] = useState(Date.now);

  useEffect(() => {
    if (query.error) console.error('Failed to load the dashboard', query.error);
  }, [query.error]);

  const dashboard = query.data ?? EMPTY_DASHBOARD;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Dashboard</h1>
        <div className="flex flex-wrap items-center gap-4">
          <Link className="text-sm font-medium text-blue-700 underline" to="/account">
            Account settings
          </Link>
          {dashboard.billing_portal ? <ManageBilling /> : null}
        </div>
      </div>
      {checkoutId ? <CheckoutConfirmation checkoutId={checkoutId} /> : null}

      {query.isPending ? (
        <Loading text="Loading dashboard..." />
      ) : (
        <>
          <dl className="mt-8 grid gap-4 sm:grid-cols-3">
            <StatCard
              label="Active Subscriptions"
              value={String(
                countActive(dashboard.subscriptions) +
                  dashboard.active_subscriptions.filter((active) => active.subscription_source === ENTERPRISE_SOURCE).length,
              )}
            />
            <StatCard label="Total Orders" value={String(dashboard.orders_total ?? dashboard.orders.length)} />
            <StatCard label="Account Type" value={dashboard.account_type ?? DEFAULT_ACCOUNT_TYPE} />
          </dl>

          <section aria-labelledby="active-subscriptions-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="active-subscriptions-heading" className="text-xl font-semibold text-slate-900">
                Active Subscriptions
              </h2>
              <button type="button" className="btn-secondary" onClick={() => void query.refetch()} disabled={query.isFetching}>
                <RefreshIcon className={`h-4 w-4 ${query.isFetching ? 'animate-spin' : ''}`} />
                Refresh
              </button>
            </div>
            {dashboard.active_subscriptions.length === 0 ? (
              <p className="mt-4 text-slate-600">You have no active subscriptions.</p>
            ) : (
              <ul className="mt-4 divide-y divide-slate-100">
                {dashboard.active_subscriptions.map((subscription, index) => (
                  <ActiveSubscriptionRow key={`${subscription.product_slug}-${String(index)}`} subscription={subscription} now={now} />
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="order-history-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="order-history-heading" className="text-xl font-semibold text-slate-900">
                Order History
              </h2>
              <Link className="text-sm font-medium text-blue-700 underline" to="/account/invoices">
                Invoices
              </Link>
            </div>
            {dashboard.orders.length === 0 ? (
              <p className="mt-4 text-slate-600">You have no orders yet.</p>
            ) : (
              <OrderList newest={dashboard.orders} total={dashboard.orders_total ?? dashboard.orders.length} />
            )}
          </section>
        </>
      )}
    </div>
  );
}

/**
 * The dashboard's newest orders, then older ones a page at a time ("Show older orders") while the
 * customer has more than are shown. An order placed meanwhile shifts the pages: ids already shown
 * are skipped.
 */
function OrderList({ newest, total }: { newest: Order[]; total: number }) {
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
      {older.error ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Failed to load older orders.
        </p>
      ) : null}
      {more || loading ? (
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

function StatCard({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="mt-2 text-3xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

function ActiveSubscriptionRow({ subscription, now }: { subscription: ActiveSubscription; now: number }) {
  const display = subscriptionDisplay(subscription.status);
  return (
    <li className="flex flex-wrap items-center gap-4 py-4">
      <SubscriptionStatusIcon tone={display.tone} />
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-slate-900">{subscription.product_name}</p>
        <p className="text-sm text-slate-600">
          <span data-tone={display.tone}>{display.label}</span>
          {subscription.subscription_source ? <> · {underscoresAsSpaces(subscription.subscription_source)}</> : null}
        </p>
      </div>
      <p className="text-sm font-medium text-slate-700">{expiryText(subscription.expires_at, now)}</p>
    </li>
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
 * "Manage billing": the payment provider's billing portal (Stripe's; the local test portal
 * offline), back to the dashboard afterwards.
 */
function ManageBilling() {
  const [state, setState] = useState<'idle' | 'opening' | 'leaving'>('idle');
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    setError(null);
    setState('opening');
    try {
      await subscriptionClient.createPortalSession({ returnPath: '/dashboard' });
      setState('leaving');
    } catch (failure) {
      setState('idle');
      setError(errorMessage(failure));
    }
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <button type="button" className="btn-secondary" onClick={() => void open()} disabled={state !== 'idle'}>
        {state === 'idle' ? 'Manage billing' : 'Opening billing portal...'}
      </button>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
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
