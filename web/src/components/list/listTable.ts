// The DataTable wiring a searched list repeats: its rows, loading and error state (with Retry)
// from the page query, and its sort, page and total from the list state in the address (useListState).
import type { SortState } from '@/lib/list';

interface PageQuery<Row> {
  data?: { items: Row[]; total: number; total_capped?: boolean };
  isFetching: boolean;
  error?: unknown;
  refetch?: () => unknown;
}

interface ListPaging {
  page: number;
  sort: SortState | undefined;
  setPage: (page: number) => void;
  setSort: (sort: SortState) => void;
}

/** DataTable's rows, loading, error, sort, page and total props for a sorted list with a capped count. */
export function listTableProps<Row>(list: ListPaging, query: PageQuery<Row>) {
  return {
    rows: query.data?.items,
    loading: query.isFetching,
    sort: list.sort,
    onSortChange: list.setSort,
    page: list.page,
    total: query.data?.total ?? 0,
    totalCapped: query.data?.total_capped ?? false,
    onPageChange: list.setPage,
    error: query.error,
    onRetry: () => void query.refetch?.(),
  };
}
