// /admin/wirewrite/users (spec section 2 "Admin: users"): search by name, email or licence number,
// filter by tier, sort by User / Tier / Joined (default joined newest first; the same column flips,
// a new one starts ascending), upgrade and downgrade after the spec's confirmation, with the
// success and failure messages of spec section 8. Everything is asked of the server, a page at a time;
// the search, filter, sort and page live in the address.
import { useState } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { DataTable, type Column } from '@/components/DataTable';
import { Badge } from '@/components/list/Badge';
import { FilterControl } from '@/components/list/FilterControl';
import { ExportButton } from '@/components/list/ExportButton';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { formatDate } from '@/lib/format';
import type { ListSpec } from '@/lib/list';
import { useSetWorkerEntitlement } from '../api/updateWorker';
import { useWorkers, type Worker } from '../api/workers';
import { EntitlementDialog, type EntitlementChange } from '../components/EntitlementDialog';
import { WIREWRITE_ADMIN, workerName } from '../rules';
import { listTableProps } from '@/components/list/listTable';

const LIST: ListSpec<'q' | 'tier'> = {
  filters: ['q', 'tier'],
  sort: { columns: ['name', 'tier', 'joined'], initial: { column: 'joined', direction: 'desc' } },
};

const TIERS = [
  { value: '', label: 'All Users' },
  { value: 'free', label: 'Free Tier Only' },
  { value: 'pro', label: 'Pro Tier Only' },
] as const;

export function UsersPage() {
  const list = useListState(LIST);
  const [change, setChange] = useState<EntitlementChange | null>(null);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const query = useWorkers(list.params);
  const update = useSetWorkerEntitlement();
  useLogLoadFailure('users', query.error);

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
  const columns: Column<Worker>[] = [
    {
      key: 'name',
      header: 'User',
      sortable: true,
      cell: (w) => (
        <div>
          <div className="font-medium text-slate-900">{workerName(w.full_name, w.email)}</div>
          <div className="text-xs text-slate-500">{w.ewrb_licence_number ?? 'No licence number'}</div>
        </div>
      ),
    },
    { key: 'contact', header: 'Contact', cell: (w) => w.email ?? '' },
    { key: 'tier', header: 'Tier', sortable: true, cell: (w) => (w.entitlement === 'pro' ? <Badge tone="purple">Pro</Badge> : <Badge tone="grey">Free</Badge>) },
    { key: 'certificates', header: 'Certificates', cell: (w) => String(w.certificates_count) },
    { key: 'joined', header: 'Joined', sortable: true, cell: (w) => formatDate(w.created_at) },
    {
      key: 'action',
      header: 'Action',
      cell: (w) => {
        // The accessible name starts with the visible text (WCAG 2.5.3), then says whose row it is.
        const name = workerName(w.full_name, w.email);
        return w.entitlement === 'pro' ? (
          <button type="button" className="btn-secondary" aria-label={`Downgrade to Free: ${name}`} onClick={() => setChange({ id: w.id, name, to: 'free' })}>
            Downgrade to Free
          </button>
        ) : (
          <button type="button" className="btn-primary" aria-label={`Upgrade to Pro: ${name}`} onClick={() => setChange({ id: w.id, name, to: 'pro' })}>
            Upgrade to Pro
          </button>
        );
      },
    },
  ];

  return (
    <StaffPage
      title="Manage Users"
      back={WIREWRITE_ADMIN}
      error={query.error}
      subtitle={counts ? `(${String(counts.all)} total users (${String(counts.free)} free, ${String(counts.pro)} pro)` : null}
    >
      <Banner message={message} onDismiss={() => setMessage(null)} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl label="Filter by tier" options={TIERS} value={list.filters.tier} onChange={(tier) => list.setFilters({ tier })} />
        <SearchField label="Search users" placeholder="Search by name, email, or licence number..." value={list.filters.q} onSearch={(q) => list.setFilters({ q })} />
        <ExportButton path="/api/v1/admin/wirewrite/workers/export.csv" params={list.params} fallbackName="wirewrite-workers.csv" />
      </div>
      <DataTable
        caption="WireWrite users"
        columns={columns}
        rowKey={(w) => w.id}
        emptyText={list.filtered ? 'No users match your filters' : 'No users yet'}
        {...listTableProps(list, query)}
      />
      <EntitlementDialog change={change} busy={update.isPending} onConfirm={confirm} onCancel={() => setChange(null)} />
    </StaffPage>
  );
}
