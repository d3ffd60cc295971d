// /admin/orders (spec section 2 "Admin: Order Management"): filters, search by order number or
// email, the status dropdown (any of the five, no ordering; the list reloads), and each order
// opening to its items and history at /admin/orders/:id.
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
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { useOrders } from '../api/getOrders';
import type { OrderRow } from '../api/schemas';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { OrderStatusSelect } from '../components/OrderStatusSelect';
import { orderTone, statusLabel } from '../status';

export const ORDERS_EMPTY = 'No orders found';

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'paid', label: 'Paid' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'refunded', label: 'Refunded' },
  { value: 'paid_after_cancellation', label: 'Paid after cancellation' },
] as const;

const LIST: ListSpec<'status' | 'q' | 'disputed'> = { filters: ['status', 'q', 'disputed'] };

/** 'Guest' without a user; the email, or 'Unknown' when the account is gone. */
export function customerOf(order: Pick<OrderRow, 'user_id' | 'customer_email'>): string {
  if (!order.user_id) return 'Guest';
  return order.customer_email ?? 'Unknown';
}

export function OrderManagementPage() {
  const list = useListState(LIST);
  const orders = useOrders(list.params);
  useLogLoadFailure('orders', orders.error);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const dismiss = useCallback(() => setMessage(null), []);

  const columns: Column<OrderRow>[] = [
    {
      key: 'number',
      header: 'Order #',
      cell: (order) => (
        <Link to={`/admin/orders/${order.id}`} className="font-mono font-medium text-brand-700 hover:underline">
          {order.order_number}
        </Link>
      ),
    },
    { key: 'customer', header: 'Customer', cell: customerOf },
    { key: 'amount', header: 'Amount', cell: (order) => formatMoney(order.total_amount, order.currency) },
    {
      key: 'status',
      header: 'Status',
      cell: (order) => (
        <div className="space-y-1">
          <Badge tone={orderTone(order.status)}>{statusLabel(order.status)}</Badge>
          {order.paid_after_cancellation ? <p className="text-xs font-semibold text-red-700">Paid after cancellation</p> : null}
          {order.disputed ? <Badge tone="red">Disputed</Badge> : null}
        </div>
      ),
    },
    { key: 'date', header: 'Date', cell: (order) => formatDate(order.created_at) },
    {
      key: 'actions',
      header: 'Actions',
      cell: (order) => (
        <OrderStatusSelect
          order={order}
          onChanged={(status) => setMessage({ tone: 'success', text: `Order ${order.order_number} is now ${statusLabel(status)}.` })}
          onFailed={(error) => setMessage({ tone: 'error', text: errorMessage(error, 'Failed to update the order status') })}
        />
      ),
    },
  ];

  return (
    <StaffPage title="Order Management" error={orders.error}>
      <Banner message={message} onDismiss={dismiss} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl label="Filter by status" options={FILTERS} value={list.filters.status} onChange={(status) => list.setFilters({ status })} />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={list.filters.disputed === 'true'} onChange={(event) => list.setFilters({ disputed: event.target.checked ? 'true' : '' })} />
          Disputed only
        </label>
        <SearchField label="Search orders" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} placeholder="Order number or email" />
        <ExportButton path="/api/v1/admin/orders/export.csv" params={list.params} fallbackName="orders.csv" />
      </div>
      <DataTable
        caption="Orders"
        columns={columns}
        rows={orders.data?.items}
        rowKey={(order) => order.id}
        loading={orders.isFetching}
        emptyText={ORDERS_EMPTY}
        page={list.page}
        total={orders.data?.total ?? 0}
        onPageChange={list.setPage}
      />
    </StaffPage>
  );
}
