import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { deferred, renderRoute } from '@/test/utils';
import { callsTo, jsonResponse, mockApi } from '../testing';
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
    mockApi(() =>
      jsonResponse(200, {
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

  it('has the five quick actions, the customers and the audit log', async () => {
    mockApi(() => jsonResponse(200, STATS));
    renderDashboard();
    const nav = screen.getByRole('navigation', { name: 'Quick actions' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Manage Products', '/admin/products'],
      ['Manage Subscriptions', '/admin/subscriptions'],
      ['Manage Orders', '/admin/orders'],
      ['Enterprise Accounts', '/admin/enterprise'],
      ['WireWrite Admin', '/admin/wirewrite'],
      ['Customers', '/admin/customers'],
      ['Audit Log', '/admin/audit'],
      ['Mail Outbox', '/admin/mail'],
      ['Enquiries', '/admin/enquiries'],
    ]);
    await screen.findByRole('region', { name: 'Statistics' });
  });

  it('logs a load failure only, the counts staying at zero', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(() => jsonResponse(500, { code: 'internal_error', message: 'Boom' }));
    renderDashboard();
    await screen.findByRole('region', { name: 'Statistics' });
    expect(card('Total Users')).toBe('0');
    expect(card('Recent Revenue (30 days)')).toBe('$0.00');
    expect(consoleError).toHaveBeenCalledWith('Failed to load the admin statistics', expect.objectContaining({ message: 'Boom' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the spec refusal when the server answers 403', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(() => jsonResponse(403, { code: 'forbidden', message: 'Access denied. Admin privileges required.' }));
    renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied. Admin privileges required.');
    expect(screen.queryByRole('region', { name: 'Statistics' })).not.toBeInTheDocument();
  });
});
