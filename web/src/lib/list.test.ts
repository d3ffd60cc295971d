import { describe, expect, it } from 'vitest';
import { listParams, PAGE_SIZE, queryString, readListState, readPage, writeListState, type ListSpec } from './list';

const USERS: ListSpec<'q' | 'tier'> = {
  filters: ['q', 'tier'],
  sort: { columns: ['name', 'tier', 'joined'], initial: { column: 'joined', direction: 'desc' } },
};

const read = (query: string) => readListState(new URLSearchParams(query), USERS);

describe('list state in the address', () => {
  it('uses the server’s default page size', () => {
    // server/src/http/paging.h: PageRequest::size = 50.
    expect(PAGE_SIZE).toBe(50);
    expect(listParams(read('')).page_size).toBe(50);
  });

  it('reads the defaults from an empty address', () => {
    expect(read('')).toEqual({ page: 1, filters: { q: '', tier: '' }, sort: { column: 'joined', direction: 'desc' } });
  });

  it('reads search, filter, sort and page', () => {
    expect(read('q=EW99&tier=pro&sort=name&dir=asc&page=3')).toEqual({
      page: 3,
      filters: { q: 'EW99', tier: 'pro' },
      sort: { column: 'name', direction: 'asc' },
    });
  });

  it('falls back to the default for an unknown sort column, direction or a bad page', () => {
    expect(read('sort=password&dir=asc').sort).toEqual({ column: 'joined', direction: 'desc' });
    expect(read('sort=name&dir=sideways').sort).toEqual({ column: 'name', direction: 'desc' });
    for (const bad of ['0', '-2', '2.5', 'x', '', '1e3', '99999999999']) expect(readPage(bad)).toBe(1);
    expect(readPage(null)).toBe(1);
    expect(readPage('7')).toBe(7);
  });

  it('round-trips every state through the address', () => {
    const states = ['', 'q=EW99', 'tier=free&page=2', 'q=a%26b&tier=pro&sort=tier&dir=asc&page=4', 'sort=name&dir=desc'];
    for (const query of states) {
      const state = read(query);
      const written = writeListState(new URLSearchParams(), USERS, { filters: state.filters, ...(state.sort ? { sort: state.sort } : {}), page: state.page });
      expect(read(written.toString())).toEqual(state);
    }
  });

  it('leaves defaults out of the address and keeps parameters it does not own', () => {
    const next = writeListState(new URLSearchParams('tab=2&page=3'), USERS, { sort: { column: 'joined', direction: 'desc' } });
    expect(next.toString()).toBe('tab=2');
    const trimmed = writeListState(new URLSearchParams(), USERS, { filters: { q: '  amy  ', tier: '' } });
    expect(trimmed.toString()).toBe('q=amy');
  });

  it('starts again at page 1 when the search, a filter or the sort changes, and keeps them when the page does', () => {
    const current = new URLSearchParams('q=amy&tier=pro&sort=name&dir=asc&page=4');
    expect(writeListState(current, USERS, { filters: { q: 'bob' } }).toString()).toBe('q=bob&tier=pro&sort=name&dir=asc');
    expect(writeListState(current, USERS, { sort: { column: 'tier', direction: 'asc' } }).toString()).toBe('q=amy&tier=pro&sort=tier&dir=asc');
    expect(writeListState(current, USERS, { page: 5 }).toString()).toBe('q=amy&tier=pro&sort=name&dir=asc&page=5');
    expect(writeListState(current, USERS, { page: 1 }).toString()).toBe('q=amy&tier=pro&sort=name&dir=asc');
  });

  it('asks the server with the set parameters only', () => {
    const params = listParams(read('q=EW99&page=2'));
    expect(params).toEqual({ q: 'EW99', sort: 'joined', dir: 'desc', page: 2, page_size: 50 });
    expect(queryString(params)).toBe('?q=EW99&sort=joined&dir=desc&page=2&page_size=50');
    expect(queryString({ q: '', status: undefined })).toBe('');
    expect(listParams(readListState(new URLSearchParams('sort=x'), { filters: [] }))).toEqual({ page: 1, page_size: 50 });
  });
});
