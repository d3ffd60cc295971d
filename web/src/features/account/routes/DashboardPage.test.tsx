import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { CheckoutState } from '../api/checkout';
import type { Dashboard } from '../api/dashboard';
import { DashboardPage } from './DashboardPage';

// 13:00 on 10 October 2025 in New Zealand.
const NOW = Date.parse('2025-10-10T00:00:00Z');

const PRODUCT = { id: 'p1', slug: 'hhtraff', name: 'HHTraff Terminal', price_nzd: 1500, billing_interval: 'month' };

const WIREWRITE = { id: 'p2', slug: 'wirewrite', name: 'WireWrite', price_nzd: 600, billing_interval: 'month' };

function subscription(id: string, status: string, product = PRODUCT) {
  return {
    id,
    status,
    payment_provider: 'stripe',
    current_period_end: '2025-11-01T00:00:00Z',
    cancel_at_period_end: false,
    created_at: '2025-10-01T00:00:00Z',
    product,
    plan: { name: 'Monthly', price_amount: 1500, currency: 'NZD', billing_frequency_value: 1, billing_frequency_unit: 'month' },
  };
}

const DASHBOARD: Dashboard = {
  // Each access result but Legacy Tool's is backed by a current subscription; s2 has ended.
  subscriptions: [subscription('s1', 'active'), subscription('s2', 'cancelled'), subscription('s3', 'trialing', WIREWRITE)],
  active_subscriptions: [
    { product_name: 'HHTraff Terminal', product_slug: 'hhtraff', status: 'active', subscription_source: 'stripe_subscription', expires_at: '2025-10-13T00:00:00Z' },
    { product_name: 'WireWrite', product_slug: 'wirewrite', status: 'trial', subscription_source: 'test_checkout', expires_at: null },
    { product_name: 'Legacy Tool', product_slug: 'legacy', status: 'suspended', subscription_source: 'manual_grant', expires_at: '2025-10-10T05:00:00Z' },
  ],
  orders: [
    {
      id: 'o1',
      order_number: 'SC-7KQ2-M9XD',
      status: 'completed',
      total_amount: 25800,
      currency: 'NZD',
      created_at: '2025-10-01T11:30:00Z',
      items: [{ product_name: 'Bluetooth Serial Adapter', quantity: 2, unit_amount: 12900 }],
    },
    { id: 'o2', order_number: 'SC-AB12-CD34', status: 'shipped', total_amount: 4900, currency: 'AUD', created_at: '2025-09-20T00:00:00Z', items: [] },
    { id: 'o3', order_number: 'SC-PEND-0001', status: 'pending', total_amount: 1500, currency: 'NZD', created_at: '2025-09-01T00:00:00Z', items: [] },
  ],
};

/** An older order, number n, as the orders endpoint lists it. */
function olderOrder(n: number) {
  return {
    id: `o${String(n)}`,
    order_number: `SC-OLD-${String(n).padStart(4, '0')}`,
    status: 'paid',
    total_amount: 1000,
    currency: 'NZD',
    created_at: '2025-08-01T00:00:00Z',
    items: [],
  };
}

function renderDashboard(entry = '/dashboard') {
  return renderRoute(<DashboardPage />, { path: '/dashboard', initialEntry: entry });
}

/** The value of a stat card. */
function card(label: string): string | null {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

function dashboardCalls(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.filter(([url]) => url === '/api/v1/account/dashboard').length;
}

function checkoutCalls(fetchMock: ReturnType<typeof mockFetch>, id: string) {
  return fetchMock.mock.calls.filter(([url]) => url === `/api/v1/account/checkouts/${id}`).length;
}

beforeEach(() => {
  fakeAuth.restoreSession();
});

describe('DashboardPage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads everything in one call, with the bearer token, and shows the three cards', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, DASHBOARD));
    renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading dashboard...');
    expect(await screen.findByRole('heading', { name: 'Active Subscriptions' })).toBeInTheDocument();
    expect(card('Active Subscriptions')).toBe('1');
    expect(card('Total Orders')).toBe('3');
    expect(card('Account Type')).toBe('Individual');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/account/dashboard');
    expect((init?.headers as Record<string, string>).Authorization).toMatch(/^Bearer token-/);
    expect(document.title).toBe('Dashboard | Signalcraft');
  });

  it('counts every order from orders_total, though the dashboard lists only the newest', async () => {
    mockFetch(() => jsonResponse(200, { ...DASHBOARD, orders_total: 57 }));
    renderDashboard();
    await screen.findByRole('heading', { name: 'Order History' });
    expect(card('Total Orders')).toBe('57');
    const history = screen.getByRole('region', { name: 'Order History' });
    expect(within(history).getAllByRole('listitem').length).toBeGreaterThanOrEqual(3);
  });

  it('shows older orders a page at a time while there are more, skipping ones already shown', async () => {
    const fetchMock = mockFetch((url) => {
      if (url === '/api/v1/account/dashboard') return jsonResponse(200, { ...DASHBOARD, orders: [olderOrder(1), olderOrder(2)], orders_total: 5 });
      if (url === '/api/v1/account/orders?page=2&page_size=20')
        // A new order moved order 2 onto this page too: it is shown once.
        return jsonResponse(200, { items: [olderOrder(2), olderOrder(3), olderOrder(4)], total: 5, page: 2, page_size: 20 });
      return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    });
    const user = userEvent.setup();
    renderDashboard();
    const history = await screen.findByRole('region', { name: 'Order History' });
    expect(within(history).getAllByRole('article')).toHaveLength(2);
    await user.click(within(history).getByRole('button', { name: 'Show older orders' }));
    await waitFor(() => expect(within(history).getAllByRole('article')).toHaveLength(4));
    expect(within(history).getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual([
      'Order SC-OLD-0001',
      'Order SC-OLD-0002',
      'Order SC-OLD-0003',
      'Order SC-OLD-0004',
    ]);
    // Page 2 of 20 per page says 5 in all: nothing more to ask for.
    expect(within(history).queryByRole('button', { name: 'Show older orders' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => typeof url === 'string' && url.startsWith('/api/v1/account/orders'))).toHaveLength(1);
  });

  it('says when older orders fail to load, and the button tries again', async () => {
    // Page 2 fails once; page 3 fails once after page 2 has come.
    const failures = new Set(['/api/v1/account/orders?page=2&page_size=20', '/api/v1/account/orders?page=3&page_size=20']);
    const pages: Record<string, unknown> = {
      '/api/v1/account/orders?page=2&page_size=20': { items: [olderOrder(21), olderOrder(22)], total: 42, page: 2, page_size: 20 },
      '/api/v1/account/orders?page=3&page_size=20': { items: [olderOrder(41), olderOrder(42)], total: 42, page: 3, page_size: 20 },
    };
    const fetchMock = mockFetch((url) => {
      if (url === '/api/v1/account/dashboard') return jsonResponse(200, { ...DASHBOARD, orders: [olderOrder(1)], orders_total: 42 });
      if (failures.delete(url)) return jsonResponse(500, { code: 'internal_error', message: 'Something went wrong' });
      if (url in pages) return jsonResponse(200, pages[url]);
      return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderDashboard();
    const history = await screen.findByRole('region', { name: 'Order History' });
    const orderCalls = () => fetchMock.mock.calls.filter(([url]) => typeof url === 'string' && url.startsWith('/api/v1/account/orders'));

    await user.click(within(history).getByRole('button', { name: 'Show older orders' }));
    expect(await within(history).findByRole('alert')).toHaveTextContent('Failed to load older orders.');
    expect(within(history).getAllByRole('article')).toHaveLength(1);
    expect(orderCalls()).toHaveLength(1);

    // The failure offers Retry, which asks for page 2 again.
    await user.click(within(within(history).getByRole('alert')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(history).getAllByRole('article')).toHaveLength(3));
    expect(within(history).queryByRole('alert')).not.toBeInTheDocument();

    // Page 3 fails: the rows already shown stay, the failure is said, and the retry fetches page 3.
    await user.click(within(history).getByRole('button', { name: 'Show older orders' }));
    expect(await within(history).findByRole('alert')).toHaveTextContent('Failed to load older orders.');
    expect(within(history).getAllByRole('article')).toHaveLength(3);
    await user.click(within(within(history).getByRole('alert')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(history).getAllByRole('article')).toHaveLength(5));
    expect(within(history).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(history).queryByRole('button', { name: 'Show older orders' })).not.toBeInTheDocument();
    expect(orderCalls().map(([url]) => url)).toEqual([
      '/api/v1/account/orders?page=2&page_size=20',
      '/api/v1/account/orders?page=2&page_size=20',
      '/api/v1/account/orders?page=3&page_size=20',
      '/api/v1/account/orders?page=3&page_size=20',
    ]);
    expect(consoleError).toHaveBeenCalledWith('Failed to load older orders', expect.anything());
    consoleError.mockRestore();
  });

  it('has no older-orders button when the dashboard holds every order', async () => {
    mockFetch(() => jsonResponse(200, { ...DASHBOARD, orders_total: 3 }));
    renderDashboard();
    const history = await screen.findByRole('region', { name: 'Order History' });
    expect(within(history).getAllByRole('article')).toHaveLength(3);
    expect(within(history).queryByRole('button', { name: 'Show older orders' })).not.toBeInTheDocument();
  });

  it('lists the active subscriptions with their status, source and expiry', async () => {
    mockFetch(() => jsonResponse(200, DASHBOARD));
    renderDashboard();
    const panel = await screen.findByRole('region', { name: 'Active Subscriptions' });
    const rows = within(panel).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('HHTraff Terminal');
    expect(rows[0]).toHaveTextContent('Active · stripe subscription');
    expect(rows[0]).toHaveTextContent('Expires in 3 days');
    expect(rows[0]!.querySelector('svg')).toHaveClass('text-green-600');
    expect(rows[1]).toHaveTextContent('Trial · test checkout');
    expect(rows[1]).toHaveTextContent('Never expires');
    expect(rows[1]!.querySelector('svg')).toHaveClass('text-yellow-500');
    expect(rows[2]).toHaveTextContent('Suspended · manual grant');
    expect(rows[2]).toHaveTextContent('Expires today');
    expect(rows[2]!.querySelector('svg')).toHaveClass('text-red-600');
  });

  it('lists the orders: number, date, status badge, total and items', async () => {
    mockFetch(() => jsonResponse(200, DASHBOARD));
    renderDashboard();
    const history = await screen.findByRole('region', { name: 'Order History' });
    const first = within(history).getByRole('article', { name: 'Order SC-7KQ2-M9XD' });
    expect(first).toHaveTextContent('2 Oct 2025');
    expect(within(first).getByText('Completed')).toHaveAttribute('data-tone', 'green');
    // Spec section 4: completed green, shipped blue, others grey (the colour itself, not just the tone).
    expect(within(first).getByText('Completed')).toHaveClass('bg-green-100', 'text-green-800');
    expect(first).toHaveTextContent('$258.00');
    expect(within(within(first).getByRole('list', { name: 'Items' })).getByRole('listitem')).toHaveTextContent('2 × Bluetooth Serial Adapter$258.00');
    const shipped = within(history).getByRole('article', { name: 'Order SC-AB12-CD34' });
    expect(within(shipped).getByText('Shipped')).toHaveAttribute('data-tone', 'blue');
    expect(within(shipped).getByText('Shipped')).toHaveClass('bg-blue-100', 'text-blue-800');
    expect(shipped).toHaveTextContent('A$49.00');
    expect(within(within(history).getByRole('article', { name: 'Order SC-PEND-0001' })).getByText('Pending')).toHaveAttribute('data-tone', 'grey');
    expect(within(within(history).getByRole('article', { name: 'Order SC-PEND-0001' })).getByText('Pending')).toHaveClass('bg-slate-100');
  });

  it('says how much of an order was refunded, and nothing for an order with no refund', async () => {
    const order = DASHBOARD.orders[0];
    if (!order) throw new Error('the fixture has an order');
    const refunded = { ...order, id: 'o20', order_number: 'SC-REFD-0001', status: 'refunded', refunded_amount: order.total_amount };
    const partly = { ...order, id: 'o21', order_number: 'SC-REFD-0002', status: 'paid', refunded_amount: 1200 };
    const none = { ...order, id: 'o22', order_number: 'SC-REFD-0003', status: 'paid', refunded_amount: 0 };
    mockFetch(() => jsonResponse(200, { ...DASHBOARD, orders: [refunded, partly, none], orders_total: 3 }));
    renderDashboard();
    const history = await screen.findByRole('region', { name: 'Order History' });
    const full = within(history).getByRole('article', { name: 'Order SC-REFD-0001' });
    expect(full).toHaveTextContent('Refunded $258.00');
    expect(within(full).getByText('Refunded', { exact: true })).toHaveAttribute('data-tone', 'grey');
    expect(within(history).getByRole('article', { name: 'Order SC-REFD-0002' })).toHaveTextContent('Refunded $12.00');
    expect(within(history).getByRole('article', { name: 'Order SC-REFD-0003' })).not.toHaveTextContent('Refunded');
  });

  it('shows where a physical order ships and its carrier and tracking number; digital orders show neither', async () => {
    const shippedOrder = {
      id: 'o9',
      order_number: 'SC-SHIP-0001',
      status: 'shipped',
      total_amount: 4900,
      currency: 'NZD',
      created_at: '2025-10-01T00:00:00Z',
      items: [{ product_name: 'USB to RS-232 Cable', quantity: 1, unit_amount: 4900 }],
      shipping_address: { name: 'Aroha Ngāti', line1: '12 Kauri Street', line2: 'Flat 2', city: 'Wellington', state: null, postal_code: '6011', country: 'NZ', phone: '021 555 0101' },
      carrier: 'NZ Post',
      tracking_number: 'LY123456789NZ',
      shipped_at: '2025-10-02T00:00:00Z',
    };
    const unshipped = { ...shippedOrder, id: 'o10', order_number: 'SC-SHIP-0002', status: 'paid', carrier: null, tracking_number: null, shipped_at: null };
    const digital = { ...shippedOrder, id: 'o11', order_number: 'SC-DIGI-0001', status: 'paid', shipping_address: null, carrier: null, tracking_number: null, shipped_at: null };
    mockFetch(() => jsonResponse(200, { ...DASHBOARD, orders: [shippedOrder, unshipped, digital], orders_total: 3 }));
    renderDashboard();
    const history = await screen.findByRole('region', { name: 'Order History' });
    const shipped = within(history).getByRole('article', { name: 'Order SC-SHIP-0001' });
    expect(shipped).toHaveTextContent('Shipping toAroha Ngāti, 12 Kauri Street, Flat 2, Wellington 6011, New Zealand');
    expect(shipped).toHaveTextContent('TrackingNZ Post: LY123456789NZ');
    expect(within(history).getByRole('article', { name: 'Order SC-SHIP-0002' })).toHaveTextContent('Not shipped yet.');
    const none = within(history).getByRole('article', { name: 'Order SC-DIGI-0001' });
    expect(none).not.toHaveTextContent('Shipping to');
    expect(none).not.toHaveTextContent('Tracking');
  });

  it('says Enterprise for an enterprise member and lists and counts their licensed product', async () => {
    mockFetch(() =>
      jsonResponse(200, {
        subscriptions: [],
        active_subscriptions: [
          { product_name: 'HHTraff Terminal', product_slug: 'hhtraff', status: 'active', subscription_source: 'enterprise_licence', expires_at: null },
        ],
        orders: [],
        account_type: 'Enterprise',
      }),
    );
    renderDashboard();
    const panel = await screen.findByRole('region', { name: 'Active Subscriptions' });
    expect(card('Account Type')).toBe('Enterprise');
    expect(card('Active Subscriptions')).toBe('1');
    const row = within(panel).getByRole('listitem');
    expect(row).toHaveTextContent('HHTraff Terminal');
    expect(row).toHaveTextContent('Active · enterprise licence');
    expect(row).toHaveTextContent('Never expires');
  });

  it('shows empty states', async () => {
    mockFetch(() => jsonResponse(200, { subscriptions: [], active_subscriptions: [], orders: [] }));
    renderDashboard();
    expect(await screen.findByText('You have no active subscriptions.')).toBeInTheDocument();
    expect(screen.getByText('You have no orders yet.')).toBeInTheDocument();
    expect(card('Active Subscriptions')).toBe('0');
    expect(card('Total Orders')).toBe('0');
  });

  it('logs a load failure and shows the error state with the request id, never zero counts; Retry asks again', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let failing = true;
    const fetchMock = mockFetch(() =>
      failing
        ? new Response(JSON.stringify({ code: 'internal_error', message: 'Boom' }), { status: 500, headers: { 'X-Request-Id': 'req-dash-1' } })
        : jsonResponse(200, DASHBOARD),
    );
    renderDashboard();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your dashboard could not be loaded.');
    expect(alert).toHaveTextContent('req-dash-1');
    expect(alert).not.toHaveTextContent('Boom');
    expect(screen.queryByText('You have no orders yet.')).not.toBeInTheDocument();
    expect(screen.queryByText('Total Orders')).not.toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('Failed to load the dashboard', expect.objectContaining({ message: 'Boom' }));
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Total Orders')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('reloads the dashboard with Refresh', async () => {
    let answer: Dashboard = { ...DASHBOARD, subscriptions: [], active_subscriptions: [] };
    const fetchMock = mockFetch(() => jsonResponse(200, answer));
    const user = userEvent.setup();
    renderDashboard();
    expect(await screen.findByText('You have no active subscriptions.')).toBeInTheDocument();
    answer = DASHBOARD;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    const panel = screen.getByRole('region', { name: 'Active Subscriptions' });
    expect(await within(panel).findByText('HHTraff Terminal')).toBeInTheDocument();
    expect(dashboardCalls(fetchMock)).toBe(2);
  });
});

describe('DashboardPage back from payment (?checkout=<id>)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function checkout(status: string, orderStatus: string | null): CheckoutState {
    return {
      id: 'chk-1',
      status,
      mode: 'payment',
      product_slug: 'bluetooth-serial-adapter',
      order: orderStatus ? { order_number: 'SC-NEW1-0RDR', status: orderStatus, total_amount: 12900, currency: 'NZD' } : null,
    };
  }

  function serve(checkoutAnswers: (call: number) => Response) {
    let calls = 0;
    return mockFetch((url) => {
      if (url === '/api/v1/account/checkouts/chk-1') {
        return checkoutAnswers(++calls);
      }
      if (url === '/api/v1/account/dashboard') {
        // The new order appears once the checkout has been answered as paid (third answer).
        return jsonResponse(200, calls >= 3 ? DASHBOARD : { ...DASHBOARD, orders: [] });
      }
      return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    });
  }

  it('polls every 1.5 s until the order is paid, then confirms it and reloads the dashboard', async () => {
    const fetchMock = serve((call) => jsonResponse(200, call < 3 ? checkout('open', 'pending') : checkout('completed', 'paid')));
    renderDashboard('/dashboard?checkout=chk-1');
    expect(await screen.findByText('Confirming your payment...')).toBeInTheDocument();
    await waitFor(() => expect(checkoutCalls(fetchMock, 'chk-1')).toBe(1));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    await waitFor(() => expect(checkoutCalls(fetchMock, 'chk-1')).toBe(2));
    expect(screen.getByText('Confirming your payment...')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(await screen.findByText('Payment received — order SC-NEW1-0RDR confirmed')).toBeInTheDocument();
    await waitFor(() => expect(dashboardCalls(fetchMock)).toBe(2));
    expect(card('Total Orders')).toBe('3');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(checkoutCalls(fetchMock, 'chk-1')).toBe(3);
  });

  it('paid at once while the dashboard is still loading: the dashboard is asked again, after the payment', async () => {
    // The checkout is answered as paid once the dashboard's first load has been sent. A dashboard
    // request made before that answer gets the pre-payment dashboard, late; one made after it
    // gets the new order.
    const late: (() => void)[] = [];
    const dashboard: { asked?: () => void } = {};
    const dashboardAsked = new Promise<void>((resolve) => (dashboard.asked = resolve));
    let paid = false;
    mockFetch((url) => {
      if (url === '/api/v1/account/checkouts/chk-1') {
        return dashboardAsked.then(() => {
          paid = true;
          return jsonResponse(200, checkout('completed', 'paid'));
        });
      }
      if (url === '/api/v1/account/dashboard') {
        dashboard.asked?.();
        if (paid) return jsonResponse(200, DASHBOARD);
        return new Promise<Response>((resolve) => late.push(() => resolve(jsonResponse(200, { ...DASHBOARD, orders: [] }))));
      }
      return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    });
    renderDashboard('/dashboard?checkout=chk-1');
    expect(await screen.findByText('Payment received — order SC-NEW1-0RDR confirmed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Total Orders', { selector: 'dt' })).not.toBeNull());
    expect(card('Total Orders')).toBe('3');
    // The pre-payment answer arriving afterwards changes nothing.
    for (const answer of late) answer();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(card('Total Orders')).toBe('3');
  });

  it('says nothing was charged when the checkout expired', async () => {
    serve(() => jsonResponse(200, checkout('expired', 'cancelled')));
    renderDashboard('/dashboard?checkout=chk-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('This checkout was not paid: it expired or was cancelled. Nothing was charged.');
  });

  it('says so when the checkout is not found', async () => {
    const fetchMock = serve(() => jsonResponse(404, { code: 'not_found', message: 'Checkout not found' }));
    renderDashboard('/dashboard?checkout=chk-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not find that checkout.');
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(checkoutCalls(fetchMock, 'chk-1')).toBe(1);
  });

  it('keeps polling through a failed request', async () => {
    serve((call) => (call === 1 ? jsonResponse(503, { code: 'unavailable', message: 'Try later' }) : jsonResponse(200, checkout('completed', 'paid'))));
    renderDashboard('/dashboard?checkout=chk-1');
    expect(await screen.findByText('Confirming your payment...')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(await screen.findByText('Payment received — order SC-NEW1-0RDR confirmed')).toBeInTheDocument();
  });

  it('stops after 60 s with a clear message, and Check again starts over', async () => {
    const fetchMock = serve((call) => jsonResponse(200, call < 50 ? checkout('open', 'pending') : checkout('completed', 'paid')));
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderDashboard('/dashboard?checkout=chk-1');
    expect(await screen.findByText('Confirming your payment...')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We have not had confirmation of your payment yet.');
    expect(alert).toHaveTextContent('support@signalcraft.co.nz');
    const calls = checkoutCalls(fetchMock, 'chk-1');
    expect(calls).toBeGreaterThanOrEqual(40);
    expect(calls).toBeLessThanOrEqual(42);
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(checkoutCalls(fetchMock, 'chk-1')).toBe(calls);

    await user.click(within(alert).getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('Confirming your payment...')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(await screen.findByText('Payment received — order SC-NEW1-0RDR confirmed')).toBeInTheDocument();
  });
});
