import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { EnterpriseAccount, EnterpriseAccountDetails } from '../api/schemas';
import { percentUtilised } from '../components/AccountDetails';
import { AdminEnterprisePage } from './AdminEnterprisePage';

function account(overrides: Partial<EnterpriseAccount> = {}): EnterpriseAccount {
  return {
    id: 'a1',
    company_name: 'Harbour Traffic Systems Ltd',
    billing_email: 'accounts@harbour.example',
    admin: { id: 'u1', email: 'lead@harbour.example' },
    max_licenses: 5,
    is_active: true,
    created_at: '2025-10-01T00:00:00.000Z',
    member_count: 3,
    user_count: 3,
    license_count: 1,
    ...overrides,
  };
}

function page(items: EnterpriseAccount[]) {
  return { items, total: items.length, page: 1, page_size: 50 };
}

const DETAILS: EnterpriseAccountDetails = {
  account: account(),
  members: [
    { id: 'm1', user_id: 'u1', email: 'lead@harbour.example', full_name: null, role: 'admin', added_at: '2025-10-01T00:00:00.000Z', seat_product_ids: [] },
    { id: 'm2', user_id: 'u2', email: 'aroha@harbour.example', full_name: null, role: 'member', added_at: '2025-10-02T00:00:00.000Z', seat_product_ids: [] },
  ],
  licences: [{ id: 'l1', product: { id: 'p1', name: 'HHTraff Terminal', slug: 'hhtraff' }, quantity: 4, used_count: 3, created_at: '2025-10-01T00:00:00.000Z' }],
};

const PRODUCTS = { products: [{ id: 'p1', name: 'HHTraff Terminal', slug: 'hhtraff' }, { id: 'p2', name: 'WireWrite', slug: 'wirewrite' }] };

function renderPage() {
  return renderRoute(<AdminEnterprisePage />, { path: '/admin/enterprise', initialEntry: '/admin/enterprise' });
}

function calls(fetchMock: ReturnType<typeof mockFetch>, method: string) {
  return fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);
}

beforeEach(() => {
  fakeAuth.restoreSession();
});

describe('AdminEnterprisePage', () => {
  it('lists the accounts as cards with admin, billing, created date, status and counts', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, page([account(), account({ id: 'a2', company_name: 'Southern Signals', is_active: false, user_count: 1, license_count: 0 })])));
    renderPage();
    const card = await screen.findByRole('article', { name: 'Harbour Traffic Systems Ltd' });
    expect(card).toHaveTextContent('Admin: lead@harbour.example');
    expect(card).toHaveTextContent('Billing: accounts@harbour.example');
    expect(card).toHaveTextContent('Created: 1 Oct 2025');
    expect(card).toHaveTextContent('3 users');
    expect(card).toHaveTextContent('1 license');
    expect(card).not.toHaveTextContent('1 licenses');
    expect(screen.getByRole('article', { name: 'Southern Signals' })).toHaveTextContent('1 user0 licenses');
    expect(within(card).getByText('Active')).toHaveAttribute('data-tone', 'green');
    expect(within(card).getByRole('button', { name: 'Deactivate' })).toBeInTheDocument();
    const inactive = screen.getByRole('article', { name: 'Southern Signals' });
    expect(within(inactive).getByText('Inactive')).toHaveAttribute('data-tone', 'grey');
    expect(within(inactive).getByRole('button', { name: 'Activate' })).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v1/admin/enterprise-accounts?page=1&page_size=50');
    expect(document.title).toBe('Enterprise Account Management | Signalcraft');
  });

  it('reads the search and the page from the address, and pages there', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch(() => jsonResponse(200, { ...page([account()]), total: 120, page: 2 }));
    const { router } = renderRoute(<AdminEnterprisePage />, { path: '/admin/enterprise', initialEntry: '/admin/enterprise?q=harbour&page=2' });
    await screen.findByRole('article', { name: 'Harbour Traffic Systems Ltd' });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v1/admin/enterprise-accounts?q=harbour&page=2&page_size=50');
    expect(screen.getByRole('searchbox', { name: 'Search accounts' })).toHaveValue('harbour');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(router.state.location.search).toBe('?q=harbour&page=3');
  });

  it('shows the empty state with a link that goes to the form', async () => {
    mockFetch(() => jsonResponse(200, page([])));
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('No enterprise accounts yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create your first enterprise account' }));
    expect(screen.getByLabelText(/Company Name/)).toHaveFocus();
  });

  it('creates an account and reloads the list', async () => {
    let created = false;
    const fetchMock = mockFetch((_url, init) => {
      if (init?.method === 'POST') {
        created = true;
        return jsonResponse(201, { ...DETAILS, admin_invited: true });
      }
      return jsonResponse(200, page(created ? [account()] : []));
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('No enterprise accounts yet');
    await user.type(screen.getByLabelText(/Company Name/), 'Harbour Traffic Systems Ltd');
    await user.type(screen.getByLabelText(/Billing Email/), 'accounts@harbour.example');
    await user.type(screen.getByLabelText(/Admin Email/), 'lead@harbour.example');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('article', { name: 'Harbour Traffic Systems Ltd' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('An invitation was sent to lead@harbour.example.');
    const [url, init] = calls(fetchMock, 'POST')[0]!;
    expect(url).toBe('/api/v1/admin/enterprise-accounts');
    expect(JSON.parse(init!.body as string)).toEqual({
      company_name: 'Harbour Traffic Systems Ltd',
      billing_email: 'accounts@harbour.example',
      admin_email: 'lead@harbour.example',
    });
    expect(screen.getByLabelText(/Company Name/)).toHaveValue('');
  });

  it("says 'Error creating account: <message>' and marks the fields the server named", async () => {
    mockFetch((_url, init) =>
      init?.method === 'POST'
        ? jsonResponse(422, { code: 'validation_failed', message: 'Some fields need attention.', fields: { admin_email: 'Enter a valid email address.' } })
        : jsonResponse(200, page([])),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('No enterprise accounts yet');
    await user.type(screen.getByLabelText(/Company Name/), 'Acme');
    await user.type(screen.getByLabelText(/Billing Email/), 'b@acme.example');
    await user.type(screen.getByLabelText(/Admin Email/), 'a@acme.example');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error creating account: Some fields need attention.');
    expect(screen.getByLabelText(/Admin Email/)).toHaveAccessibleDescription('Enter a valid email address.');
    expect(screen.getByLabelText(/Company Name/)).toHaveValue('Acme');
  });

  it('deactivates and activates an account', async () => {
    let active = true;
    const fetchMock = mockFetch((_url, init) => {
      if (init?.method === 'PATCH') {
        active = (JSON.parse(init.body as string) as { is_active: boolean }).is_active;
        return jsonResponse(200, { account: account({ is_active: active }) });
      }
      return jsonResponse(200, page([account({ is_active: active })]));
    });
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByRole('article', { name: 'Harbour Traffic Systems Ltd' });
    await user.click(within(card).getByRole('button', { name: 'Deactivate' }));
    expect(await within(card).findByRole('button', { name: 'Activate' })).toBeInTheDocument();
    expect(within(card).getByText('Inactive')).toBeInTheDocument();
    const [url, init] = calls(fetchMock, 'PATCH')[0]!;
    expect(url).toBe('/api/v1/admin/enterprise-accounts/a1');
    expect(JSON.parse(init!.body as string)).toEqual({ is_active: false });
  });

  it('shows and hides the details: users with role and added date, licences with use and percent utilised', async () => {
    mockFetch((url) => {
      if (url === '/api/v1/admin/enterprise-accounts/a1') return jsonResponse(200, DETAILS);
      if (url === '/api/v1/products') return jsonResponse(200, PRODUCTS);
      return jsonResponse(200, page([account()]));
    });
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByRole('article', { name: 'Harbour Traffic Systems Ltd' });
    await user.click(within(card).getByRole('button', { name: 'View Details' }));
    const users = await within(card).findByRole('region', { name: 'Users' });
    const rows = within(users).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('lead@harbour.example');
    expect(rows[1]).toHaveTextContent('admin');
    expect(rows[2]).toHaveTextContent('aroha@harbour.example');
    expect(rows[2]).toHaveTextContent('member');
    expect(rows[2]).toHaveTextContent('2 Oct 2025');
    const licences = within(card).getByRole('region', { name: 'Licenses' });
    expect(licences).toHaveTextContent('HHTraff Terminal');
    expect(licences).toHaveTextContent('3 / 4 used · 75% utilised');
    // Products already licensed are not offered again.
    const choice = await within(licences).findByRole('option', { name: 'WireWrite' });
    expect(choice).toBeInTheDocument();
    expect(within(licences).queryByRole('option', { name: 'HHTraff Terminal' })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Hide Details' }));
    expect(within(card).queryByRole('region', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('shows the empty states of the details', async () => {
    mockFetch((url) => {
      if (url === '/api/v1/admin/enterprise-accounts/a1') return jsonResponse(200, { ...DETAILS, members: [], licences: [] });
      if (url === '/api/v1/products') return jsonResponse(200, PRODUCTS);
      return jsonResponse(200, page([account()]));
    });
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByRole('article', { name: 'Harbour Traffic Systems Ltd' });
    await user.click(within(card).getByRole('button', { name: 'View Details' }));
    expect(await within(card).findByText('No users yet')).toBeInTheDocument();
    expect(within(card).getByText('No licenses assigned')).toBeInTheDocument();
  });

  it('adds a licence and shows a refused quantity change', async () => {
    const fetchMock = mockFetch((url, init) => {
      if (init?.method === 'POST') return jsonResponse(201, { licence: DETAILS.licences[0] });
      if (init?.method === 'PATCH')
        return jsonResponse(422, { code: 'validation_failed', message: 'Some fields need attention.', fields: { quantity: 'Cannot be below the 3 seats in use: remove members first.' } });
      if (url === '/api/v1/admin/enterprise-accounts/a1') return jsonResponse(200, DETAILS);
      if (url === '/api/v1/products') return jsonResponse(200, PRODUCTS);
      return jsonResponse(200, page([account()]));
    });
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByRole('article', { name: 'Harbour Traffic Systems Ltd' });
    await user.click(within(card).getByRole('button', { name: 'View Details' }));
    const licences = await within(card).findByRole('region', { name: 'Licenses' });
    await within(licences).findByRole('option', { name: 'WireWrite' });
    await user.selectOptions(within(licences).getByLabelText('Product'), 'p2');
    await user.clear(within(licences).getByLabelText('Seats'));
    await user.type(within(licences).getByLabelText('Seats'), '3');
    await user.click(within(licences).getByRole('button', { name: 'Add Licence' }));
    await waitFor(() => expect(calls(fetchMock, 'POST')).toHaveLength(1));
    const [url, init] = calls(fetchMock, 'POST')[0]!;
    expect(url).toBe('/api/v1/admin/enterprise-accounts/a1/licences');
    expect(JSON.parse(init!.body as string)).toEqual({ product_id: 'p2', quantity: 3 });

    const seats = within(licences).getByLabelText('Seats of HHTraff Terminal');
    await user.clear(seats);
    await user.type(seats, '1');
    await user.click(within(licences).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot be below the 3 seats in use: remove members first.');
    expect(within(licences).getByLabelText('Seats of HHTraff Terminal')).toHaveValue(4);
  });

  it('works out the percent utilised', () => {
    expect(percentUtilised(3, 4)).toBe(75);
    expect(percentUtilised(1, 3)).toBe(33);
    expect(percentUtilised(0, 0)).toBe(0);
  });
});
