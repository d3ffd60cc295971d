// /admin/subscriptions (spec section 2 "Admin: Subscription Management"): filters All, Active,
// Pending, Cancelled (and Past due, Expired), search by email, newest first, paged by the server.
// Each row offers what its lifecycle allows (components/SubscriptionRowActions: Cancel at period
// end, Cancel now, each asking for the reason and saying when access ends) and Open customer.
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { Banner, type BannerMessage } from '@/components/Banner';
import { DataTable, type Column } from '@/components/DataTable';
import { Badge } from '@/components/list/Badge';
import { FilterControl } from '@/components/list/FilterControl';
import { ExportButton } from '@/components/list/ExportButton';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import type { ListSpec } from '@/lib/list';
import { formatDate, formatMoney } from '@/lib/format';
import { useSubscriptions } from '../api/getSubscriptions';
import type { SubscriptionRow } from '../api/schemas';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import type { SubscriptionRefund } from '../api/refundSubscription';
import { CancelSubscriptionDialog } from '../components/CancelSubscriptionDialog';
import { SubscriptionRefundDialog } from '../components/SubscriptionRefundDialog';
import { SubscriptionRowActions, subscriptionSubject } from '../components/SubscriptionRowActions';
import { customerPath } from '../links';
import { statusLabel, subscriptionTone } from '../status';

export const SUBSCRIPTIONS_EMPTY = 'No subscriptions found';

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'pending', label: 'Pending' },
  { value: 'past_due', label: 'Past due' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'expired', label: 'Expired' },
] as const;

const LIST: ListSpec<'status' | 'q'> = { filters: ['status', 'q'] };

const PROVIDERS: Record<string, string> = { stripe: 'Stripe', test: 'Test', manual: 'Manual' };

function columns(onCancel: (row: SubscriptionRow, atPeriodEnd: boolean) => void, onRefund: (row: SubscriptionRow) => void): Column<SubscriptionRow>[] {
  return [
    {
      key: 'user',
      header: 'User',
      cell: (row) => (
        <div>
          <Link to={customerPath(row.user_id)} className="font-medium text-brand-700 hover:underline">
            {row.user_email ?? 'Unknown'}
          </Link>
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
          <Badge tone={subscriptionTone(row.status)}>{statusLabel(row.status)}</Badge>
          {row.cancel_at_period_end ? <p className="mt-1 text-xs text-slate-500">Cancels at period end</p> : null}
          {row.status === 'past_due' && row.past_due_since ? <p className="mt-1 text-xs text-slate-500">Since {formatDate(row.past_due_since)}</p> : null}
        </div>
      ),
    },
    { key: 'period_end', header: 'Period End', cell: (row) => (row.current_period_end ? formatDate(row.current_period_end) : '—') },
    { key: 'created', header: 'Created', cell: (row) => formatDate(row.created_at) },
    { key: 'actions', header: 'Actions', cell: (row) => <SubscriptionRowActions row={row} onCancel={onCancel} onRefund={onRefund} /> },
  ];
}

export function SubscriptionManagementPage() {
  const list = useListState(LIST);
  const subscriptions = useSubscriptions(list.params);
  useLogLoadFailure('subscriptions', subscriptions.error);
  const [cancelling, setCancelling] = useState<{ row: SubscriptionRow; atPeriodEnd: boolean } | null>(null);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const dismiss = useCallback(() => setMessage(null), []);
  const openCancel = useCallback((row: SubscriptionRow, atPeriodEnd: boolean) => {
    setMessage(null);
    setCancelling({ row, atPeriodEnd });
  }, []);

  const [refunding, setRefunding] = useState<SubscriptionRow | null>(null);
  const openRefund = useCallback((row: SubscriptionRow) => {
    setMessage(null);
    setRefunding(row);
  }, []);
  const refunded = (refund: SubscriptionRefund) => {
    const subject = refunding ? subscriptionSubject(refunding) : 'The subscription';
    setRefunding(null);
    setMessage({ tone: 'success', text: `Refunded ${formatMoney(refund.amount, refund.currency)} of the latest payment of ${subject}.` });
  };

  const cancelled = (answer: SubscriptionRow) => {
    setCancelling(null);
    const subject = subscriptionSubject(answer);
    const end = answer.current_period_end ? ` Access ends on ${formatDate(answer.current_period_end)}.` : '';
    setMessage({ tone: 'success', text: answer.cancel_at_period_end ? `${subject} will not renew.${end}` : `${subject} is cancelled.` });
  };

  return (
    <StaffPage title="Subscription Management" error={subscriptions.error}>
      <Banner message={message} onDismiss={dismiss} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl label="Filter by status" options={FILTERS} value={list.filters.status} onChange={(status) => list.setFilters({ status })} />
        <SearchField label="Search by email" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} placeholder="name@example.com" />
        <ExportButton path="/api/v1/admin/subscriptions/export.csv" params={list.params} fallbackName="subscriptions.csv" />
      </div>
      <DataTable
        caption="Subscriptions"
        columns={columns(openCancel, openRefund)}
        rows={subscriptions.data?.items}
        rowKey={(row) => row.id}
        loading={subscriptions.isFetching}
        emptyText={SUBSCRIPTIONS_EMPTY}
        page={list.page}
        total={subscriptions.data?.total ?? 0}
        onPageChange={list.setPage}
      />
      {refunding ? <SubscriptionRefundDialog row={refunding} onClose={() => setRefunding(null)} onRefunded={refunded} /> : null}
      {cancelling ? (
        <CancelSubscriptionDialog row={cancelling.row} atPeriodEnd={cancelling.atPeriodEnd} onClose={() => setCancelling(null)} onCancelled={cancelled} />
      ) : null}
    </StaffPage>
  );
}
