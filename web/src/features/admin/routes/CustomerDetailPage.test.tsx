import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { CustomerDetail } from '../api/customerSchemas';
import { callsTo, jsonResponse, mockApi } from '../testing';
import { CustomerDetailPage } from './CustomerDetailPage';

function detail(overrides: Partial<CustomerDetail['customer']> = {}, rest: Partial<CustomerDetail> = {}): CustomerDetail {
  return {
    customer: {
      id: 'user-1',
      email: 'dev@example.nz',
      full_name: 'Dev Patel',
      created_at: '2025-10-01T00:00:00Z',
      last_sign_in_at: '2025-11-02T03:00:00Z',
      email_confirmed_at: '2025-10-01T00:00:00Z',
      closed: false,
      closed_at: null,
      is_admin: false,
      two_factor: true,
      phone: null,
      confirmation_sent_at: null,
      recovery_sent_at: null,
      invited_at: null,
      banned_until: null,
      admin_since: null,
      ...overrides,
    },
    orders: [{ id: 'order-1', order_number: 'ORD-1001', status: 'paid', total_amount: 4500, currency: 'NZD', created_at: '2025-10-05T00:00:00Z' }],
    subscriptions: [
      {
        id: 'sub-1',
        product_name: 'HHTraff Terminal',
        plan_name: 'Monthly',
        status: 'active',
        current_period_end: '2025-12-01T00:00:00Z',
        cancel_at_period_end: false,
        created_at: '2025-10-01T00:00:00Z',
      },
    ],
    invoices: [{ id: 'inv-1', number: 'INV-000042', kind: 'invoice', total_amount: 4500, currency: 'NZD', order_id: 'order-1', issued_at: '2025-10-05T00:00:00Z' }],
    enterprise: [{ account_id: 'acct-1', company_name: 'Waka Traffic', role: 'owner', is_active: true }],
    wirewrite: null,
    factors: [{ id: 'factor-1', friendly_name: 'Phone', factor_type: 'totp', status: 'verified', created_at: '2025-10-02T00:00:00Z', updated_at: '2025-10-02T00:00:00Z' }],
    sign_ins: [{ id: 'ev-1', action: 'login', created_at: '2025-11-02T03:00:00Z', client_address: '203.0.113.9' }],
    ...rest,
  };
}

function renderPage() {
  return renderRoute(<CustomerDetailPage />, { path: '/admin/customers/:id', initialEntry: '/admin/customers/user-1' });
}

const PATH = '/api/v1/admin/customers/user-1';

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('CustomerDetailPage', () => {
  it('links to their orders and subscriptions in the lists and each invoice to its document', async () => {
    mockApi(() => jsonResponse(200, detail()));
    renderPage();
    const orders = await screen.findByRole('region', { name: 'Orders' });
    expect(within(orders).getByRole('link', { name: 'All their orders' })).toHaveAttribute('href', '/admin/orders?q=dev%40example.nz');
    const subscriptions = screen.getByRole('region', { name: 'Subscriptions' });
    expect(within(subscriptions).getByRole('link', { name: 'All their subscriptions' })).toHaveAttribute('href', '/admin/subscriptions?q=dev%40example.nz');
    expect(within(screen.getByRole('region', { name: 'Tax invoices' })).getByRole('link', { name: 'INV-000042' })).toHaveAttribute(
      'href',
      '/account/invoices/INV-000042',
    );
  });

  it('shows the profile, purchases, enterprise accounts, factors and sign-ins', async () => {
    mockApi(() => jsonResponse(200, detail()));
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Customer' })).toBeInTheDocument();
    const profile = await screen.findByRole('region', { name: 'Profile' });
    expect(profile).toHaveTextContent('Dev Patel');
    expect(profile).toHaveTextContent('dev@example.nz');
    expect(profile).not.toHaveTextContent(/password/i);
    expect(within(screen.getByRole('region', { name: 'Orders' })).getByRole('link', { name: 'ORD-1001' })).toHaveAttribute('href', '/admin/orders/order-1');
    expect(screen.getByRole('region', { name: 'Orders' })).toHaveTextContent('$45.00');
    expect(screen.getByRole('region', { name: 'Subscriptions' })).toHaveTextContent('HHTraff Terminal');
    expect(screen.getByRole('region', { name: 'Tax invoices' })).toHaveTextContent('INV-000042');
    expect(screen.getByRole('region', { name: 'Enterprise accounts' })).toHaveTextContent('Waka Traffic · Account admin');
    expect(screen.getByRole('region', { name: 'WireWrite' })).toHaveTextContent('No WireWrite profile.');
    expect(screen.getByRole('region', { name: 'Two-factor authentication' })).toHaveTextContent('Phone');
    const signIns = screen.getByRole('region', { name: 'Recent sign-in events' });
    expect(signIns).toHaveTextContent('Signed in');
    expect(signIns).toHaveTextContent('203.0.113.9');
    // A confirmed customer: no resend button.
    expect(screen.queryByRole('button', { name: 'Resend confirmation email' })).not.toBeInTheDocument();
  });

  it('grants the admin role after the confirmation and shows the customer as it now is', async () => {
    let now = detail();
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === `${PATH}/roles/admin` && init?.method === 'PUT') now = detail({ is_admin: true, admin_since: '2025-11-03T00:00:00Z' });
      return jsonResponse(200, now);
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Make admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Make admin' });
    expect(dialog).toHaveTextContent('Give Dev Patel the admin role?');
    await user.click(within(dialog).getByRole('button', { name: 'Make admin' }));
    expect(await screen.findByText('Dev Patel is now an admin.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', `${PATH}/roles/admin`)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Remove admin role' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows why the last admin cannot lose the role', async () => {
    mockApi((_url, init) => {
      if (init?.method === 'DELETE')
        return jsonResponse(409, { code: 'last_admin', message: 'This is the last admin: grant the admin role to someone else first.' });
      return jsonResponse(200, detail({ is_admin: true }));
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove admin role' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Remove admin role' })).getByRole('button', { name: 'Remove admin role' }));
    expect(await screen.findByText(/This is the last admin/)).toBeInTheDocument();
  });

  it('resets two-factor only with a reason, sent trimmed', async () => {
    let now = detail();
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === `${PATH}/factors` && init?.method === 'DELETE') now = detail({ two_factor: false }, { factors: [] });
      return jsonResponse(200, now);
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reset two-factor' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset two-factor authentication' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset two-factor' }));
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(
      expect.stringContaining('Give the reason for resetting two-factor authentication.'),
    );
    expect(callsTo(fetchMock, 'DELETE', `${PATH}/factors`)).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), '  Lost phone, checked by video call  ');
    await user.click(within(dialog).getByRole('button', { name: 'Reset two-factor' }));
    expect(await screen.findByText('Two-factor authentication of Dev Patel is reset.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', `${PATH}/factors`)[0]!.body).toEqual({ reason: 'Lost phone, checked by video call' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('region', { name: 'Two-factor authentication' })).toHaveTextContent('No authenticator set up.');
  });

  it('resends the confirmation of an unconfirmed customer and sends a recovery email', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, detail({ email_confirmed_at: null })));
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Resend confirmation email' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Resend confirmation email' })).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('A new confirmation email is on its way to Dev Patel.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send password recovery email' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Send password recovery email' })).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('A password recovery email is on its way to Dev Patel.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `${PATH}/resend-confirmation`)).toHaveLength(1);
    expect(callsTo(fetchMock, 'POST', `${PATH}/send-recovery`)).toHaveLength(1);
  });

  it('shows a closed account as "Closed account", without actions', async () => {
    mockApi(() =>
      jsonResponse(200, detail({ closed: true, closed_at: '2025-11-01T00:00:00Z', email: null, full_name: null, two_factor: false }, { factors: [] })),
    );
    renderPage();
    expect(await screen.findByText('Closed account')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('This account is closed.');
    expect(screen.queryByRole('button', { name: 'Make admin' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send password recovery email' })).not.toBeInTheDocument();
  });

  it('says when the customer does not exist', async () => {
    mockApi(() => jsonResponse(404, { code: 'customer_not_found', message: 'No such customer.' }));
    renderPage();
    expect(await screen.findByText('Customer not found.')).toBeInTheDocument();
  });
});
