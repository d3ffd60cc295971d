// /admin/orders (spec section 2 "Admin: Order Management"): filters, search by order number or
// email, the status dropdown (any of the five, no ordering; the list reloads), and each order
// opening to its items and history at /admin/orders/:id.
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { Banner, type BannerMessage } from '@/components/Banner';
import { DataTable, type Column } from '@/components/DataTable';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { useOrders } from '../api/getOrders';
import { ADMIN_PAGE_SIZE, type OrderRow } from '../api/schemas';
import { AdminPage, useLogLoadFailure } from '../components/AdminPage';
import { FilterButtons } from '../components/FilterButtons';
import { OrderStatusSelect } from '../components/OrderStatusSelect';
import { SearchBox } from '../components/SearchBox';
import { orderTone, StatusBadge, statusLabel } from '../components/StatusBadge';
import { useListParams } from '../components/useListParams';

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

/** 'Guest' without a user; the email, or 'Unknown' when the account is gone. */
export function customerOf(order: Pick<OrderRow, 'user_id' | 'customer_email'>): string {
  if (!order.user_id) return 'Guest';
  return order.customer_email ?? 'Unknown';
}

export function OrderManagementPage() {
  const { page, values, setPage, setFilters } = useListParams(['status', 'q', 'disputed'] as const);
  const orders = useOrders({ page, status: values.status, q: values.q, disputed: values.disputed });
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
          <StatusBadge status={order.status} tone={orderTone(order.status)} />
          {order.paid_after_cancellation ? <p className="text-xs font-semibold text-red-700">Paid after cancellation</p> : null}
          {order.disputed ? <StatusBadge status="Disputed" tone="red" /> : null}
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
    <AdminPage title="Order Management" error={orders.error}>
      <Banner message={message} onDismiss={dismiss} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterButtons label="Filter by status" options={FILTERS} value={values.status} onChange={(status) => setFilters({ status })} />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={values.disputed === 'true'} onChange={(event) => setFilters({ disputed: event.target.checked ? 'true' : '' })} />
          Disputed only
        </label>
        <SearchBox label="Search orders" value={values.q} onSearch={(q) => setFilters({ q })} placeholder="Order number or email" />
      </div>
      <DataTable
        caption="Orders"
        columns={columns}
        rows={orders.data?.items}
        rowKey={(order) => order.id}
        loading={orders.isFetching}
        emptyText={ORDERS_EMPTY}
        page={page}
        pageSize={ADMIN_PAGE_SIZE}
        total={orders.data?.total ?? 0}
        onPageChange={setPage}
      />
    </AdminPage>
  );
}
