import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { CompanionStats } from '../api/stats';
import { WireWriteDashboardPage } from './WireWriteDashboardPage';

const STATS: CompanionStats = {
  total_users: 40,
  free_users: 30,
  pro_users: 10,
  conversion_rate: 25,
  total_certificates: 98,
  average_certificates_per_user: 2.45,
  promo_codes_used: 7,
  inactive_accounts: 3,
  inactive_days: 75,
  companion_app_url: 'https://wirewrite.example.test/app',
  system: { email_configured: true, inactivity_deletion_enabled: true, inactivity_deletion_days: 90, free_certificate_limit: 10 },
};

function card(label: string) {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.parentElement?.textContent ?? '';
}

function renderPage() {
  return renderRoute(<WireWriteDashboardPage />, { path: '/admin/wirewrite', initialEntry: '/admin/wirewrite' });
}

beforeEach(() => fakeAuth.restoreSession());

describe('WireWriteDashboardPage', () => {
  it('shows the six cards from one call', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, STATS));
    renderPage();
    expect(await screen.findByText('Total Users', { selector: 'dt' })).toBeInTheDocument();
    expect(card('Total Users')).toBe('Total Users4030 free, 10 pro');
    expect(card('Pro Subscribers')).toBe('Pro Subscribers1025.0% conversion rate');
    expect(card('Total Certificates')).toBe('Total Certificates982.5 average per user');
    expect(card('Promo Codes Used')).toContain('7');
    expect(card('Free Tier Users')).toContain('30');
    expect(card('Inactive Accounts')).toBe('Inactive Accounts375+ days without activity');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v1/admin/wirewrite/stats');
    expect(document.title).toBe('WireWrite Admin | Signalcraft');
  });

  it('offers the quick actions, the companion app opening in a new tab', async () => {
    mockFetch(() => jsonResponse(200, STATS));
    renderPage();
    const actions = await screen.findByRole('region', { name: 'Quick Actions' });
    expect(within(actions).getByRole('link', { name: 'Manage Users' })).toHaveAttribute('href', '/admin/wirewrite/users');
    expect(within(actions).getByRole('link', { name: 'Promo Codes' })).toHaveAttribute('href', '/admin/wirewrite/promo-codes');
    expect(within(actions).getByRole('link', { name: 'Certificates' })).toHaveAttribute('href', '/admin/wirewrite/certificates');
    const app = within(actions).getByRole('link', { name: 'Open WireWrite App' });
    expect(app).toHaveAttribute('href', 'https://wirewrite.example.test/app');
    expect(app).toHaveAttribute('target', '_blank');
    expect(app).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows the system status from the real settings', async () => {
    mockFetch(() => jsonResponse(200, STATS));
    renderPage();
    const status = await screen.findByRole('list', { name: 'System status' });
    const rows = within(status).getAllByRole('listitem').map((row) => row.textContent);
    expect(rows).toEqual(['WorkflowActive', 'Email ServiceConfigured', 'Inactivity DeletionEnabled (90 days)', 'Ad ServiceFree Tier Only']);
  });

  it('says when mail is not configured and the deletion is off', async () => {
    mockFetch(() =>
      jsonResponse(200, { ...STATS, system: { ...STATS.system, email_configured: false, inactivity_deletion_enabled: false } }),
    );
    renderPage();
    const status = await screen.findByRole('list', { name: 'System status' });
    expect(status).toHaveTextContent('Email ServiceNot configured');
    expect(status).toHaveTextContent('Inactivity DeletionDisabled');
  });

  it('logs a load failure and shows the error state with Retry, never zero counts', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch(() => jsonResponse(500, { code: 'internal_error', message: 'Something went wrong on our side.' }));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The WireWrite statistics could not be loaded.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByText('Total Users', { selector: 'dt' })).not.toBeInTheDocument();
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});
