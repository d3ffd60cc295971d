import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SubscriptionRow } from '../api/schemas';
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
          subscriptionRow({ id: 'sub-2', user_email: null, user_id: 'abcdef12-9999-7000-8000-000000000000', status: 'cancelled', current_period_end: null, payment_provider: 'test', plan_name: null, allowed_actions: [] }),
        ]),
      ),
    );
    renderPage();
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    await within(table).findByText('ana@example.co.nz');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['User', 'Product', 'Provider', 'Status', 'Period End', 'Created', 'Actions']);
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
    expect(within(filters).getAllByRole('button').map((b) => b.textContent)).toEqual(['All', 'Active', 'Pending', 'Past due', 'Cancelled', 'Expired']);
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

  it('filters the past-due subscriptions, showing since when', async () => {
    const fetchMock = mockApi((url) =>
      jsonResponse(200, url.searchParams.get('status') === 'past_due' ? page([subscriptionRow({ status: 'past_due', past_due_since: '2025-10-20T00:00:00Z' })]) : page([subscriptionRow()])),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('ana@example.co.nz');
    await user.click(within(screen.getByRole('group', { name: 'Filter by status' })).getByRole('button', { name: 'Past due' }));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/admin/subscriptions').at(-1)?.url.searchParams.get('status')).toBe('past_due'));
    const status = await screen.findByText('Past due', { selector: '[data-tone]' });
    expect(status).toHaveAttribute('data-tone', 'amber');
    expect(screen.getByText('Since 20 Oct 2025')).toBeInTheDocument();
  });

  it('offers only the allowed actions and Open customer, the customer page of the row', async () => {
    mockApi(() => jsonResponse(200, page([subscriptionRow({ allowed_actions: ['cancel_now'] }), subscriptionRow({ id: 'sub-2', status: 'cancelled', allowed_actions: [] })])));
    renderPage();
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    await within(table).findAllByText('ana@example.co.nz');
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByRole('button', { name: 'Cancel now: HHTraff Terminal for ana@example.co.nz' })).toBeInTheDocument();
    expect(within(first!).queryByRole('button', { name: /^Cancel at period end/ })).not.toBeInTheDocument();
    // An ended subscription can no longer be cancelled; its latest payment can still be refunded.
    expect(within(second!).getAllByRole('button').map((button) => button.textContent)).toEqual(['Refund latest payment']);
    expect(within(first!).getByRole('link', { name: 'Open customer: ana@example.co.nz' })).toHaveAttribute('href', '/admin/customers/0193a000-1111-7000-8000-0000000000aa');
  });

  it.each([
    [true, 'Cancel at period end', 'The subscription does not renew. ana@example.co.nz keeps access until 1 Nov 2025.', 'HHTraff Terminal for ana@example.co.nz will not renew. Access ends on 1 Nov 2025.'],
    [false, 'Cancel now', 'ana@example.co.nz loses access immediately. No refund is made.', 'HHTraff Terminal for ana@example.co.nz is cancelled.'],
  ])('cancels (at_period_end %s) with the reason, after saying when access ends', async (atPeriodEnd, action, statement, done) => {
    let answer: SubscriptionRow = subscriptionRow();
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/subscriptions/sub-1/cancel' && init?.method === 'POST') {
        answer = subscriptionRow(atPeriodEnd ? { cancel_at_period_end: true, allowed_actions: ['cancel_now'] } : { status: 'cancelled', allowed_actions: [] });
        return jsonResponse(200, answer);
      }
      // The list is filtered to active: a row cancelled now leaves it, and the dialog's answer still arrives.
      return jsonResponse(200, page(answer.status === 'active' ? [answer] : []));
    });
    const user = userEvent.setup();
    renderPage('/admin/subscriptions?status=active');
    await user.click(await screen.findByRole('button', { name: `${action}: HHTraff Terminal for ana@example.co.nz` }));
    const dialog = screen.getByRole('dialog', { name: `${action}: HHTraff Terminal` });
    expect(dialog).toHaveAccessibleDescription(statement);
    // The reason is required: nothing is sent without one.
    await user.click(within(dialog).getByRole('button', { name: action }));
    expect(within(dialog).getByRole('textbox', { name: /^Reason/ })).toHaveAccessibleDescription(/Give the reason for cancelling the subscription\./);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/subscriptions/sub-1/cancel')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), '  Customer asked by phone  ');
    await user.click(within(dialog).getByRole('button', { name: action }));
    expect(await screen.findByRole('status')).toHaveTextContent(done);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/subscriptions/sub-1/cancel').map((call) => call.body)).toEqual([{ at_period_end: atPeriodEnd, reason: 'Customer asked by phone' }]);
  });

  it("shows the server's refusal in the dialog, and its field errors beside the field", async () => {
    mockApi((_url, init) => {
      if (init?.method === 'POST') return jsonResponse(422, { code: 'validation_failed', message: 'Check the reason.', fields: { reason: 'The reason must be one line of at most 500 characters.' } });
      return jsonResponse(200, page([subscriptionRow()]));
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cancel now: HHTraff Terminal for ana@example.co.nz' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel now: HHTraff Terminal' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel now' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Check the reason.');
    expect(within(dialog).getByRole('textbox', { name: /^Reason/ })).toHaveAccessibleDescription(/The reason must be one line of at most 500 characters\./);
  });

  it('refunds part of the latest payment after saying what happens, with one Idempotency-Key per opening', async () => {
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/subscriptions/sub-1/refunds' && init?.method === 'POST')
        return jsonResponse(201, { id: 'refund-1', amount: 500, currency: 'NZD', status: 'succeeded' });
      return jsonResponse(200, page([subscriptionRow()]));
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Refund latest payment: HHTraff Terminal for ana@example.co.nz' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund latest payment: HHTraff Terminal' });
    // A bad amount is refused here: nothing is sent.
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount/ }), 'five');
    await user.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    expect(within(dialog).getByRole('textbox', { name: /^Amount/ })).toHaveAccessibleDescription(/Enter an amount above 0/);
    await user.clear(within(dialog).getByRole('textbox', { name: /^Amount/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Amount/ }), '5.00');
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Charged twice');
    await user.click(within(dialog).getByRole('button', { name: 'Review refund' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm refund: HHTraff Terminal for ana@example.co.nz' });
    expect(confirm).toHaveTextContent('5.00 of the latest payment goes back to the card or account it came from, and a credit note is issued.');
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Refunded $5.00 of the latest payment of HHTraff Terminal for ana@example.co.nz.');
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]![1]!.body as string)).toEqual({ amount: 500, reason: 'Charged twice' });
    expect(new Headers(posts[0]![1]!.headers).get('Idempotency-Key')).toBeTruthy();
  });
});
