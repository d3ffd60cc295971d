// /dashboard (spec section 2 "Dashboard"): three cards, the Active Subscriptions panel with a
// Refresh button and each subscription's actions (cancel, resume, change plan, a past-due warning:
// components/SubscriptionsPanel.tsx), Past subscriptions, and the Order History
// (components/OrderHistory.tsx), all from one call (GET /api/v1/account/dashboard).
// A load error is logged (spec section 8) and shown as the error state with Retry
// (components/list/LoadError), never as empty lists and zero counts.
// Back from payment (`?checkout=<id>`) it confirms the payment first (CheckoutConfirmation).
// "Manage billing" opens the payment provider's billing portal for customers it knows
// (docs/billing.md, "Unpaid orders"); `?billing=portal` (the payment-failed mail's link) opens it at once.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { Loading } from '@/components/Spinner';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { EMPTY_DASHBOARD, useDashboard } from '../api/dashboard';
import { BillingPortalButton } from '../components/BillingPortalButton';
import { CheckoutConfirmation } from '../components/CheckoutConfirmation';
import { OrderList } from '../components/OrderHistory';
import { PastSubscriptions } from '../components/PastSubscriptions';
import { SubscriptionsPanel } from '../components/SubscriptionsPanel';
import { countActive, isEnded, subscriptionEntries } from '../rules';

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
          {dashboard.billing_portal ? (
            <BillingPortalButton label="Manage billing" autoOpen={searchParams.get('billing') === 'portal'} />
          ) : null}
        </div>
      </div>
      {checkoutId ? <CheckoutConfirmation checkoutId={checkoutId} /> : null}

      {query.isPending ? (
        <Loading text="Loading dashboard..." />
      ) : query.isError && !query.data ? (
        <LoadError
          className={`mt-8 ${LOAD_ERROR_CLASS}`}
          error={query.error}
          title="Your dashboard could not be loaded."
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
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

          <SubscriptionsPanel
            entries={subscriptionEntries(dashboard.subscriptions, dashboard.active_subscriptions)}
            now={now}
            refreshing={query.isFetching}
            onRefresh={() => void query.refetch()}
          />

          <PastSubscriptions subscriptions={dashboard.subscriptions.filter((subscription) => isEnded(subscription.status))} />

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

function StatCard({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="mt-2 text-3xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}
