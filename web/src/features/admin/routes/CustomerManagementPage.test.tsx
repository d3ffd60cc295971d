import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { CustomerRow } from '../api/customerSchemas';
import { callsTo, jsonResponse, mockApi, page } from '../testing';
import { CustomerManagementPage } from './CustomerManagementPage';

function row(overrides: Partial<CustomerRow> = {}): CustomerRow {
  return {
    id: 'user-1',
    email: 'aroha@example.nz',
    full_name: 'Aroha Ngata',
    created_at: '2025-10-01T00:00:00Z',
    last_sign_in_at: null,
    email_confirmed_at: '2025-10-01T00:00:00Z',
    closed: false,
    closed_at: null,
    is_admin: false,
    two_factor: false,
    ...overrides,
  };
}

function renderPage(entry = '/admin/customers') {
  return renderRoute(<CustomerManagementPage />, { path: '/admin/customers', initialEntry: entry });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('CustomerManagementPage', () => {
  it('lists customers with their name, address, badges and a link to each', async () => {
    mockApi(() =>
      jsonResponse(
        200,
        page([
          row({ is_admin: true, two_factor: true, last_sign_in_at: '2025-11-02T03:00:00Z' }),
          row({ id: 'user-2', email: 'ben@example.nz', full_name: null, email_confirmed_at: null }),
          row({ id: 'user-3', email: null, full_name: null, closed: true, closed_at: '2025-11-01T00:00:00Z' }),
        ]),
      ),
    );
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Customers' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Customers' });
    const aroha = await within(table).findByRole('link', { name: 'Aroha Ngata' });
    expect(aroha).toHaveAttribute('href', '/admin/customers/user-1');
    const first = aroha.closest('tr')!;
    expect(first).toHaveTextContent('aroha@example.nz');
    expect(first).toHaveTextContent('Admin');
    expect(first).toHaveTextContent('Two-factor');
    expect(first).toHaveTextContent('2 Nov 2025');
    const second = within(table).getByRole('link', { name: 'ben@example.nz' }).closest('tr')!;
    expect(second).toHaveTextContent('Unconfirmed');
    expect(second).toHaveTextContent('Never');
    const closed = within(table).getByRole('link', { name: 'Closed account' }).closest('tr')!;
    expect(closed).toHaveTextContent('Closed');
    expect(closed).not.toHaveTextContent('Unconfirmed');
  });

  it('asks the server for the search, one filter at a time and the sort, and keeps them in the address', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, page([row()])));
    const user = userEvent.setup();
    const { router } = renderPage();
    await screen.findByRole('link', { name: 'Aroha Ngata' });

    const show = screen.getByRole('group', { name: 'Show' });
    await user.click(within(show).getByRole('button', { name: 'Admins' }));
    expect(router.state.location.search).toBe('?role=admin');
    await user.click(within(show).getByRole('button', { name: 'Unconfirmed' }));
    expect(router.state.location.search).toBe('?unconfirmed=true');
    expect(within(show).getByRole('button', { name: 'Unconfirmed' })).toHaveAttribute('aria-pressed', 'true');

    await user.type(screen.getByRole('searchbox', { name: 'Search by email or name' }), 'aroha{Enter}');
    await user.click(screen.getByRole('button', { name: /Last Sign-in/ }));
    const last = callsTo(fetchMock, 'GET', '/api/v1/admin/customers').at(-1)!.url;
    expect(Object.fromEntries(last.searchParams)).toEqual({
      unconfirmed: 'true',
      q: 'aroha',
      sort: 'last_sign_in',
      dir: 'asc',
      page: '1',
      page_size: '50',
    });

    await user.click(within(show).getByRole('button', { name: 'All customers' }));
    expect(router.state.location.search).toBe('?q=aroha&sort=last_sign_in&dir=asc');
  });

  it('reads the filters from the address and says when nothing matches', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, page([])));
    renderPage('/admin/customers?closed=true&sort=email&dir=desc');
    expect(await screen.findByRole('cell', { name: 'No customers match your filters' })).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Show' })).getByRole('button', { name: 'Closed' })).toHaveAttribute('aria-pressed', 'true');
    const asked = callsTo(fetchMock, 'GET', '/api/v1/admin/customers').at(-1)!.url;
    expect(asked.searchParams.get('closed')).toBe('true');
    expect(asked.searchParams.get('sort')).toBe('email');
    expect(asked.searchParams.get('dir')).toBe('desc');
  });

  it("shows the spec's refusal when the server turns a non-admin away", async () => {
    mockApi(() => jsonResponse(403, { code: 'forbidden', message: 'Access denied. Admin privileges required.' }));
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied. Admin privileges required.');
  });
});
