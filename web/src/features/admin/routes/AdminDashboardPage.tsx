// /admin: the six statistic cards and the five quick actions of the spec (section 2), with the
// accountant's Invoices beside Orders, plus the audit log, and the charts beneath the cards (components/DashboardCharts: revenue per month per
// currency, paid orders per day, subscriptions per month; each with a summary and a table). Revenue is the payments ledger's (payments and renewals less refunds) of the last 30
// days (New Zealand time), NZD the one figure with the all-time one beside it; other currencies
// show beneath it when not zero. A load failure is logged and shows the error state with Retry in
// place of the cards or the charts (never zeros that look like figures).
import { Link } from 'react-router';
import { StatCard } from '@/components/detail';
import { isRetryableFailure, LoadError } from '@/components/list/LoadError';
import { formatMoney } from '@/lib/format';
import { EMPTY_STATS, useAdminStats } from '../api/getStats';
import { useStatsSeries } from '../api/getStatsSeries';
import { DashboardCharts } from '../components/DashboardCharts';
import { TodoList } from '../components/TodoList';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';

const QUICK_ACTIONS = [
  { to: '/admin/products', label: 'Manage Products' },
  { to: '/admin/subscriptions', label: 'Manage Subscriptions' },
  { to: '/admin/orders', label: 'Manage Orders' },
  { to: '/admin/invoices', label: 'Invoices' },
  { to: '/admin/enterprise', label: 'Enterprise Accounts' },
  { to: '/admin/wirewrite', label: 'WireWrite Admin' },
] as const;

const OTHER_CURRENCIES = ['AUD', 'USD'] as const;

/** "AUD: A$12.00 (all time A$40.00)" for each other currency with money in it. */
export function otherCurrencies(recent: Record<string, number>, total: Record<string, number>): string[] {
  return OTHER_CURRENCIES.filter((c) => (recent[c] ?? 0) !== 0 || (total[c] ?? 0) !== 0).map(
    (c) => `${c}: ${formatMoney(recent[c] ?? 0, c)} (all time ${formatMoney(total[c] ?? 0, c)})`,
  );
}

export function AdminDashboardPage() {
  const stats = useAdminStats();
  const series = useStatsSeries();
  useLogLoadFailure('the admin statistics', stats.error);
  useLogLoadFailure('the dashboard charts', series.error);
  const data = stats.data ?? EMPTY_STATS;
  const count = (n: number) => n.toLocaleString('en-NZ');

  return (
    <StaffPage title="Admin Dashboard" error={stats.error}>
      <TodoList />
      {stats.isPending ? (
        <p role="status" className="py-12 text-center text-slate-500">
          Loading ...
        </p>
      ) : stats.error && isRetryableFailure(stats.error) ? (
        <LoadError error={stats.error} title="The statistics could not be loaded." retrying={stats.isFetching} onRetry={() => void stats.refetch()} />
      ) : (
        <section aria-label="Statistics">
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <StatCard label="Total Users" value={count(data.total_users)} />
            <StatCard label="Total Products" value={count(data.total_products)} />
            <StatCard label="Active Subscriptions" value={count(data.active_subscriptions)} />
            <StatCard label="Total Orders" value={count(data.total_orders)} />
            <StatCard label="Enterprise Accounts" value={count(data.enterprise_accounts)} />
            <StatCard
              label="Recent Revenue (30 days)"
              value={formatMoney(data.recent_revenue, data.currency)}
              note={`All time: ${formatMoney(data.total_revenue, data.currency)}`}
              extra={otherCurrencies(data.recent_revenue_by_currency, data.total_revenue_by_currency)}
            />
          </dl>
        </section>
      )}
      {series.data ? (
        <DashboardCharts series={series.data} />
      ) : series.isPending ? (
        <p className="py-6 text-center text-slate-500">Loading charts ...</p>
      ) : isRetryableFailure(series.error) ? (
        <LoadError error={series.error} title="The charts could not be loaded." retrying={series.isFetching} onRetry={() => void series.refetch()} />
      ) : null}
      <nav aria-label="Quick actions" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="text-lg font-semibold text-slate-900">Quick Actions</h2>
        <ul className="mt-3 flex flex-wrap gap-3">
          {QUICK_ACTIONS.map((action) => (
            <li key={action.to}>
              <Link to={action.to} className="btn-secondary">
                {action.label}
              </Link>
            </li>
          ))}
          <li>
            <Link to="/admin/customers" className="btn-secondary">
              Customers
            </Link>
          </li>
          <li>
            <Link to="/admin/audit" className="btn-secondary">
              Audit Log
            </Link>
          </li>
          <li>
            <Link to="/admin/mail" className="btn-secondary">
              Mail Outbox
            </Link>
          </li>
          <li>
            <Link to="/admin/enquiries" className="btn-secondary">
              Enquiries
            </Link>
          </li>
        </ul>
      </nav>
    </StaffPage>
  );
}
