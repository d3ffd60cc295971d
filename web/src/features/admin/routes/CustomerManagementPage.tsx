// /admin/customers: every customer account, searched by email or name, filtered (admins, with
// two-factor, unconfirmed, closed), sorted by joined, email or last sign-in, paged by the server;
// the search, filter, sort and page live in the address. A row opens the customer.
import { Link } from 'react-router';
import { DataTable, type Column } from '@/components/DataTable';
import { Badge } from '@/components/list/Badge';
import { FilterControl } from '@/components/list/FilterControl';
import { listTableProps } from '@/components/list/listTable';
import { ExportButton } from '@/components/list/ExportButton';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { formatDate } from '@/lib/format';
import type { ListSpec } from '@/lib/list';
import { customerName, type CustomerRow } from '../api/customerSchemas';
import { useCustomers } from '../api/getCustomers';

type FilterName = 'q' | 'role' | 'two_factor' | 'unconfirmed' | 'closed';

const LIST: ListSpec<FilterName> = {
  filters: ['q', 'role', 'two_factor', 'unconfirmed', 'closed'],
  sort: { columns: ['email', 'created', 'last_sign_in'], initial: { column: 'created', direction: 'desc' } },
};

/** The one "Show" choice, each a filter of the API (only one at a time on this screen). */
const SHOW = [
  { value: '', label: 'All customers', filters: {} },
  { value: 'admins', label: 'Admins', filters: { role: 'admin' } },
  { value: 'two_factor', label: 'With two-factor', filters: { two_factor: 'true' } },
  { value: 'unconfirmed', label: 'Unconfirmed', filters: { unconfirmed: 'true' } },
  { value: 'closed', label: 'Closed', filters: { closed: 'true' } },
] as const;
const NO_FILTER = { role: '', two_factor: '', unconfirmed: '', closed: '' };

function shownOf(filters: Record<FilterName, string>): string {
  if (filters.role) return 'admins';
  if (filters.two_factor) return 'two_factor';
  if (filters.unconfirmed) return 'unconfirmed';
  if (filters.closed) return 'closed';
  return '';
}

export function CustomerBadges({ customer }: { customer: Pick<CustomerRow, 'closed' | 'is_admin' | 'two_factor' | 'email_confirmed_at'> }) {
  if (customer.closed) return <Badge tone="grey">Closed</Badge>;
  return (
    <span className="flex flex-wrap gap-1">
      {customer.is_admin ? <Badge tone="purple">Admin</Badge> : null}
      {customer.two_factor ? <Badge tone="green">Two-factor</Badge> : null}
      {customer.email_confirmed_at ? null : <Badge tone="yellow">Unconfirmed</Badge>}
    </span>
  );
}

const columns: Column<CustomerRow>[] = [
  {
    key: 'email',
    header: 'Customer',
    sortable: true,
    cell: (row) => (
      <div>
        <Link to={`/admin/customers/${encodeURIComponent(row.id)}`} className="font-medium text-brand-700 hover:underline">
          {customerName(row)}
        </Link>
        {!row.closed && row.full_name && row.email ? <p className="text-xs text-slate-500">{row.email}</p> : null}
      </div>
    ),
  },
  { key: 'status', header: 'Status', cell: (row) => <CustomerBadges customer={row} /> },
  { key: 'created', header: 'Joined', sortable: true, cell: (row) => formatDate(row.created_at) },
  {
    key: 'last_sign_in',
    header: 'Last Sign-in',
    sortable: true,
    cell: (row) => (row.last_sign_in_at ? formatDate(row.last_sign_in_at, { withTime: true }) : 'Never'),
  },
];

export function CustomerManagementPage() {
  const list = useListState(LIST);
  const customers = useCustomers(list.params);
  useLogLoadFailure('customers', customers.error);

  return (
    <StaffPage title="Customers" error={customers.error}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl
          label="Show"
          options={SHOW}
          value={shownOf(list.filters)}
          onChange={(value) => list.setFilters({ ...NO_FILTER, ...SHOW.find((option) => option.value === value)?.filters })}
        />
        <SearchField label="Search by email or name" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} placeholder="name@example.com" />
        <ExportButton path="/api/v1/admin/customers/export.csv" params={list.params} fallbackName="customers.csv" />
      </div>
      <DataTable
        caption="Customers"
        columns={columns}
        rowKey={(row) => row.id}
        emptyText={list.filtered ? 'No customers match your filters' : 'No customers yet'}
        {...listTableProps(list, customers)}
      />
    </StaffPage>
  );
}
