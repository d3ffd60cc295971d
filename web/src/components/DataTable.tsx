// The one table for server-paged lists (DESIGN.md: `{items, total, page, page_size}`): sortable
// headers that say their order (aria-sort), a loading state, the spec's empty text, a failed load's
// error state with Retry (components/list/LoadError: never the empty text for a failure), and
// Previous / Next with "Page X of Y". Sorting and paging are the server's: this only asks.
// The pager is components/list/Pager; the list's state (sort, page) is components/list/useListState.
import { useRef, type ReactNode } from 'react';
import { nextSort, PAGE_SIZE, type SortState } from '@/lib/list';
import { isEndedSessionError, isRetryableFailure, LoadError } from './list/LoadError';
import { Pager } from './list/Pager';
import { useOverflows } from './useOverflows';

export interface Column<Row> {
  /** The sort key the server knows (omit for a column that does not sort). */
  key: string;
  header: string;
  sortable?: boolean;
  cell: (row: Row) => ReactNode;
  className?: string;
}

interface DataTableProps<Row> {
  /** The table's accessible name. */
  caption: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string;
  loading?: boolean;
  /** Shown when there are no rows, word for word from the spec. */
  emptyText: string;
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  page: number;
  /** PAGE_SIZE (lib/list) unless the list asks for another. */
  pageSize?: number;
  total: number;
  /** The server counted only up to `total` (more match): `total_capped` of the page JSON. */
  totalCapped?: boolean;
  onPageChange: (page: number) => void;
  /** Classes of a row (e.g. dimmed when inactive). */
  rowClassName?: (row: Row) => string;
  /**
   * The list query's error. One a retry may mend (network, 5xx) shows the error state instead of
   * the empty text (rows kept from before stay); an ended session shows nothing; any other refusal
   * (a 422 for a bad filter) leaves the empty text to the page, which explains it.
   */
  error?: unknown;
  /** Asks again (the query's refetch); with `error`. */
  onRetry?: () => void;
}

export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  loading = false,
  emptyText,
  sort,
  onSortChange,
  page,
  pageSize = PAGE_SIZE,
  total,
  totalCapped = false,
  onPageChange,
  rowClassName,
  error,
  onRetry,
}: DataTableProps<Row>) {
  const scrollBox = useRef<HTMLDivElement>(null);
  const scrolls = useOverflows(scrollBox);
  const failed = !loading && (isRetryableFailure(error) || isEndedSessionError(error));
  const errorState = failed ? <LoadError error={error} onRetry={onRetry ?? (() => undefined)} title={`${caption} could not be loaded.`} /> : null;
  const ariaSort = (column: Column<Row>) => {
    if (!column.sortable) return undefined;
    if (sort?.column !== column.key) return 'none' as const;
    return sort.direction === 'asc' ? ('ascending' as const) : ('descending' as const);
  };

  let body: ReactNode;
  if (loading && !rows) {
    body = (
      <tr>
        <td colSpan={columns.length} className="px-4 py-8 text-center text-slate-500">
          Loading ...
        </td>
      </tr>
    );
  } else if (errorState && (!rows || rows.length === 0)) {
    body = (
      <tr>
        <td colSpan={columns.length} className="px-4 py-6">
          {errorState}
        </td>
      </tr>
    );
  } else if (!rows || rows.length === 0) {
    body = (
      <tr>
        <td colSpan={columns.length} className="px-4 py-8 text-center text-slate-500">
          {emptyText}
        </td>
      </tr>
    );
  } else {
    body = rows.map((row) => (
      <tr key={rowKey(row)} className={rowClassName?.(row) ?? ''}>
        {columns.map((column) => (
          <td key={column.key} className={column.className ?? 'px-4 py-3 text-sm text-slate-700'}>
            {column.cell(row)}
          </td>
        ))}
      </tr>
    ));
  }

  return (
    <div>
      {errorState && rows && rows.length > 0 ? <div className="mb-3">{errorState}</div> : null}
      {/* Wider than the screen: the box scrolls, so it takes focus (arrow keys scroll it), named by the caption. */}
      <div
        ref={scrollBox}
        className="overflow-x-auto rounded-xl border border-slate-200 bg-white"
        {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': caption } : {})}
      >
        <table className="min-w-full divide-y divide-slate-200" aria-busy={loading}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50">
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" aria-sort={ariaSort(column)} className="px-4 py-3 text-left text-xs font-semibold uppercase text-slate-600">
                  {column.sortable && onSortChange ? (
                    <button type="button" className="inline-flex items-center gap-1 uppercase" onClick={() => onSortChange(nextSort(sort, column.key))}>
                      {column.header}
                      <span aria-hidden="true">{sort?.column === column.key ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}</span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">{body}</tbody>
        </table>
      </div>
      <Pager
        label={caption}
        page={page}
        total={total}
        rows={rows?.length ?? 0}
        totalCapped={totalCapped}
        pageSize={pageSize}
        busy={loading}
        onPageChange={onPageChange}
      />
    </div>
  );
}
