// /admin/wirewrite/certificates (spec section 2 "Admin: certificates"): search by certificate
// number, site location, worker name or email; filter All / Drafts Only / Issued Only; sort by
// number, status or created (default newest first). Asked of the server, a page at a time; the
// search, filter, sort and page live in the address.
import { DataTable, type Column } from '@/components/DataTable';
import { Badge } from '@/components/list/Badge';
import { FilterControl } from '@/components/list/FilterControl';
import { ExportButton } from '@/components/list/ExportButton';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { formatDate } from '@/lib/format';
import type { ListSpec } from '@/lib/list';
import { useCertificates, type Certificate } from '../api/certificates';
import { WIREWRITE_ADMIN, workerName } from '../rules';
import { listTableProps } from '@/components/list/listTable';

const LIST: ListSpec<'q' | 'status'> = {
  filters: ['q', 'status'],
  sort: { columns: ['number', 'status', 'created'], initial: { column: 'created', direction: 'desc' } },
};

const STATUSES = [
  { value: '', label: 'All' },
  { value: 'draft', label: 'Drafts Only' },
  { value: 'issued', label: 'Issued Only' },
] as const;

const columns: Column<Certificate>[] = [
  {
    key: 'number',
    header: 'Certificate #',
    sortable: true,
    cell: (c) => (c.certificate_number ? <span className="font-mono">{c.certificate_number}</span> : <span className="text-slate-500">Draft</span>),
  },
  {
    key: 'worker',
    header: 'Worker',
    cell: (c) => (
      <div>
        <div className="font-medium text-slate-900">{workerName(c.worker.full_name)}</div>
        <div className="text-xs text-slate-500">{c.worker.email ?? ''}</div>
      </div>
    ),
  },
  { key: 'site', header: 'Site Location', cell: (c) => c.site_location ?? 'Not specified' },
  {
    key: 'status',
    header: 'Status',
    sortable: true,
    cell: (c) => (c.status === 'issued' ? <Badge tone="green">Issued</Badge> : <Badge tone="amber">Draft</Badge>),
  },
  { key: 'created', header: 'Created', sortable: true, cell: (c) => formatDate(c.created_at) },
  { key: 'issued', header: 'Issued', cell: (c) => (c.issued_at ? formatDate(c.issued_at, { withTime: true }) : 'N/A') },
];

export function CertificatesPage() {
  const list = useListState(LIST);
  const query = useCertificates(list.params);
  useLogLoadFailure('certificates', query.error);
  const counts = query.data?.counts;

  return (
    <StaffPage
      title="All Certificates"
      back={WIREWRITE_ADMIN}
      error={query.error}
      subtitle={counts ? `(${String(counts.all)} total certificates (${String(counts.draft)} draft, ${String(counts.issued)} issued)` : null}
    >
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl label="Filter by status" options={STATUSES} value={list.filters.status} onChange={(status) => list.setFilters({ status })} />
        <SearchField
          label="Search certificates"
          placeholder="Search by certificate number, site location, worker name or email..."
          value={list.filters.q}
          onSearch={(q) => list.setFilters({ q })}
        />
        <ExportButton path="/api/v1/admin/wirewrite/certificates/export.csv" params={list.params} fallbackName="wirewrite-certificates.csv" />
      </div>
      <DataTable
        caption="WireWrite certificates"
        columns={columns}
        rowKey={(c) => c.id}
        emptyText={list.filtered ? 'No certificates match your filters' : 'No certificates yet'}
        {...listTableProps(list, query)}
      />
    </StaffPage>
  );
}
