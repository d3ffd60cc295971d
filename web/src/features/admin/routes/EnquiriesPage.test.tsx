import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { Enquiry } from '../api/getEnquiries';
import { callsTo, jsonResponse, mockApi, page } from '../testing';
import { EnquiriesPage } from './EnquiriesPage';

function enquiry(overrides: Partial<Enquiry> = {}): Enquiry {
  return {
    id: 'enq-1',
    name: 'Aroha Ngata',
    email: 'aroha@waka.example.nz',
    company: 'Waka Traffic',
    phone: '021 555 0101',
    message: 'Twenty seats of HHTraff, please.',
    created_at: '2025-10-01T00:00:00Z',
    handled: false,
    handled_at: null,
    handled_by: null,
    ...overrides,
  };
}

function renderPage(initialEntry = '/admin/enquiries') {
  return renderRoute(<EnquiriesPage />, { path: '/admin/enquiries', initialEntry });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('EnquiriesPage', () => {
  it('lists each enquiry with who sent it, the message and whether it is handled', async () => {
    mockApi(() =>
      jsonResponse(
        200,
        page([
          enquiry(),
          enquiry({ id: 'enq-2', name: 'Ben Walker', company: null, phone: null, handled: true, handled_at: '2025-10-02T00:00:00Z', handled_by: { id: 'u1', email: 'staff@example.test' } }),
        ]),
      ),
    );
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Enquiries' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Enquiries' });
    await within(table).findByText('Aroha Ngata');
    const [open, done] = within(table).getAllByRole('row').slice(1);
    expect(open).toHaveTextContent('1 Oct 2025, 1:00 pm');
    expect(open).toHaveTextContent('Waka Traffic');
    expect(open).toHaveTextContent('021 555 0101');
    expect(open).toHaveTextContent('Twenty seats of HHTraff, please.');
    expect(within(open!).getByRole('link', { name: 'aroha@waka.example.nz' })).toHaveAttribute('href', 'mailto:aroha@waka.example.nz');
    expect(within(open!).getByText('New')).toHaveAttribute('data-tone', 'yellow');
    expect(within(open!).getByRole('checkbox', { name: 'Handled: enquiry from Aroha Ngata' })).not.toBeChecked();
    expect(within(done!).getByText('Handled', { selector: 'span' })).toHaveAttribute('data-tone', 'green');
    expect(done).toHaveTextContent('2 Oct 2025, 1:00 pm by staff@example.test');
    expect(within(done!).getByRole('checkbox', { name: 'Handled: enquiry from Ben Walker' })).toBeChecked();
  });

  it('filters and searches on the server, in the address', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, page([])));
    const user = userEvent.setup();
    renderPage('/admin/enquiries?handled=false');
    expect(await screen.findByRole('cell', { name: 'No enquiries found' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Not handled' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Handled' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search enquiries' }), 'waka{Enter}');
    await waitFor(() =>
      expect(Object.fromEntries(callsTo(fetchMock, 'GET', '/api/v1/admin/enquiries').at(-1)!.url.searchParams)).toEqual({ page: '1', page_size: '50', handled: 'true', q: 'waka' }),
    );
  });

  it('marks an enquiry handled and reloads the list', async () => {
    let rows = [enquiry()];
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/enquiries') return jsonResponse(200, page(rows));
      if (url.pathname === '/api/v1/admin/enquiries/enq-1' && init?.method === 'PATCH') {
        rows = [enquiry({ handled: true, handled_at: '2025-10-02T00:00:00Z', handled_by: { id: 'u1', email: 'admin@example.test' } })];
        return jsonResponse(200, { enquiry: rows[0] });
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('checkbox', { name: 'Handled: enquiry from Aroha Ngata' }));
    expect(await screen.findByText('The enquiry from Aroha Ngata is marked handled.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/enquiries/enq-1').map((c) => c.body)).toEqual([{ handled: true }]);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Handled: enquiry from Aroha Ngata' })).toBeChecked());
  });
});
