// /admin/enquiries: Contact Sales enquiries, newest first, filtered (handled or not) and searched
// (name, email, company) on the server, all in the address; each with a "Handled" mark that is
// stored and audited (docs/backoffice.md, "Enquiries").
import { useCallback, useState } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { DataTable, type Column } from '@/components/DataTable';
import { Badge } from '@/components/list/Badge';
import { FilterControl } from '@/components/list/FilterControl';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import type { ListSpec } from '@/lib/list';
import { useEnquiries, type Enquiry } from '../api/getEnquiries';
import { useUpdateEnquiry } from '../api/updateEnquiry';

export const ENQUIRIES_EMPTY = 'No enquiries found';

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'false', label: 'Not handled' },
  { value: 'true', label: 'Handled' },
] as const;

const LIST: ListSpec<'handled' | 'q'> = { filters: ['handled', 'q'] };

function HandledMark({ enquiry, onDone }: { enquiry: Enquiry; onDone: (message: BannerMessage) => void }) {
  const update = useUpdateEnquiry();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        checked={enquiry.handled}
        disabled={update.isPending}
        aria-label={`Handled: enquiry from ${enquiry.name}`}
        onChange={(event) =>
          update.mutate(
            { id: enquiry.id, handled: event.target.checked },
            {
              onSuccess: (after) =>
                onDone({ tone: 'success', text: `The enquiry from ${after.name} is marked ${after.handled ? 'handled' : 'not handled'}.` }),
              onError: (error) => onDone({ tone: 'error', text: errorMessage(error, 'Failed to update the enquiry') }),
            },
          )
        }
      />
      Handled
    </label>
  );
}

export function EnquiriesPage() {
  const list = useListState(LIST);
  const enquiries = useEnquiries(list.params);
  useLogLoadFailure('enquiries', enquiries.error);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const dismiss = useCallback(() => setMessage(null), []);

  const columns: Column<Enquiry>[] = [
    { key: 'received', header: 'Received', cell: (e) => formatDate(e.created_at, { withTime: true }) },
    {
      key: 'from',
      header: 'From',
      cell: (e) => (
        <div>
          <p className="font-medium text-slate-900">{e.name}</p>
          <p className="break-all text-xs text-slate-600">
            <a className="text-brand-700 hover:underline" href={`mailto:${e.email}`}>
              {e.email}
            </a>
          </p>
          {e.company ? <p className="text-xs text-slate-600">{e.company}</p> : null}
          {e.phone ? <p className="text-xs text-slate-600">{e.phone}</p> : null}
        </div>
      ),
    },
    { key: 'message', header: 'Message', cell: (e) => <p className="max-w-md whitespace-pre-line break-words text-sm">{e.message}</p> },
    {
      key: 'status',
      header: 'Status',
      cell: (e) => (
        <div className="space-y-1">
          {e.handled ? <Badge tone="green">Handled</Badge> : <Badge tone="yellow">New</Badge>}
          {e.handled && e.handled_at ? (
            <p className="text-xs text-slate-600">
              {formatDate(e.handled_at, { withTime: true })}
              {e.handled_by?.email ? ` by ${e.handled_by.email}` : ''}
            </p>
          ) : null}
        </div>
      ),
    },
    { key: 'actions', header: 'Actions', cell: (e) => <HandledMark enquiry={e} onDone={setMessage} /> },
  ];

  return (
    <StaffPage title="Enquiries" error={enquiries.error}>
      <Banner message={message} onDismiss={dismiss} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl label="Filter by handled" options={FILTERS} value={list.filters.handled} onChange={(handled) => list.setFilters({ handled })} />
        <SearchField label="Search enquiries" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} placeholder="Name, email or company" />
      </div>
      <DataTable
        caption="Enquiries"
        columns={columns}
        rows={enquiries.data?.items}
        rowKey={(e) => e.id}
        loading={enquiries.isFetching}
        emptyText={ENQUIRIES_EMPTY}
        page={list.page}
        total={enquiries.data?.total ?? 0}
        onPageChange={list.setPage}
      />
    </StaffPage>
  );
}
