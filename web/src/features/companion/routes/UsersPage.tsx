// /admin/wirewrite/users (spec section 2 "Admin: users"): search by name, email or licence number,
// filter by tier, sort by User / Tier / Joined (default joined newest first; the same column flips,
// a new one starts ascending), upgrade and downgrade after the spec's confirmation, with the
// success and failure messages of spec section 8. Everything is asked of the server, a page at a time.
import { useEffect, useState } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { DataTable, type Column, type SortState } from '@/components/DataTable';
import { formatDate } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { PAGE_SIZE } from '../api/keys';
import { useSetWorkerEntitlement } from '../api/updateWorker';
import { useWorkers, type Worker, type WorkerListParams } from '../api/workers';
import { BackLink } from '../components/BackLink';
import { ListFilters } from '../components/ListFilters';
import { EntitlementDialog, type EntitlementChange } from '../components/EntitlementDialog';
import { TierBadge } from '../components/TierBadge';
import { useDebounced } from '../components/useDebounced';
import { workerName } from '../rules';

const HEAD = { title: `Manage Users | ${SITE_NAME}`, robots: 'noindex' };

const DEFAULT_SORT: SortState = { column: 'joined', direction: 'desc' };

export function UsersPage() {
  useDocumentHead(HEAD);
  const [search, setSearch] = useState('');
  const [tier, setTier] = useState<WorkerListParams['tier']>('');
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [change, setChange] = useState<EntitlementChange | null>(null);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const q = useDebounced(search);
  const params: WorkerListParams = {
    q,
    tier,
    sort: sort.column as WorkerListParams['sort'],
    dir: sort.direction,
    page,
  };
  const query = useWorkers(params);
  const update = useSetWorkerEntitlement();

  useEffect(() => {
    if (query.error) console.error('Failed to load users', query.error);
  }, [query.error]);

  const confirm = () => {
    if (!change) return;
    const { id, name, to } = change;
    update.mutate(
      { id, entitlement: to },
      {
        onSuccess: () =>
          setMessage({
            tone: 'success',
            text: to === 'pro' ? `Successfully upgraded ${name} to Lifetime Pro!` : `Successfully downgraded ${name} to Free tier`,
          }),
        onError: (error) => {
          console.error('Failed to change the tier', error);
          setMessage({ tone: 'error', text: to === 'pro' ? 'Failed to upgrade user' : 'Failed to downgrade user' });
        },
        onSettled: () => setChange(null),
      },
    );
  };

  const counts = query.data?.counts;
  const filtered = q.trim() !== '' || tier !== '';
  const columns: Column<Worker>[] = [
    {
      key: 'name',
      header: 'User',
      sortable: true,
      cell: (w) => (
        <div>
          <div className="font-medium text-slate-900">{workerName(w.full_name)}</div>
          <div className="text-xs text-slate-500">{w.ewrb_licence_number ?? 'No licence number'}</div>
        </div>
      ),
    },
    { key: 'contact', header: 'Contact', cell: (w) => w.email ?? '' },
    { key: 'tier', header: 'Tier', sortable: true, cell: (w) => <TierBadge entitlement={w.entitlement} /> },
    { key: 'certificates', header: 'Certificates', cell: (w) => String(w.certificates_count) },
    { key: 'joined', header: 'Joined', sortable: true, cell: (w) => formatDate(w.created_at) },
    {
      key: 'action',
      header: 'Action',
      cell: (w) => {
        const name = workerName(w.full_name);
        return w.entitlement === 'pro' ? (
          <button type="button" className="btn-secondary" aria-label={`Downgrade ${name}`} onClick={() => setChange({ id: w.id, name, to: 'free' })}>
            Downgrade to Free
          </button>
        ) : (
          <button type="button" className="btn-primary" aria-label={`Upgrade ${name}`} onClick={() => setChange({ id: w.id, name, to: 'pro' })}>
            Upgrade to Pro
          </button>
        );
      },
    },
  ];

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <BackLink />
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Manage Users</h1>
      {counts ? (
        <p className="mt-1 text-slate-600">{`(${String(counts.all)} total users (${String(counts.free)} free, ${String(counts.pro)} pro)`}</p>
      ) : null}
      <div className="mt-4">
        <Banner message={message} onDismiss={() => setMessage(null)} />
      </div>

      <ListFilters
        searchLabel="Search users"
        placeholder="Search by name, email, or licence number..."
        search={search}
        filterLabel="Filter by tier"
        filter={tier}
        options={[
          { value: '', label: 'All Users' },
          { value: 'free', label: 'Free Tier Only' },
          { value: 'pro', label: 'Pro Tier Only' },
        ]}
        onSearch={(text) => {
          setSearch(text);
          setPage(1);
        }}
        onFilter={(value) => {
          setTier(value);
          setPage(1);
        }}
      />

      <div className="mt-6">
        <DataTable
          caption="WireWrite users"
          columns={columns}
          rows={query.data?.items}
          rowKey={(w) => w.id}
          loading={query.isFetching}
          emptyText={filtered ? 'No users match your filters' : 'No users yet'}
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

      <EntitlementDialog change={change} busy={update.isPending} onConfirm={confirm} onCancel={() => setChange(null)} />
    </div>
  );
}
