// /admin/subscriptions (spec section 2 "Admin: Subscription Management"): filters All, Active,
// Pending, Cancelled (and Expired), search by email, newest first, paged by the server.
import { DataTable, type Column } from '@/components/DataTable';
import { formatDate } from '@/lib/format';
import { useSubscriptions } from '../api/getSubscriptions';
import { ADMIN_PAGE_SIZE, type SubscriptionRow } from '../api/schemas';
import { AdminPage, useLogLoadFailure } from '../components/AdminPage';
import { FilterButtons } from '../components/FilterButtons';
import { SearchBox } from '../components/SearchBox';
import { StatusBadge, subscriptionTone } from '../components/StatusBadge';
import { useListParams } from '../components/useListParams';

export const SUBSCRIPTIONS_EMPTY = 'No subscriptions found';

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'pending', label: 'Pending' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'expired', label: 'Expired' },
] as const;

const PROVIDERS: Record<string, string> = { stripe: 'Stripe', test: 'Test', manual: 'Manual' };

const columns: Column<SubscriptionRow>[] = [
  {
    key: 'user',
    header: 'User',
    cell: (row) => (
      <div>
        <p className="font-medium text-slate-900">{row.user_email ?? 'Unknown'}</p>
        <p className="font-mono text-xs text-slate-500">{row.user_id.slice(0, 8)}</p>
      </div>
    ),
  },
  {
    key: 'product',
    header: 'Product',
    cell: (row) => (
      <div>
        <p>{row.product_name}</p>
        {row.plan_name ? <p className="text-xs text-slate-500">{row.plan_name}</p> : null}
      </div>
    ),
  },
  { key: 'provider', header: 'Provider', cell: (row) => PROVIDERS[row.payment_provider] ?? row.payment_provider },
  {
    key: 'status',
    header: 'Status',
    cell: (row) => (
      <div>
        <StatusBadge status={row.status} tone={subscriptionTone(row.status)} />
        {row.cancel_at_period_end ? <p className="mt-1 text-xs text-slate-500">Cancels at period end</p> : null}
      </div>
    ),
  },
  { key: 'period_end', header: 'Period End', cell: (row) => (row.current_period_end ? formatDate(row.current_period_end) : '—') },
  { key: 'created', header: 'Created', cell: (row) => formatDate(row.created_at) },
];

export function SubscriptionManagementPage() {
  const { page, values, setPage, setFilters } = useListParams(['status', 'q'] as const);
  const subscriptions = useSubscriptions({ page, status: values.status, q: values.q });
  useLogLoadFailure('subscriptions', subscriptions.error);

  return (
    <AdminPage title="Subscription Management" error={subscriptions.error}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterButtons label="Filter by status" options={FILTERS} value={values.status} onChange={(status) => setFilters({ status })} />
        <SearchBox label="Search by email" value={values.q} onSearch={(q) => setFilters({ q })} placeholder="name@example.com" />
      </div>
      <DataTable
        caption="Subscriptions"
        columns={columns}
        rows={subscriptions.data?.items}
        rowKey={(row) => row.id}
        loading={subscriptions.isFetching}
        emptyText={SUBSCRIPTIONS_EMPTY}
        page={page}
        pageSize={ADMIN_PAGE_SIZE}
        total={subscriptions.data?.total ?? 0}
        onPageChange={setPage}
      />
    </AdminPage>
  );
}
