// /admin/audit: the audit log, newest first, filtered by actor (email or user id), action and
// target (type or id), paged by the server. Each entry opens to its before and after.
import { useState, type SyntheticEvent } from 'react';
import { Link } from 'react-router';
import { DataTable, type Column } from '@/components/DataTable';
import { useListState } from '@/components/list/useListState';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { formatDate } from '@/lib/format';
import type { ListSpec } from '@/lib/list';
import { useAudit } from '../api/getAudit';
import type { AuditEntry } from '../api/schemas';
import { auditTargetPath } from '../links';

/** The target's type and id, a link to its page where it has one. */
function AuditTarget({ type, id }: { type: string; id: string | null }) {
  const to = auditTargetPath(type, id);
  const idText = id ? <span className="block font-mono text-xs">{id}</span> : null;
  return to ? (
    <Link to={to} className="text-brand-700 hover:underline">
      {type} {idText}
    </Link>
  ) : (
    <div>
      <p>{type}</p>
      {id ? <p className="font-mono text-xs text-slate-500">{id}</p> : null}
    </div>
  );
}

export const AUDIT_EMPTY = 'No audit entries found';

const FILTER_KEYS = ['actor', 'action', 'target'] as const;
const LIST: ListSpec<(typeof FILTER_KEYS)[number]> = { filters: FILTER_KEYS };

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function hasValue(value: unknown): boolean {
  return value !== null && value !== undefined && !(typeof value === 'object' && Object.keys(value).length === 0);
}

function Changes({ entry }: { entry: AuditEntry }) {
  const parts = [
    { label: 'Before', value: entry.before },
    { label: 'After', value: entry.after },
    { label: 'Detail', value: entry.detail },
  ].filter((part) => hasValue(part.value));
  if (parts.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <details>
      <summary className="cursor-pointer text-brand-700">Show changes</summary>
      {parts.map((part) => (
        <div key={part.label} className="mt-2">
          <p className="text-xs font-semibold uppercase text-slate-500">{part.label}</p>
          <pre className="max-w-md overflow-x-auto rounded bg-slate-50 p-2 text-xs">{json(part.value)}</pre>
        </div>
      ))}
    </details>
  );
}

const columns: Column<AuditEntry>[] = [
  { key: 'when', header: 'When', cell: (entry) => formatDate(entry.created_at, { withTime: true }) },
  {
    key: 'actor',
    header: 'Actor',
    cell: (entry) => (
      <div>
        <p className="text-slate-900">{entry.actor.email ?? (entry.actor.id ? entry.actor.id.slice(0, 8) : 'System')}</p>
        <p className="text-xs text-slate-500">
          {entry.actor.role}
          {entry.actor.aal ? ` · ${entry.actor.aal}` : ''}
          {entry.client_address ? ` · ${entry.client_address}` : ''}
        </p>
      </div>
    ),
  },
  { key: 'action', header: 'Action', cell: (entry) => <span className="font-mono text-xs">{entry.action}</span> },
  {
    key: 'target',
    header: 'Target',
    cell: (entry) => <AuditTarget type={entry.target_type} id={entry.target_id} />,
  },
  { key: 'changes', header: 'Changes', cell: (entry) => <Changes entry={entry} /> },
];

export function AuditLogPage() {
  const list = useListState(LIST);
  const audit = useAudit(list.params);
  useLogLoadFailure('the audit log', audit.error);
  const [draft, setDraft] = useState(list.filters);
  // The address's filters changed (Back, a link): the fields show them. Paging keeps the fields.
  const applied = JSON.stringify(list.filters);
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setDraft(list.filters);
  }

  const apply = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    list.setFilters({ actor: draft.actor.trim(), action: draft.action.trim(), target: draft.target.trim() });
  };
  const clear = () => {
    setDraft({ actor: '', action: '', target: '' });
    list.setFilters({ actor: '', action: '', target: '' });
  };

  const field = (key: (typeof FILTER_KEYS)[number], label: string, placeholder: string) => (
    <label className="block text-sm font-medium text-slate-700">
      {label}
      <input
        className="field-input mt-1"
        value={draft[key]}
        placeholder={placeholder}
        onChange={(event) => setDraft((current) => ({ ...current, [key]: event.target.value }))}
      />
    </label>
  );

  return (
    <StaffPage title="Audit Log" error={audit.error}>
      <form role="search" aria-label="Filter the audit log" onSubmit={apply} className="grid items-end gap-3 sm:grid-cols-4">
        {field('actor', 'Actor', 'Email or user id')}
        {field('action', 'Action', 'e.g. product.create')}
        {field('target', 'Target', 'Type or id')}
        <div className="flex gap-2">
          <button type="submit" className="btn-primary">
            Apply Filters
          </button>
          <button type="button" className="btn-secondary" onClick={clear}>
            Clear
          </button>
        </div>
      </form>
      <DataTable
        caption="Audit log"
        columns={columns}
        rows={audit.data?.items}
        rowKey={(entry) => entry.id}
        loading={audit.isFetching}
        emptyText={AUDIT_EMPTY}
        page={list.page}
        total={audit.data?.total ?? 0}
        onPageChange={list.setPage}
      />
    </StaffPage>
  );
}
