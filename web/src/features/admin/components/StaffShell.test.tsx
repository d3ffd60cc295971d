import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { createTestQueryClient, LocationProbe } from '@/test/utils';
import { todoText } from '../api/getTodo';
import { callsTo, jsonResponse, mockApi } from '../testing';
import { TodoList } from './TodoList';
import { StaffShell } from './StaffShell';

function renderShell(at: string, todo: object = { orders_to_ship: 3, enquiries_open: 0, mail_failed: 1, payments_to_return: 0 }) {
  const fetchMock = mockApi((url) => (url.pathname === '/api/v1/admin/todo' ? jsonResponse(200, todo) : undefined));
  const router = createMemoryRouter(
    [{ path: '/admin', element: <StaffShell />, children: [{ index: true, element: <TodoList /> }, { path: '*', element: <LocationProbe /> }] }],
    { initialEntries: [at] },
  );
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, fetchMock };
}

const staffNav = () => screen.getByRole('navigation', { name: 'Staff', hidden: true });

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('StaffShell', () => {
  it('lists every staff page and marks the current one, also below it (an order marks Orders)', () => {
    renderShell('/admin/orders/o-1');
    const nav = staffNav();
    const names = within(nav)
      .getAllByRole('link', { hidden: true })
      .map((link) => link.textContent.replace(/\s*\d+.*$/, ''));
    expect(names).toEqual(['Dashboard', 'Orders', 'Invoices', 'Subscriptions', 'Customers', 'Products', 'Enterprise', 'WireWrite', 'Mail', 'Enquiries', 'Audit log']);
    const current = within(nav).getAllByRole('link', { hidden: true }).filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current).toHaveLength(1);
    expect(current[0]).toHaveAttribute('href', '/admin/orders');
  });

  it('marks the dashboard only on the dashboard', () => {
    renderShell('/admin');
    const dashboard = within(staffNav()).getByRole('link', { name: 'Dashboard', hidden: true });
    expect(dashboard).toHaveAttribute('aria-current', 'page');
  });

  it('shows the counts with their names, and nothing for 0', async () => {
    renderShell('/admin/audit');
    const nav = staffNav();
    expect(await within(nav).findByRole('link', { name: 'Orders 3 to ship', hidden: true })).toHaveAttribute('href', '/admin/orders');
    expect(within(nav).getByRole('link', { name: 'Mail 1 failed', hidden: true })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Enquiries', hidden: true })).toHaveTextContent(/^Enquiries$/);
  });

  it('reloads the counts on a route change', async () => {
    const { router, fetchMock } = renderShell('/admin/audit');
    await within(staffNav()).findByRole('link', { name: 'Orders 3 to ship', hidden: true });
    expect(callsTo(fetchMock, 'GET', '/api/v1/admin/todo')).toHaveLength(1);
    await act(() => router.navigate('/admin/orders'));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/admin/todo')).toHaveLength(2));
  });

  it('folds behind the menu button: it opens and closes, Escape closes and focus returns', async () => {
    const user = userEvent.setup();
    renderShell('/admin/audit');
    const button = screen.getByRole('button', { name: 'Staff menu' });
    const nav = staffNav();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', nav.id);
    expect(nav).toHaveClass('hidden');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(nav).not.toHaveClass('hidden');
    within(nav).getByRole('link', { name: 'Products' }).focus();
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
    await user.click(button);
    await user.click(within(nav).getByRole('link', { name: 'Products' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/products');
  });
});

describe('TodoList', () => {
  it('links each waiting count to its filtered list', async () => {
    renderShell('/admin', { orders_to_ship: 3, enquiries_open: 2, mail_failed: 1, payments_to_return: 1 });
    const list = await screen.findByRole('region', { name: 'To do' });
    expect(within(list).getByRole('link', { name: '1 payment to return' })).toHaveAttribute('href', '/admin/orders?payment_to_return=true');
    expect(within(list).getByRole('link', { name: '3 orders to ship' })).toHaveAttribute('href', '/admin/orders?to_ship=true');
    expect(within(list).getByRole('link', { name: '2 enquiries not handled' })).toHaveAttribute('href', '/admin/enquiries?handled=false');
    expect(within(list).getByRole('link', { name: '1 failed mail' })).toHaveAttribute('href', '/admin/mail?status=failed');
  });

  it('says when nothing waits', async () => {
    renderShell('/admin', { orders_to_ship: 0, enquiries_open: 0, mail_failed: 0, payments_to_return: 0 });
    const list = await screen.findByRole('region', { name: 'To do' });
    expect(within(list).getByText('Nothing waiting.')).toBeInTheDocument();
    expect(within(list).queryByRole('link')).not.toBeInTheDocument();
  });

  it('counts in the right number', () => {
    expect(todoText('orders_to_ship', 1)).toBe('1 order to ship');
    expect(todoText('enquiries_open', 1)).toBe('1 enquiry not handled');
    expect(todoText('enquiries_open', 5)).toBe('5 enquiries not handled');
    expect(todoText('mail_failed', 2)).toBe('2 failed mails');
    expect(todoText('payments_to_return', 2)).toBe('2 payments to return');
    expect(todoText('orders_to_ship', 1200)).toBe('1,200 orders to ship');
  });
});
