// /admin/orders (spec section 2 "Admin: Order Management"): filters, search by order number or
// email, and each order opening to its items, history and actions at /admin/orders/:id. A row has
// only its safe actions, where the order's lifecycle allows them (components/OrderRowActions: Mark
// as shipped, Mark as completed); nothing changes an order on focus. Bulk shipping: tick orders (or all on the
// page) and "Mark as shipped": each order ships on its own on the server (history, audit, mail),
// and the result lists which shipped and why the others did not (docs/backoffice.md, "Bulk shipping").
import { useCallback, useState, type SyntheticEvent } from 'react';
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
import { useBulkShip, type BulkShipAnswer } from '../api/bulkShip';
import { useOrders } from '../api/getOrders';
import type { OrderRow } from '../api/schemas';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { OrderRowActions } from '../components/OrderRowActions';
import { customerPath } from '../links';
import { AMOUNT_MISMATCH, PAID_TWICE, orderTone, statusLabel } from '../status';

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

type OrderFlag = 'to_ship' | 'disputed' | 'amount_mismatch' | 'payment_to_return';
const LIST: ListSpec<'status' | 'q' | OrderFlag> = { filters: ['status', 'q', 'to_ship', 'disputed', 'amount_mismatch', 'payment_to_return'] };

/** The yes/no filters: "to ship" is paid orders with a physical item not yet shipped (the server's). */
const FLAGS: { key: OrderFlag; label: string }[] = [
  { key: 'to_ship', label: 'To ship only' },
  { key: 'disputed', label: 'Disputed only' },
  { key: 'amount_mismatch', label: 'Amount mismatches only' },
  { key: 'payment_to_return', label: 'Payments to return only' },
];

/** 'Guest' without a user; the email, or 'Unknown' when the account is gone. */
export function customerOf(order: Pick<OrderRow, 'user_id' | 'customer_email'>): string {
  if (!order.user_id) return 'Guest';
  return order.customer_email ?? 'Unknown';
}

/** What bulk shipping did, order by order. */
function BulkShipResult({ answer, onClose }: { answer: BulkShipAnswer; onClose: () => void }) {
  const failed = answer.results.filter((r) => !r.ok);
  const shipped = answer.results.filter((r) => r.ok);
  return (
    <section aria-label="Bulk shipping result" className="rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <div className="flex items-start justify-between gap-4">
        <h2 className="font-semibold text-slate-900">
          {answer.shipped} shipped, {answer.failed} not shipped
        </h2>
        <button type="button" className="btn-secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {shipped.length > 0 ? <p className="mt-2 text-green-800">Shipped: {shipped.map((r) => r.order_number ?? r.id).join(', ')}</p> : null}
      {failed.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-red-800">
          {failed.map((r) => (
            <li key={r.id}>
              {r.order_number ?? r.id}: {r.message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function OrderManagementPage() {
  const list = useListState(LIST);
  const orders = useOrders(list.params);
  useLogLoadFailure('orders', orders.error);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const dismiss = useCallback(() => setMessage(null), []);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [carrier, setCarrier] = useState('');
  const [result, setResult] = useState<BulkShipAnswer | null>(null);
  const bulkShip = useBulkShip();

  // The selection is of the rows on the screen: another page, filter or search starts afresh.
  const rows = orders.data?.items;
  const [selectionFor, setSelectionFor] = useState(rows);
  if (selectionFor !== rows) {
    setSelectionFor(rows);
    if (rows && selected.size > 0) {
      const ids = new Set(rows.map((order) => order.id));
      const kept = [...selected].filter((id) => ids.has(id));
      if (kept.length !== selected.size) setSelected(new Set(kept));
    }
  }
  const pageIds = rows?.map((order) => order.id) ?? [];
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const shipSelected = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (selected.size === 0) return;
    bulkShip.mutate(
      { orderIds: pageIds.filter((id) => selected.has(id)), carrier },
      {
        onSuccess: (answer) => {
          setResult(answer);
          setSelected(new Set());
        },
        onError: (error) => setMessage({ tone: 'error', text: errorMessage(error, 'Failed to mark the orders as shipped') }),
      },
    );
  };

  const columns: Column<OrderRow>[] = [
    {
      key: 'select',
      header: 'Select',
      cell: (order) => (
        <input
          type="checkbox"
          aria-label={`Select order ${order.order_number}`}
          checked={selected.has(order.id)}
          onChange={(event) => toggle(order.id, event.target.checked)}
        />
      ),
    },
    {
      key: 'number',
      header: 'Order #',
      cell: (order) => (
        <Link to={`/admin/orders/${order.id}`} className="font-mono font-medium text-brand-700 hover:underline">
          {order.order_number}
        </Link>
      ),
    },
    {
      key: 'customer',
      header: 'Customer',
      cell: (order) =>
        order.user_id && order.customer_email ? (
          <Link to={customerPath(order.user_id)} className="text-brand-700 hover:underline">
            {order.customer_email}
          </Link>
        ) : (
          customerOf(order)
        ),
    },
    { key: 'amount', header: 'Amount', cell: (order) => formatMoney(order.total_amount, order.currency) },
    {
      key: 'status',
      header: 'Status',
      cell: (order) => (
        <div className="space-y-1">
          <Badge tone={orderTone(order.status)}>{statusLabel(order.status)}</Badge>
          {order.paid_after_cancellation ? <p className="text-xs font-semibold text-red-700">Paid after cancellation</p> : null}
          {order.disputed ? <Badge tone="red">Disputed</Badge> : null}
          {order.amount_mismatch ? <Badge tone="red">{AMOUNT_MISMATCH}</Badge> : null}
          {order.payment_to_return ? <Badge tone="red">{PAID_TWICE}</Badge> : null}
        </div>
      ),
    },
    { key: 'date', header: 'Date', cell: (order) => formatDate(order.created_at) },
    {
      key: 'actions',
      header: 'Actions',
      cell: (order) => <OrderRowActions order={order} onMessage={setMessage} />,
    },
  ];

  return (
    <StaffPage title="Order Management" error={orders.error}>
      <Banner message={message} onDismiss={dismiss} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl label="Filter by status" options={FILTERS} value={list.filters.status} onChange={(status) => list.setFilters({ status })} />
        {FLAGS.map((flag) => (
          <label key={flag.key} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={list.filters[flag.key] === 'true'}
              onChange={(event) => list.setFilters({ [flag.key]: event.target.checked ? 'true' : '' })}
            />
            {flag.label}
          </label>
        ))}
        <SearchField label="Search orders" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} placeholder="Order number or email" />
        <ExportButton path="/api/v1/admin/orders/export.csv" params={list.params} fallbackName="orders.csv" />
      </div>
      <form aria-label="Bulk shipping" onSubmit={shipSelected} className="flex flex-wrap items-end gap-3 rounded-lg bg-slate-50 p-3">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={allSelected}
            disabled={pageIds.length === 0}
            onChange={(event) => setSelected(event.target.checked ? new Set(pageIds) : new Set())}
          />
          Select all on this page
        </label>
        <p className="text-sm text-slate-700" aria-live="polite">
          {selected.size} selected
        </p>
        <label className="block text-sm font-medium text-slate-700">
          Carrier (optional)
          <input className="field-input mt-1" value={carrier} maxLength={60} onChange={(event) => setCarrier(event.target.value)} placeholder="e.g. NZ Post" />
        </label>
        <button type="submit" className="btn-primary" disabled={selected.size === 0 || bulkShip.isPending}>
          {bulkShip.isPending ? 'Marking…' : 'Mark as shipped'}
        </button>
      </form>
      {result ? <BulkShipResult answer={result} onClose={() => setResult(null)} /> : null}
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
