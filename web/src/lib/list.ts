// The staff lists' conventions on the browser's side (DESIGN.md, "The staff side"): one page size
// (the server's default, http/paging.h), the list's state read from and written to the page's
// address (?q=&status=&sort=&dir=&page=), and the API's query string. Pure, so it is tested alone;
// components/list/useListState.ts binds it to the router.

/** The page size of every staff list: the server's default `page_size` (http::readPage). */
export const PAGE_SIZE = 50;

/** How long a search box waits after the last key before it asks (and writes the address). */
export const SEARCH_DEBOUNCE_MS = 300;

export type SortDirection = 'asc' | 'desc';

export interface SortState {
  column: string;
  direction: SortDirection;
}

/** What a list keeps in the address: its filter names, and its sort columns with the default. */
export interface ListSpec<F extends string = string> {
  /** Filter names as the server knows them (`q` included when the list searches). */
  filters: readonly F[];
  /** The sortable columns (server words) and the default sort; omit for an unsorted list. */
  sort?: { columns: readonly string[]; initial: SortState };
}

export interface ListState<F extends string = string> {
  page: number;
  filters: Record<F, string>;
  sort: SortState | undefined;
}

/** A whole page number of at least 1 from the address (anything else is page 1). */
export function readPage(value: string | null): number {
  if (value === null || !/^\d{1,9}$/.test(value)) return 1;
  return Math.max(1, Number(value));
}

/** The list's state from the address; unknown sort columns and directions fall back to the default. */
export function readListState<F extends string>(search: URLSearchParams, spec: ListSpec<F>): ListState<F> {
  const filters = {} as Record<F, string>;
  for (const name of spec.filters) filters[name] = search.get(name) ?? '';
  let sort: SortState | undefined;
  if (spec.sort) {
    const column = search.get('sort');
    const dir = search.get('dir');
    const known = column !== null && spec.sort.columns.includes(column);
    sort = known
      ? { column, direction: dir === 'asc' || dir === 'desc' ? dir : spec.sort.initial.direction }
      : spec.sort.initial;
  }
  return { page: readPage(search.get('page')), filters, sort };
}

/**
 * The address after a change: defaults are left out (a clean link for the default view), any
 * change of filters or sort goes back to page 1, and parameters other lists own are kept.
 */
export function writeListState<F extends string>(
  current: URLSearchParams,
  spec: ListSpec<F>,
  change: { page?: number; filters?: Partial<Record<F, string>>; sort?: SortState },
): URLSearchParams {
  const next = new URLSearchParams(current);
  if (change.filters) {
    for (const [name, value] of Object.entries<string | undefined>(change.filters)) {
      const text = value?.trim() ?? '';
      if (text) next.set(name, text);
      else next.delete(name);
    }
  }
  if (change.sort && spec.sort) {
    const initial = spec.sort.initial;
    if (change.sort.column === initial.column && change.sort.direction === initial.direction) {
      next.delete('sort');
      next.delete('dir');
    } else {
      next.set('sort', change.sort.column);
      next.set('dir', change.sort.direction);
    }
  }
  const page = change.page ?? 1;
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  return next;
}

/** The parameters of a list request to the server (`page_size` always, empty values left out). */
export function listParams<F extends string>(state: ListState<F>): ListQuery {
  const params: ListQuery = {};
  for (const [name, value] of Object.entries<string>(state.filters)) if (value.trim()) params[name] = value.trim();
  if (state.sort) {
    params.sort = state.sort.column;
    params.dir = state.sort.direction;
  }
  params.page = state.page;
  params.page_size = PAGE_SIZE;
  return params;
}

/** `?a=1&b=x` from the set values only (empty strings and undefined are left out); '' when none. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The next sort after a click on `column`: the same column flips, a new column starts ascending. */
export function nextSort(current: SortState | undefined, column: string): SortState {
  if (current?.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}

export function pageCount(total: number, pageSize: number = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A list request's parameters (filters, sort, page) as the server reads them. */
export type ListQuery = Record<string, string | number>;
