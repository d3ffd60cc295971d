// A staff list's state (search, filters, sort, page) kept in the page's address, so a copied link
// or a reload shows the same rows and the browser's Back button returns to the previous view.
// Every change is one history entry; a change of search, filter or sort starts again at page 1.
// `spec` must be a constant (module level): it says which parameters are the list's.
import { useCallback, useMemo } from 'react';
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
  const setPage = useCallback((page: number) => setSearch((current) => writeListState(current, spec, { page })), [setSearch, spec]);
  const setFilters = useCallback(
    (filters: Partial<Record<F, string>>) => setSearch((current) => writeListState(current, spec, { filters })),
    [setSearch, spec],
  );
  const setSort = useCallback((sort: SortState) => setSearch((current) => writeListState(current, spec, { sort })), [setSearch, spec]);
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
