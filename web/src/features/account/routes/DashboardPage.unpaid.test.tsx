// The dashboard's unpaid orders ("Complete payment", "Cancel order", an expired payment window) and
// "Manage billing" (docs/billing.md, "Unpaid orders").
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { browserNavigation } from '@/lib/navigation';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { Dashboard, Order } from '../api/dashboard';
import { DashboardPage } from './DashboardPage';

const CHECKOUT_URL = 'http://localhost/pay/test/cs_local_abc';

function order(id: string, fields: Partial<Order>): Order {
  return {
    id,
    order_number: `SC-${id.toUpperCase()}`,
    status: 'paid',
    total_amount: 2500,
    currency: 'NZD',
    created_at: '2025-10-01T00:00:00Z',
    items: [{ product_name: 'Serial Adapter', quantity: 1, unit_amount: 2500 }],
    checkout_state: null,
    checkout_open: false,
    checkout_url: null,
    checkout_expires_at: null,
    ...fields,
  };
}

const OPEN = order('open1', {
  status: 'pending',
  checkout_state: 'open',
  checkout_open: true,
  checkout_url: CHECKOUT_URL,
  checkout_expires_at: '2025-10-01T00:30:00Z',
});
const EXPIRED = order('late1', { status: 'cancelled', checkout_state: 'expired', checkout_expires_at: '2025-09-01T00:30:00Z' });
const PAID = order('paid1', {});

function dashboard(orders: Order[], extra: Partial<Dashboard> = {}): Dashboard {
  return { subscriptions: [], active_subscriptions: [], orders, orders_total: orders.length, ...extra };
}

function renderDashboard() {
  return renderRoute(<DashboardPage />, { path: '/dashboard', initialEntry: '/dashboard' });
}

function card(label: string): string | null {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

async function article(orderNumber: string) {
  return screen.findByRole('article', { name: `Order ${orderNumber}` });
}

let assign: MockInstance<(url: string) => void>;

beforeEach(() => {
  fakeAuth.restoreSession();
  assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  assign.mockRestore();
});

describe('DashboardPage: unpaid orders', () => {
  it('lists an unpaid order with the way back to its checkout, and counts it', async () => {
    mockFetch(() => jsonResponse(200, dashboard([OPEN, EXPIRED, PAID])));
    renderDashboard();
    const open = await article('SC-OPEN1');
    expect(card('Total Orders')).toBe('3');
    expect(within(open).getByText('Pending')).toBeInTheDocument();
    expect(within(open).getByText(/^Awaiting payment until /)).toBeInTheDocument();
    expect(within(open).getByRole('link', { name: 'Complete payment' })).toHaveAttribute('href', CHECKOUT_URL);
    expect(within(open).getByRole('button', { name: 'Cancel order' })).toBeEnabled();

    // The expired one says so, with no way to pay or cancel.
    const expired = await article('SC-LATE1');
    expect(within(expired).getByText('Payment window expired. This order was not paid.')).toBeInTheDocument();
    expect(within(expired).queryByRole('link', { name: 'Complete payment' })).not.toBeInTheDocument();
    expect(within(expired).queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();

    // A paid one has neither.
    const paid = await article('SC-PAID1');
    expect(within(paid).queryByText(/Awaiting payment|Payment window expired/)).not.toBeInTheDocument();
    expect(within(paid).queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();
  });

  it('a pending order whose window has closed (the job has not run yet) offers nothing', async () => {
    mockFetch(() => jsonResponse(200, dashboard([{ ...OPEN, checkout_state: 'expired', checkout_open: false, checkout_url: null }])));
    renderDashboard();
    const pending = await article('SC-OPEN1');
    expect(within(pending).getByText('Payment window expired. This order was not paid.')).toBeInTheDocument();
    expect(within(pending).queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();
  });

  it('cancels after asking, then shows the order as the server now has it', async () => {
    let cancelled = false;
    const fetchMock = mockFetch((url, init) => {
      if (url === '/api/v1/account/dashboard')
        return jsonResponse(200, dashboard([cancelled ? { ...OPEN, status: 'cancelled', checkout_state: 'abandoned', checkout_open: false, checkout_url: null } : OPEN]));
      if (url === '/api/v1/account/orders/open1/cancel' && init?.method === 'POST') {
        cancelled = true;
        return jsonResponse(200, { ...OPEN, status: 'cancelled' });
      }
      return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    });
    const user = userEvent.setup();
    renderDashboard();
    const open = await article('SC-OPEN1');

    // Asked first; "Keep order" changes nothing.
    await user.click(within(open).getByRole('button', { name: 'Cancel order' }));
    const ask = within(open).getByRole('group', { name: 'Cancel order SC-OPEN1?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep order' }));
    expect(within(open).getByRole('button', { name: 'Cancel order' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/v1/account/orders/open1/cancel')).toHaveLength(0);

    await user.click(within(open).getByRole('button', { name: 'Cancel order' }));
    await user.click(within(open).getByRole('button', { name: 'Yes, cancel order' }));
    await waitFor(() => expect(within(open).getByText('Cancelled')).toBeInTheDocument());
    expect(within(open).queryByRole('link', { name: 'Complete payment' })).not.toBeInTheDocument();
    expect(within(open).queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/v1/account/orders/open1/cancel')).toHaveLength(1);
  });

  it("says why a cancel was refused (paid meanwhile) and keeps the order's row", async () => {
    mockFetch((url) => {
      if (url === '/api/v1/account/dashboard') return jsonResponse(200, dashboard([OPEN]));
      return jsonResponse(409, { code: 'order_not_cancellable', message: 'This order has been paid and can no longer be cancelled here.' });
    });
    const user = userEvent.setup();
    renderDashboard();
    const open = await article('SC-OPEN1');
    await user.click(within(open).getByRole('button', { name: 'Cancel order' }));
    await user.click(within(open).getByRole('button', { name: 'Yes, cancel order' }));
    expect(await within(open).findByRole('alert')).toHaveTextContent('This order has been paid and can no longer be cancelled here.');
  });
});

describe('DashboardPage: Manage billing', () => {
  it('is offered to customers the provider knows and opens the billing portal, back to the dashboard', async () => {
    const fetchMock = mockFetch((url) => {
      if (url === '/api/v1/account/dashboard') return jsonResponse(200, dashboard([PAID], { billing_portal: true }));
      if (url === '/functions/v1/create-portal-session') return jsonResponse(200, { url: 'http://localhost/pay/test/portal/tok' });
      return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    });
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/pay/test/portal/tok'));
    const call = fetchMock.mock.calls.find(([url]) => url === '/functions/v1/create-portal-session');
    expect(JSON.parse(call?.[1]?.body as string)).toEqual({ returnPath: '/dashboard' });
  });

  it('is hidden for customers the provider does not know', async () => {
    mockFetch(() => jsonResponse(200, dashboard([], { billing_portal: false })));
    renderDashboard();
    await screen.findByRole('heading', { name: 'Order History' });
    expect(screen.queryByRole('button', { name: 'Manage billing' })).not.toBeInTheDocument();
  });

  it('says when the portal cannot be opened', async () => {
    mockFetch((url) => {
      if (url === '/api/v1/account/dashboard') return jsonResponse(200, dashboard([], { billing_portal: true }));
      return jsonResponse(502, { code: 'payment_provider_error', message: 'The payment provider is not answering.' });
    });
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Manage billing' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/payment provider is not answering/);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeEnabled();
  });
});
