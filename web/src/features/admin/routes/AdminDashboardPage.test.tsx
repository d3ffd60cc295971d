import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { deferred, renderRoute } from '@/test/utils';
import { callsTo, jsonResponse, mockApi, statsSeries } from '../testing';
import { AdminDashboardPage } from './AdminDashboardPage';

const STATS = {
  total_users: 1234,
  total_products: 7,
  active_subscriptions: 42,
  total_orders: 310,
  enterprise_accounts: 3,
  recent_revenue: 125050,
  total_revenue: 9876543,
  recent_revenue_by_currency: { NZD: 125050, AUD: 0, USD: 0 },
  total_revenue_by_currency: { NZD: 9876543, AUD: 0, USD: 0 },
  currency: 'NZD',
};

// jsdom has no canvas: the charts' uPlot part draws nothing here (DashboardCharts.test.tsx).
vi.mock('../components/TimeChart', () => ({ default: () => null }));

/** The stats card answer, or the charts' for their path. */
function stats(body: object) {
  return (url: URL) => (url.pathname === '/api/v1/admin/stats/series' ? jsonResponse(200, statsSeries()) : jsonResponse(200, body));
}

function renderDashboard() {
  return renderRoute(<AdminDashboardPage />, { path: '/admin', initialEntry: '/admin' });
}

/** The value of a statistic card. */
function card(label: string): string | null {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('AdminDashboardPage', () => {
  it('says Loading ... until the statistics arrive, then shows the six cards with revenue beside the all-time figure', async () => {
    const answer = deferred<Response>();
    const fetchMock = mockApi((url) => (url.pathname === '/api/v1/admin/stats' ? answer.promise : undefined));
    renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading ...');
    answer.resolve(jsonResponse(200, STATS));
    await screen.findByRole('region', { name: 'Statistics' });
    expect(card('Total Users')).toBe('1,234');
    expect(card('Total Products')).toBe('7');
    expect(card('Active Subscriptions')).toBe('42');
    expect(card('Total Orders')).toBe('310');
    expect(card('Enterprise Accounts')).toBe('3');
    expect(card('Recent Revenue (30 days)')).toBe('$1,250.50');
    expect(screen.getByText('All time: $98,765.43')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/v1/admin/stats')[0]?.headers.Authorization).toMatch(/^Bearer /);
    expect(document.title).toBe('Admin Dashboard | Signalcraft');
  });

  it('shows other currencies beneath the one figure only when they are not zero', async () => {
    mockApi(
      stats({
        ...STATS,
        recent_revenue_by_currency: { NZD: 125050, AUD: 4500, USD: 0 },
        total_revenue_by_currency: { NZD: 9876543, AUD: 9000, USD: 0 },
      }),
    );
    renderDashboard();
    await screen.findByRole('region', { name: 'Statistics' });
    expect(card('Recent Revenue (30 days)')).toBe('$1,250.50');
    expect(screen.getByText('AUD: A$45.00 (all time A$90.00)')).toBeInTheDocument();
    expect(screen.queryByText(/^USD:/)).not.toBeInTheDocument();
  });

  it('has the five quick actions with Invoices beside Orders, the customers and the audit log', async () => {
    mockApi(stats(STATS));
    renderDashboard();
    const nav = screen.getByRole('navigation', { name: 'Quick actions' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Manage Products', '/admin/products'],
      ['Manage Subscriptions', '/admin/subscriptions'],
      ['Manage Orders', '/admin/orders'],
      ['Invoices', '/admin/invoices'],
      ['Enterprise Accounts', '/admin/enterprise'],
      ['WireWrite Admin', '/admin/wirewrite'],
      ['Customers', '/admin/customers'],
      ['Audit Log', '/admin/audit'],
      ['Mail Outbox', '/admin/mail'],
      ['Enquiries', '/admin/enquiries'],
    ]);
    await screen.findByRole('region', { name: 'Statistics' });
  });

  it('logs a load failure and shows the error state with Retry, never zeros that look like figures (issue 33)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let failing = true;
    mockApi((url) => (failing ? jsonResponse(500, { code: 'internal_error', message: 'Boom' }) : stats(STATS)(url)));
    renderDashboard();
    const statsError = await screen.findByText('The statistics could not be loaded.');
    expect(screen.queryByRole('region', { name: 'Statistics' })).not.toBeInTheDocument();
    expect(await screen.findByText('The charts could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByText('Boom')).not.toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('Failed to load the admin statistics', expect.objectContaining({ message: 'Boom' }));
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Failed to load the dashboard charts', expect.objectContaining({ message: 'Boom' })));

    failing = false;
    const alert = statsError.closest<HTMLElement>('[role="alert"]');
    expect(alert).not.toBeNull();
    within(alert ?? document.body).getByRole('button', { name: 'Retry' }).click();
    await screen.findByRole('region', { name: 'Statistics' });
    expect(card('Total Users')).toBe('1,234');
  });

  it('shows the three charts with their summaries beneath the cards', async () => {
    const series = statsSeries();
    series.orders_by_day[29] = { ...series.orders_by_day[29]!, orders: 4 };
    const fetchMock = mockApi((url) =>
      url.pathname === '/api/v1/admin/stats/series' ? jsonResponse(200, series) : jsonResponse(200, STATS),
    );
    renderDashboard();
    const orders = await screen.findByRole('region', { name: 'Orders per day' });
    expect(within(orders).getByText('4 paid orders in the last 30 days; the busiest day was 27 November 2026 with 4.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Revenue per month' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Subscriptions per month' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/v1/admin/stats/series')[0]?.headers.Authorization).toMatch(/^Bearer /);
  });

  it('shows the spec refusal when the server answers 403', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(() => jsonResponse(403, { code: 'forbidden', message: 'Access denied. Admin privileges required.' }));
    renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied. Admin privileges required.');
    expect(screen.queryByRole('region', { name: 'Statistics' })).not.toBeInTheDocument();
  });
});
