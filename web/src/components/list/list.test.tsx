// The staff list kit driven the way staff use it: typing in the search, pressing a filter, paging,
// a link or reload at an address, and the browser's Back button.
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS, type ListSpec } from '@/lib/list';
import { Badge } from './Badge';
import { FilterControl } from './FilterControl';
import { Pager } from './Pager';
import { SearchField } from './SearchField';
import { useListState } from './useListState';

const SPEC: ListSpec<'q' | 'status'> = {
  filters: ['q', 'status'],
  sort: { columns: ['created', 'number'], initial: { column: 'created', direction: 'desc' } },
};

const STATUSES = [
  { value: '', label: 'All' },
  { value: 'draft', label: 'Drafts Only' },
] as const;

const asked: Record<string, string | number>[] = [];

function ListScreen() {
  const list = useListState(SPEC);
  asked.push(list.params);
  return (
    <div>
      <SearchField label="Search certificates" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} />
      <FilterControl label="Filter by status" options={STATUSES} value={list.filters.status} onChange={(status) => list.setFilters({ status })} />
      <button type="button" onClick={() => list.setSort({ column: 'number', direction: 'asc' })}>
        Sort by number
      </button>
      <Pager label="Certificates" page={list.page} total={120} rows={50} onPageChange={list.setPage} />
      <output>{list.filtered ? 'filtered' : 'everything'}</output>
    </div>
  );
}

function renderAt(entry: string) {
  asked.length = 0;
  const router = createMemoryRouter([{ path: '/list', element: <ListScreen /> }], { initialEntries: [entry] });
  render(<RouterProvider router={router} />);
  return router;
}

const search = () => router().state.location.search;
let current: ReturnType<typeof renderAt> | undefined;
const router = () => current!;

afterEach(() => {
  vi.useRealTimers();
  current = undefined;
});

describe('useListState with SearchField, FilterControl and Pager', () => {
  it('shows the rows of a link or a reload: the address is the state', () => {
    current = renderAt('/list?q=cuba&status=draft&sort=number&dir=asc&page=2');
    expect(screen.getByRole('searchbox', { name: 'Search certificates' })).toHaveValue('cuba');
    expect(screen.getByRole('button', { name: 'Drafts Only' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByText('filtered')).toBeInTheDocument();
    expect(asked.at(-1)).toEqual({ q: 'cuba', status: 'draft', sort: 'number', dir: 'asc', page: 2, page_size: 50 });
  });

  it('asks once typing pauses, not on every key, and writes the term to the address', () => {
    vi.useFakeTimers();
    current = renderAt('/list?page=3');
    const box = screen.getByRole('searchbox', { name: 'Search certificates' });
    fireEvent.change(box, { target: { value: 'c' } });
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50);
    });
    fireEvent.change(box, { target: { value: 'cub' } });
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50);
    });
    expect(search()).toBe('?page=3');
    expect(asked.some((params) => 'q' in params)).toBe(false);
    act(() => {
      vi.advanceTimersByTime(50);
    });
    expect(search()).toBe('?q=cub');
    expect(asked.filter((params) => 'q' in params).every((params) => params.q === 'cub')).toBe(true);
  });

  it('does not restart the wait when the page re-renders meanwhile', () => {
    vi.useFakeTimers();
    current = renderAt('/list');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search certificates' }), { target: { value: 'cuba' } });
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 100);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Drafts Only' }));
    expect(search()).toBe('?status=draft');
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(search()).toBe('?status=draft&q=cuba');
  });

  it('searches at once on Enter', () => {
    current = renderAt('/list');
    const box = screen.getByRole('searchbox', { name: 'Search certificates' });
    fireEvent.change(box, { target: { value: '  queen st ' } });
    fireEvent.submit(screen.getByRole('search', { name: 'Search certificates' }));
    expect(search()).toBe('?q=queen+st');
  });

  it('goes back to the previous state with Back, the search box included', async () => {
    const user = userEvent.setup();
    current = renderAt('/list');
    const box = screen.getByRole('searchbox', { name: 'Search certificates' });
    await user.type(box, 'cuba{Enter}');
    await user.click(screen.getByRole('button', { name: 'Drafts Only' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(search()).toBe('?q=cuba&status=draft&page=2');
    await user.click(screen.getByRole('button', { name: 'Sort by number' }));
    expect(search()).toBe('?q=cuba&status=draft&sort=number&dir=asc');

    await act(() => router().navigate(-1));
    expect(search()).toBe('?q=cuba&status=draft&page=2');
    await act(() => router().navigate(-1));
    expect(search()).toBe('?q=cuba&status=draft');
    await act(() => router().navigate(-1));
    expect(search()).toBe('?q=cuba');
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    await act(() => router().navigate(-1));
    expect(search()).toBe('');
    expect(box).toHaveValue('');
    expect(screen.getByText('everything')).toBeInTheDocument();
  });
});

describe('Pager', () => {
  it('says nothing for one page, and offers the way back from a page past the end', () => {
    const onPage = vi.fn();
    const { rerender } = render(<Pager label="Users" page={1} total={50} rows={50} onPageChange={onPage} />);
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    rerender(<Pager label="Users" page={4} total={3} rows={0} onPageChange={onPage} />);
    expect(screen.getByRole('navigation', { name: 'Users pages' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPage).toHaveBeenCalledWith(3);
  });
});

describe('Badge', () => {
  it('shows its label in its tone', () => {
    render(<Badge tone="purple">Pro</Badge>);
    expect(screen.getByText('Pro')).toHaveAttribute('data-tone', 'purple');
  });
});
