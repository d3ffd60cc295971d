// /admin/invoices: the accountant's register of every tax invoice, credit note and debit note,
// newest number first, searched, filtered by kind and issue date (New Zealand dates) and paged by
// the server, all in the address. Each number opens its printable document; an order's number
// opens the order. "Export CSV" downloads the register with the same filters; the GST report of a
// period is one link away.
import { Link } from 'react-router';
import { DataTable, type Column } from '@/components/DataTable';
import { ExportButton } from '@/components/list/ExportButton';
import { FilterControl } from '@/components/list/FilterControl';
import { listTableProps } from '@/components/list/listTable';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import { isAccessDenied, StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { errorMessage, isApiError } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import type { ListSpec } from '@/lib/list';
import { useInvoices, type RegisterEntry } from '../api/getInvoices';
import { DateRangeForm } from '../components/DateRangeForm';
import { INVOICE_KINDS, invoiceHref, invoiceKindLabel } from '../invoices';

export const INVOICES_EMPTY = 'No invoices yet';
export const INVOICES_NO_MATCH = 'No invoices match your filters';
const INVOICES_FAILED = 'The invoices could not be loaded.';

const LIST: ListSpec<'q' | 'kind' | 'from' | 'to'> = { filters: ['q', 'kind', 'from', 'to'] };

const KINDS = [{ value: '', label: 'All' }, ...INVOICE_KINDS.map((kind) => ({ value: kind.value, label: kind.plural }))];

const link = 'font-medium text-brand-700 hover:underline';

const columns: Column<RegisterEntry>[] = [
  {
    key: 'number',
    header: 'Number',
    cell: (entry) => (
      <Link to={invoiceHref(entry.number)} className={`font-mono ${link}`}>
        {entry.number}
      </Link>
    ),
  },
  {
    key: 'kind',
    header: 'Kind',
    cell: (entry) => (
      <div>
        {invoiceKindLabel(entry.kind)}
        {entry.adjusts_number ? <p className="text-xs text-slate-500">Adjusts {entry.adjusts_number}</p> : null}
      </div>
    ),
  },
  { key: 'issued', header: 'Issued', cell: (entry) => formatDate(entry.issued_at) },
  {
    key: 'buyer',
    header: 'Buyer',
    cell: (entry) =>
      entry.buyer_name || entry.buyer_email ? (
        <div className="break-words">
          {entry.buyer_name ?? entry.buyer_email}
          {entry.buyer_name && entry.buyer_email ? <p className="text-xs text-slate-500">{entry.buyer_email}</p> : null}
        </div>
      ) : (
        '—'
      ),
  },
  {
    key: 'order',
    header: 'Order',
    cell: (entry) => {
      if (entry.order_id)
        return (
          <Link to={`/admin/orders/${encodeURIComponent(entry.order_id)}`} className={`font-mono ${link}`}>
            {entry.order_number ?? 'Order'}
          </Link>
        );
      return entry.subscription_id ? 'Subscription' : '—';
    },
  },
  { key: 'total', header: 'Total', cell: (entry) => formatMoney(entry.total_amount, entry.currency) },
  {
    key: 'gst',
    header: 'GST',
    cell: (entry) => (
      <div>
        {formatMoney(entry.gst_amount, entry.currency)}
        {entry.zero_rated ? <p className="text-xs text-slate-500">Zero-rated</p> : null}
      </div>
    ),
  },
];

export function InvoiceRegisterPage() {
  const list = useListState(LIST);
  const invoices = useInvoices(list.params);
  useLogLoadFailure('the invoices', invoices.error);
  const fields = isApiError(invoices.error) ? invoices.error.fields : {};
  const failed = invoices.error && !isAccessDenied(invoices.error);

  return (
    <StaffPage
      title="Invoices"
      error={invoices.error}
      actions={
        <Link to="/admin/reports/gst" className="btn-secondary">
          GST report
        </Link>
      }
    >
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl label="Filter by kind" options={KINDS} value={list.filters.kind} onChange={(kind) => list.setFilters({ kind })} />
        <SearchField label="Search invoices" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} placeholder="Number, order, buyer name or email" />
      </div>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <DateRangeForm
          key={`${list.filters.from}|${list.filters.to}`}
          label="Issue dates"
          from={list.filters.from}
          to={list.filters.to}
          submitLabel="Apply dates"
          errors={{ from: fields.from, to: fields.to }}
          onApply={(range) => list.setFilters(range)}
        />
        <ExportButton path="/api/v1/admin/invoices/export.csv" params={list.params} fallbackName="invoices.csv" />
      </div>
      {failed ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {[errorMessage(invoices.error, INVOICES_FAILED), fields.kind].filter(Boolean).join(' ')}
        </p>
      ) : null}
      <DataTable
        caption="Invoices"
        columns={columns}
        rowKey={(entry) => entry.number}
        emptyText={failed ? INVOICES_FAILED : list.filtered ? INVOICES_NO_MATCH : INVOICES_EMPTY}
        {...listTableProps(list, invoices)}
      />
    </StaffPage>
  );
}
