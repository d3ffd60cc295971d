// A staff list's state (search, filters, sort, page) kept in the page's address, so a copied link
// or a reload shows the same rows and the browser's Back button returns to the previous view.
// Every change is one history entry; a change of search, filter or sort starts again at page 1.
// `spec` must be a constant (module level): it says which parameters are the list's.
// Each change starts from the last address written, not from the last one rendered: a search
// that settles just after a click on a sort header (before the page re-rendered) keeps the sort.
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { listParams, readListState, writeListState, type ListQuery, type ListSpec, type ListState, type SortState } from '@/lib/list';

export interface ListControls<F extends string> extends ListState<F> {
  /** The request's parameters for the server: filters, sort, page and page_size. */
  params: ListQuery;
  /** Any filter (or the search `q`) set: the empty text is then "no match", not "none yet". */
  filtered: boolean;
  setPage: (page: number) => void;
  setFilters: (filters: Partial<Record<F, string>>) => void;
  setSort: (sort: SortState) => void;
}

export function useListState<F extends string>(spec: ListSpec<F>): ListControls<F> {
  const [search, setSearch] = useSearchParams();
  const state = useMemo(() => readListState(search, spec), [search, spec]);
  const latest = useRef(search);
  useLayoutEffect(() => {
    latest.current = search;
  }, [search]);
  const write = useCallback(
    (change: Parameters<typeof writeListState<F>>[2]) => {
      const next = writeListState(latest.current, spec, change);
      latest.current = next;
      setSearch(next);
    },
    [setSearch, spec],
  );
  const setPage = useCallback((page: number) => write({ page }), [write]);
  const setFilters = useCallback((filters: Partial<Record<F, string>>) => write({ filters }), [write]);
  const setSort = useCallback((sort: SortState) => write({ sort }), [write]);
  return useMemo(
    () => ({
      ...state,
      params: listParams(state),
      filtered: Object.values<string>(state.filters).some((value) => value.trim() !== ''),
      setPage,
      setFilters,
      setSort,
    }),
    [state, setPage, setFilters, setSort],
  );
}
