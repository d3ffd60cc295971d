// /admin/wirewrite/certificates (spec section 2 "Admin: certificates"): search by certificate
// number, site location, worker name or email; filter All / Drafts Only / Issued Only; sort by
// number, status or created (default newest first). Asked of the server, a page at a time.
import { useEffect, useState } from 'react';
import { DataTable, type Column, type SortState } from '@/components/DataTable';
import { formatDate } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useCertificates, type Certificate, type CertificateListParams } from '../api/certificates';
import { PAGE_SIZE } from '../api/keys';
import { BackLink } from '../components/BackLink';
import { ListFilters } from '../components/ListFilters';
import { useDebounced } from '../components/useDebounced';
import { workerName } from '../rules';

const HEAD = { title: `All Certificates | ${SITE_NAME}`, robots: 'noindex' };

const DEFAULT_SORT: SortState = { column: 'created', direction: 'desc' };

export function CertificatesPage() {
  useDocumentHead(HEAD);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<CertificateListParams['status']>('');
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const q = useDebounced(search);
  const query = useCertificates({ q, status, sort: sort.column as CertificateListParams['sort'], dir: sort.direction, page });

  useEffect(() => {
    if (query.error) console.error('Failed to load certificates', query.error);
  }, [query.error]);

  const counts = query.data?.counts;
  const filtered = q.trim() !== '' || status !== '';
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
      cell: (c) =>
        c.status === 'issued' ? (
          <span className="inline-flex rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-semibold text-green-800">Issued</span>
        ) : (
          <span className="inline-flex rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-800">Draft</span>
        ),
    },
    { key: 'created', header: 'Created', sortable: true, cell: (c) => formatDate(c.created_at) },
    { key: 'issued', header: 'Issued', cell: (c) => (c.issued_at ? formatDate(c.issued_at, { withTime: true }) : 'N/A') },
  ];

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <BackLink />
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">All Certificates</h1>
      {counts ? (
        <p className="mt-1 text-slate-600">{`(${String(counts.all)} total certificates (${String(counts.draft)} draft, ${String(counts.issued)} issued)`}</p>
      ) : null}

      <ListFilters
        searchLabel="Search certificates"
        placeholder="Search by certificate number, site location, worker name or email..."
        search={search}
        filterLabel="Filter by status"
        filter={status}
        options={[
          { value: '', label: 'All' },
          { value: 'draft', label: 'Drafts Only' },
          { value: 'issued', label: 'Issued Only' },
        ]}
        onSearch={(text) => {
          setSearch(text);
          setPage(1);
        }}
        onFilter={(value) => {
          setStatus(value);
          setPage(1);
        }}
      />

      <div className="mt-6">
        <DataTable
          caption="WireWrite certificates"
          columns={columns}
          rows={query.data?.items}
          rowKey={(c) => c.id}
          loading={query.isFetching}
          emptyText={filtered ? 'No certificates match your filters' : 'No certificates yet'}
          sort={sort}
          onSortChange={(next) => {
            setSort(next);
            setPage(1);
          }}
          page={page}
          pageSize={PAGE_SIZE}
          total={query.data?.total ?? 0}
          totalCapped={query.data?.total_capped ?? false}
          onPageChange={setPage}
        />
      </div>
    </div>
  );
}
