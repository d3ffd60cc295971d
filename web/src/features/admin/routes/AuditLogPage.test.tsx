import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import { callsTo, jsonResponse, mockApi, page } from '../testing';
import { AuditLogPage } from './AuditLogPage';

const ENTRY = {
  id: 'a1',
  created_at: '2025-10-01T00:00:00Z',
  action: 'product.update',
  actor: { id: '0193a000-0000-7000-8000-0000000000aa', email: 'admin@example.test', role: 'admin', aal: 'aal2' },
  target_type: 'product',
  target_id: 'prod-1',
  before: { is_active: true },
  after: { is_active: false },
  detail: null,
  client_address: '127.0.0.1',
};

function renderPage() {
  return renderRoute(<AuditLogPage />, { path: '/admin/audit', initialEntry: '/admin/audit' });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('AuditLogPage', () => {
  it('links a target to its page where it has one, and leaves the rest as text', async () => {
    mockApi(() =>
      jsonResponse(
        200,
        page([
          { ...ENTRY, id: 'a2', action: 'order.status_change', target_type: 'order', target_id: 'order-9' },
          { ...ENTRY, id: 'a3', action: 'login', target_type: 'user', target_id: 'user-7' },
          { ...ENTRY, id: 'a4', action: 'session.ended', target_type: 'session', target_id: 'sess-1' },
        ]),
      ),
    );
    renderPage();
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(await within(table).findByRole('link', { name: 'order order-9' })).toHaveAttribute('href', '/admin/orders/order-9');
    expect(within(table).getByRole('link', { name: 'user user-7' })).toHaveAttribute('href', '/admin/customers/user-7');
    expect(within(table).getByText('sess-1').closest('a')).toBeNull();
  });

  it('lists entries: when, actor, action, target and the before and after', async () => {
    mockApi(() => jsonResponse(200, page([ENTRY])));
    const user = userEvent.setup();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const row = (await within(table).findByText('product.update')).closest('tr')!;
    expect(row).toHaveTextContent('1 Oct 2025, 1:00 pm');
    expect(row).toHaveTextContent('admin@example.test');
    expect(row).toHaveTextContent('admin · aal2 · 127.0.0.1');
    expect(row).toHaveTextContent('product prod-1');
    await user.click(within(row).getByText('Show changes'));
    expect(row).toHaveTextContent(/Before\{\s*"is_active": true\s*\}/);
    expect(row).toHaveTextContent(/After\{\s*"is_active": false\s*\}/);
  });

  it('filters by actor, action and target on the server, and clears them', async () => {
    const fetchMock = mockApi((url) => jsonResponse(200, url.searchParams.get('action') ? page([]) : page([ENTRY])));
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('product.update');
    const form = screen.getByRole('search', { name: 'Filter the audit log' });
    await user.type(within(form).getByRole('textbox', { name: 'Actor' }), 'admin@');
    await user.type(within(form).getByRole('textbox', { name: 'Action' }), 'order.status_change');
    await user.type(within(form).getByRole('textbox', { name: 'Target' }), ' order-1 ');
    await user.click(within(form).getByRole('button', { name: 'Apply Filters' }));
    expect(await screen.findByRole('cell', { name: 'No audit entries found' })).toBeInTheDocument();
    const last = callsTo(fetchMock, 'GET', '/api/v1/admin/audit').at(-1)?.url;
    expect(Object.fromEntries(last!.searchParams)).toEqual({ page: '1', page_size: '50', actor: 'admin@', action: 'order.status_change', target: 'order-1' });
    await user.click(within(form).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(Object.fromEntries(callsTo(fetchMock, 'GET', '/api/v1/admin/audit').at(-1)!.url.searchParams)).toEqual({ page: '1', page_size: '50' }));
    expect(within(form).getByRole('textbox', { name: 'Actor' })).toHaveValue('');
  });
});
