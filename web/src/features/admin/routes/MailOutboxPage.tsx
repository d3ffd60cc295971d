// /admin/mail: the mail outbox, newest first, filtered by status and searched by recipient on the
// server, all in the address. No bodies (an account mail's link carries a token). A failed mail
// has "Retry now": back to pending, due at once, its attempts kept (docs/backoffice.md, "Mail Outbox").
import { useCallback, useState } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { DataTable, type Column } from '@/components/DataTable';
import { Badge, type BadgeTone } from '@/components/list/Badge';
import { FilterControl } from '@/components/list/FilterControl';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import type { ListSpec } from '@/lib/list';
import { useMail, type OutboxMail } from '../api/getMail';
import { useRetryMail } from '../api/retryMail';
import { statusLabel } from '../status';

export const MAIL_EMPTY = 'No mail found';

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
] as const;

const LIST: ListSpec<'status' | 'q'> = { filters: ['status', 'q'] };

export function mailTone(status: string): BadgeTone {
  if (status === 'sent') return 'green';
  if (status === 'failed') return 'red';
  return 'yellow';
}

function RetryButton({ mail, onDone }: { mail: OutboxMail; onDone: (message: BannerMessage) => void }) {
  const retry = useRetryMail();
  return (
    <button
      type="button"
      className="btn-secondary"
      aria-label={`Retry now: ${mail.subject} to ${mail.to}`}
      disabled={retry.isPending}
      onClick={() =>
        retry.mutate(mail.id, {
          onSuccess: () => onDone({ tone: 'success', text: `The mail to ${mail.to} will be sent again now.` }),
          onError: (error) => onDone({ tone: 'error', text: errorMessage(error, 'Failed to retry the mail') }),
        })
      }
    >
      {retry.isPending ? 'Retrying…' : 'Retry now'}
    </button>
  );
}

export function MailOutboxPage() {
  const list = useListState(LIST);
  const mail = useMail(list.params);
  useLogLoadFailure('the mail outbox', mail.error);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const dismiss = useCallback(() => setMessage(null), []);

  const columns: Column<OutboxMail>[] = [
    { key: 'created', header: 'Created', cell: (m) => formatDate(m.created_at, { withTime: true }) },
    { key: 'kind', header: 'Kind', cell: (m) => <span className="font-mono text-xs">{m.kind}</span> },
    { key: 'to', header: 'Recipient', cell: (m) => <span className="break-all">{m.to}</span> },
    { key: 'subject', header: 'Subject', cell: (m) => m.subject },
    { key: 'status', header: 'Status', cell: (m) => <Badge tone={mailTone(m.status)}>{statusLabel(m.status)}</Badge> },
    { key: 'attempts', header: 'Attempts', cell: (m) => String(m.attempts) },
    {
      key: 'error',
      header: 'Last error',
      cell: (m) => (m.last_error ? <span className="break-words text-xs text-red-800">{m.last_error}</span> : <span className="text-slate-500">—</span>),
    },
    {
      key: 'when',
      header: 'Next attempt / sent',
      cell: (m) =>
        m.sent_at ? `Sent ${formatDate(m.sent_at, { withTime: true })}` : m.status === 'failed' ? 'Not retried (failed)' : formatDate(m.next_attempt_at ?? '', { withTime: true }),
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (m) => (m.status === 'failed' ? <RetryButton mail={m} onDone={setMessage} /> : null),
    },
  ];

  return (
    <StaffPage title="Mail Outbox" error={mail.error}>
      <Banner message={message} onDismiss={dismiss} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <FilterControl label="Filter by status" options={FILTERS} value={list.filters.status} onChange={(status) => list.setFilters({ status })} />
        <SearchField label="Search mail" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} placeholder="Recipient address" />
      </div>
      <DataTable
        caption="Mail outbox"
        columns={columns}
        rows={mail.data?.items}
        rowKey={(m) => m.id}
        loading={mail.isFetching}
        emptyText={MAIL_EMPTY}
        page={list.page}
        total={mail.data?.total ?? 0}
        onPageChange={list.setPage}
      />
    </StaffPage>
  );
}
