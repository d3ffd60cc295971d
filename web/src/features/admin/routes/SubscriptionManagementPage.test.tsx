import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import { callsTo, jsonResponse, mockApi, page, subscriptionRow } from '../testing';
import { SubscriptionManagementPage } from './SubscriptionManagementPage';

function renderPage(entry = '/admin/subscriptions') {
  return renderRoute(<SubscriptionManagementPage />, { path: '/admin/subscriptions', initialEntry: entry });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('SubscriptionManagementPage', () => {
  it('shows the spec columns: email (or Unknown) with 8 characters of the user id, product, provider, status, period end, created', async () => {
    mockApi(() =>
      jsonResponse(
        200,
        page([
          subscriptionRow(),
          subscriptionRow({ id: 'sub-2', user_email: null, user_id: 'abcdef12-9999-7000-8000-000000000000', status: 'cancelled', current_period_end: null, payment_provider: 'test', plan_name: null }),
        ]),
      ),
    );
    renderPage();
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    await within(table).findByText('ana@example.co.nz');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['User', 'Product', 'Provider', 'Status', 'Period End', 'Created']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('ana@example.co.nz0193a000');
    expect(rows[0]).toHaveTextContent('HHTraff TerminalMonthly');
    expect(rows[0]).toHaveTextContent('Stripe');
    expect(rows[0]).toHaveTextContent('Active');
    expect(rows[0]).toHaveTextContent('1 Nov 2025');
    expect(rows[0]).toHaveTextContent('1 Oct 2025');
    expect(rows[1]).toHaveTextContent('Unknownabcdef12');
    expect(rows[1]).not.toHaveTextContent('abcdef12-');
    expect(rows[1]).toHaveTextContent('Cancelled');
    expect(rows[1]).toHaveTextContent('—');
  });

  it('filters by status and searches by email on the server, and says the empty text', async () => {
    const fetchMock = mockApi((url) => jsonResponse(200, url.searchParams.get('status') === 'expired' ? page([]) : page([subscriptionRow()])));
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('ana@example.co.nz');
    const filters = screen.getByRole('group', { name: 'Filter by status' });
    expect(within(filters).getAllByRole('button').map((b) => b.textContent)).toEqual(['All', 'Active', 'Pending', 'Cancelled', 'Expired']);
    expect(within(filters).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(filters).getByRole('button', { name: 'Active' }));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/admin/subscriptions').at(-1)?.url.searchParams.get('status')).toBe('active'));
    expect(within(filters).getByRole('button', { name: 'Active' })).toHaveAttribute('aria-pressed', 'true');

    await user.type(screen.getByRole('searchbox', { name: 'Search by email' }), 'ana@{Enter}');
    await waitFor(() => {
      const last = callsTo(fetchMock, 'GET', '/api/v1/admin/subscriptions').at(-1)?.url;
      expect(last?.searchParams.get('q')).toBe('ana@');
      expect(last?.searchParams.get('status')).toBe('active');
      expect(last?.searchParams.get('page')).toBe('1');
      expect(last?.searchParams.get('page_size')).toBe('50');
    });

    await user.click(within(filters).getByRole('button', { name: 'Expired' }));
    expect(await screen.findByRole('cell', { name: 'No subscriptions found' })).toBeInTheDocument();
  });

  it('pages on the server', async () => {
    const fetchMock = mockApi((url) => jsonResponse(200, page([subscriptionRow({ id: `sub-${url.searchParams.get('page') ?? '1'}` })], 120, Number(url.searchParams.get('page')))));
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/v1/admin/subscriptions').at(-1)?.url.searchParams.get('page')).toBe('2');
  });
});
