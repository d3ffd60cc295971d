import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { OrderRow } from '../api/schemas';
import { callsTo, jsonResponse, mockApi, orderDetail, orderRow, page } from '../testing';
import { OrderManagementPage } from './OrderManagementPage';

function renderPage() {
  return renderRoute(<OrderManagementPage />, { path: '/admin/orders', initialEntry: '/admin/orders' });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('OrderManagementPage', () => {
  it('shows Order #, Customer (Guest without a user), Amount in NZD, Status, Date and only the safe actions each order allows', async () => {
    mockApi(() =>
      jsonResponse(
        200,
        page([
          orderRow(),
          orderRow({ id: 'order-2', order_number: 'SC-GUES-T001', user_id: null, customer_email: 'guest@example.test', status: 'completed', total_amount: 4900, currency: 'NZD' }),
          orderRow({ id: 'order-3', order_number: 'SC-LATE-0001', status: 'cancelled', paid_after_cancellation: true }),
          orderRow({ id: 'order-4', order_number: 'SC-DIGI-0001', status: 'paid', has_physical_items: false }),
          orderRow({ id: 'order-5', order_number: 'SC-PEND-0001', status: 'pending' }),
        ]),
      ),
    );
    renderPage();
    const table = await screen.findByRole('table', { name: 'Orders' });
    await within(table).findByText('SC-7KQ2-M9XD');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Select', 'Order #', 'Customer', 'Amount', 'Status', 'Date', 'Actions']);
    const [first, guest, late, digital, pending] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByRole('link', { name: 'SC-7KQ2-M9XD' })).toHaveAttribute('href', '/admin/orders/order-1');
    expect(first).toHaveTextContent('ana@example.co.nz');
    expect(first).toHaveTextContent('$258.00');
    // 11:30 UTC on 1 October is 12:30 am on 2 October in New Zealand.
    expect(first).toHaveTextContent('2 Oct 2025');
    expect(guest).toHaveTextContent('Guest');
    expect(within(guest!).getByText('Completed', { selector: 'span' })).toHaveAttribute('data-tone', 'green');
    expect(late).toHaveTextContent('Paid after cancellation');
    // No free status choice anywhere: each row has its link and only what its lifecycle allows.
    expect(within(table).queryByRole('combobox')).not.toBeInTheDocument();
    const actions = (row: HTMLElement) => within(row).getAllByRole('cell').at(-1)!;
    const names = (row: HTMLElement) => within(actions(row)).queryAllByRole('button').map((el) => el.textContent);
    expect(names(first!)).toEqual(['Mark as shipped', 'Mark as completed']);
    expect(within(first!).getByRole('button', { name: 'Mark as shipped: SC-7KQ2-M9XD' })).toBeInTheDocument();
    expect(names(guest!)).toEqual([]);
    expect(names(late!)).toEqual([]);
    expect(names(digital!)).toEqual(['Mark as completed']);
    // Cancelling and marking as paid are on the order's page, behind their dialogs.
    expect(names(pending!)).toEqual([]);
    expect(within(pending!).getByRole('link', { name: 'SC-PEND-0001' })).toHaveAttribute('href', '/admin/orders/order-5');
  });

  it('marks an order completed with one click of its button, never on focus, and reloads the list', async () => {
    let rows: OrderRow[] = [orderRow({ has_physical_items: false })];
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/orders') return jsonResponse(200, page(rows));
      if (url.pathname === '/api/v1/admin/orders/order-1' && init?.method === 'PATCH') {
        const { status } = JSON.parse(init.body as string) as { status: string };
        rows = [orderRow({ status, has_physical_items: false })];
        return jsonResponse(200, { order: orderDetail({ status, has_physical_items: false }) });
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    const complete = await screen.findByRole('button', { name: 'Mark as completed: SC-7KQ2-M9XD' });
    const listCalls = callsTo(fetchMock, 'GET', '/api/v1/admin/orders').length;
    // Tabbing through the row changes nothing.
    await user.tab();
    while (document.activeElement !== complete) await user.tab();
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/orders/order-1')).toHaveLength(0);
    await user.click(complete);
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/orders/order-1').map((c) => c.body)).toEqual([{ status: 'completed' }]);
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Completed.');
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/admin/orders').length).toBeGreaterThan(listCalls));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Mark as completed: SC-7KQ2-M9XD' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('table', { name: 'Orders' })).getByText('Completed', { selector: 'span' })).toBeInTheDocument();
  });

  it('shows the server’s message in the page’s alert when a move is refused (409 invalid_transition)', async () => {
    mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/orders') return jsonResponse(200, page([orderRow()]));
      if (init?.method === 'PATCH')
        return jsonResponse(409, { code: 'invalid_transition', message: 'A cancelled order cannot be completed.', from: 'cancelled', to: 'completed', allowed: [] });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Mark as completed: SC-7KQ2-M9XD' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A cancelled order cannot be completed.');
  });

  it('marks an order shipped through a dialog with the carrier and tracking number, showing the server’s field errors', async () => {
    let rows: OrderRow[] = [orderRow()];
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/orders') return jsonResponse(200, page(rows));
      if (url.pathname === '/api/v1/admin/orders/order-1' && init?.method === 'PATCH') {
        const body = JSON.parse(init.body as string) as { status: string; carrier?: string; tracking_number?: string };
        if (body.tracking_number === 'bad') {
          return jsonResponse(422, { code: 'validation_failed', message: 'Check the fields', fields: { tracking_number: 'Must be at most 60 characters.' } });
        }
        rows = [orderRow({ status: body.status })];
        return jsonResponse(200, { order: orderDetail({ status: body.status, carrier: body.carrier ?? null, tracking_number: body.tracking_number ?? null }) });
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Mark as shipped: SC-7KQ2-M9XD' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark order SC-7KQ2-M9XD as shipped' });
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/orders/order-1')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: 'Carrier (optional)' }), 'NZ Post');
    const tracking = within(dialog).getByRole('textbox', { name: 'Tracking number (optional)' });
    await user.type(tracking, 'bad');
    await user.click(within(dialog).getByRole('button', { name: 'Mark as shipped' }));
    expect(await within(dialog).findByText('Must be at most 60 characters.')).toBeInTheDocument();
    expect(tracking).toHaveAttribute('aria-invalid', 'true');
    await user.clear(tracking);
    await user.type(tracking, ' LY123456789NZ ');
    await user.click(within(dialog).getByRole('button', { name: 'Mark as shipped' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/orders/order-1').at(-1)?.body).toEqual({ status: 'shipped', carrier: 'NZ Post', tracking_number: 'LY123456789NZ' });
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Shipped.');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Mark as shipped: SC-7KQ2-M9XD' })).not.toBeInTheDocument());
  });

  it('leaves the order alone when the ship dialog is cancelled', async () => {
    const fetchMock = mockApi((url) => (url.pathname === '/api/v1/admin/orders' ? jsonResponse(200, page([orderRow()])) : undefined));
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Mark as shipped: SC-7KQ2-M9XD' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/orders/order-1')).toHaveLength(0);
    expect(within(screen.getByRole('table', { name: 'Orders' })).getByText('Paid', { selector: 'span' })).toBeInTheDocument();
  });

  it('closes the ship dialog and says why in the page’s alert when the order moved meanwhile', async () => {
    mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/orders') return jsonResponse(200, page([orderRow()]));
      if (init?.method === 'PATCH')
        return jsonResponse(409, { code: 'invalid_transition', message: 'The order is cancelled: it cannot ship.', from: 'cancelled', to: 'shipped', allowed: [] });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Mark as shipped: SC-7KQ2-M9XD' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark as shipped' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The order is cancelled: it cannot ship.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('filters on the server, including paid after cancellation, and says the empty text', async () => {
    const fetchMock = mockApi((url) => jsonResponse(200, url.searchParams.get('status') ? page([]) : page([orderRow()])));
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('SC-7KQ2-M9XD');
    const filters = screen.getByRole('group', { name: 'Filter by status' });
    expect(within(filters).getAllByRole('button').map((b) => b.textContent)).toEqual(['All', 'Pending', 'Paid', 'Shipped', 'Completed', 'Cancelled', 'Refunded', 'Paid after cancellation']);
    await user.click(within(filters).getByRole('button', { name: 'Paid after cancellation' }));
    expect(await screen.findByRole('cell', { name: 'No orders found' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/v1/admin/orders').at(-1)?.url.searchParams.get('status')).toBe('paid_after_cancellation');
    await user.type(screen.getByRole('searchbox', { name: 'Search orders' }), 'SC-7KQ2{Enter}');
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/admin/orders').at(-1)?.url.searchParams.get('q')).toBe('SC-7KQ2'));
  });

  it('marks disputed orders and filters on them', async () => {
    const fetchMock = mockApi((url) =>
      jsonResponse(200, url.searchParams.get('disputed') === 'true' ? page([orderRow({ disputed: true })]) : page([orderRow(), orderRow({ id: 'order-2', order_number: 'SC-DISP-0001', disputed: true })])),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('SC-DISP-0001');
    expect(screen.getAllByText('Disputed')).toHaveLength(1);
    await user.click(screen.getByRole('checkbox', { name: 'Disputed only' }));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/admin/orders').at(-1)?.url.searchParams.get('disputed')).toBe('true'));
    await waitFor(() => expect(screen.queryByText('SC-DISP-0001')).not.toBeInTheDocument());
  });

  it('marks orders whose payment was of another amount and filters on them', async () => {
    const fetchMock = mockApi((url) =>
      jsonResponse(
        200,
        url.searchParams.get('amount_mismatch') === 'true'
          ? page([orderRow({ amount_mismatch: true })])
          : page([orderRow(), orderRow({ id: 'order-3', order_number: 'SC-MISM-0001', status: 'pending', amount_mismatch: true })]),
      ),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('SC-MISM-0001');
    expect(screen.getAllByText('Amount mismatch')).toHaveLength(1);
    await user.click(screen.getByRole('checkbox', { name: 'Amount mismatches only' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'GET', '/api/v1/admin/orders').at(-1)?.url.searchParams.get('amount_mismatch')).toBe('true'),
    );
    await waitFor(() => expect(screen.queryByText('SC-MISM-0001')).not.toBeInTheDocument());
  });

  it('marks the selected orders as shipped in one go and says which did not ship and why', async () => {
    let rows: OrderRow[] = [
      orderRow(),
      orderRow({ id: 'order-2', order_number: 'SC-PEND-0002', status: 'pending' }),
      orderRow({ id: 'order-3', order_number: 'SC-PAID-0003' }),
    ];
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/orders') return jsonResponse(200, page(rows));
      if (url.pathname === '/api/v1/admin/orders/bulk-ship' && init?.method === 'POST') {
        rows = rows.map((row) => (row.id === 'order-1' ? orderRow({ status: 'shipped' }) : row));
        return jsonResponse(200, {
          shipped: 1,
          failed: 1,
          results: [
            { id: 'order-1', order_number: 'SC-7KQ2-M9XD', ok: true },
            { id: 'order-2', order_number: 'SC-PEND-0002', ok: false, code: 'order_not_paid', message: 'Not paid: cannot ship.' },
          ],
        });
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    const table = await screen.findByRole('table', { name: 'Orders' });
    await within(table).findByText('SC-7KQ2-M9XD');
    const bulk = screen.getByRole('form', { name: 'Bulk shipping' });
    const ship = within(bulk).getByRole('button', { name: 'Mark as shipped' });
    expect(ship).toBeDisabled();

    await user.click(within(bulk).getByRole('checkbox', { name: 'Select all on this page' }));
    expect(within(bulk).getByText('3 selected')).toBeInTheDocument();
    await user.click(within(table).getByRole('checkbox', { name: 'Select order SC-PAID-0003' }));
    expect(within(bulk).getByText('2 selected')).toBeInTheDocument();
    expect(within(bulk).getByRole('checkbox', { name: 'Select all on this page' })).not.toBeChecked();
    await user.type(within(bulk).getByRole('textbox', { name: 'Carrier (optional)' }), ' NZ Post ');
    await user.click(ship);

    const result = await screen.findByRole('region', { name: 'Bulk shipping result' });
    expect(result).toHaveTextContent('1 shipped, 1 not shipped');
    expect(result).toHaveTextContent('Shipped: SC-7KQ2-M9XD');
    expect(result).toHaveTextContent('SC-PEND-0002: Not paid: cannot ship.');
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/orders/bulk-ship').map((c) => c.body)).toEqual([
      { order_ids: ['order-1', 'order-2'], carrier: 'NZ Post' },
    ]);
    // The list reloads, and the selection is cleared.
    const shippedRow = () => within(table).getAllByRole('row').find((row) => within(row).queryByText('SC-7KQ2-M9XD'))!;
    await waitFor(() => expect(within(shippedRow()).getByText('Shipped', { selector: 'span' })).toBeInTheDocument());
    expect(within(bulk).getByText('0 selected')).toBeInTheDocument();
    await user.click(within(result).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Bulk shipping result' })).not.toBeInTheDocument();
  });

  it("exports the list as CSV with the address's filters", async () => {
    URL.createObjectURL = () => 'blob:orders';
    URL.revokeObjectURL = () => undefined;
    const clicked: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    };
    const fetchMock = mockApi((url) => {
      if (url.pathname === '/api/v1/admin/orders') return jsonResponse(200, page([orderRow()]));
      if (url.pathname === '/api/v1/admin/orders/export.csv')
        return new Response('order_number\r\n', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="orders-2026-11-27.csv"' } });
      return undefined;
    });
    const user = userEvent.setup();
    renderRoute(<OrderManagementPage />, { path: '/admin/orders', initialEntry: '/admin/orders?status=paid&q=ana&page=2' });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual(['orders-2026-11-27.csv']));
    HTMLAnchorElement.prototype.click = click;
    const [call] = callsTo(fetchMock, 'GET', '/api/v1/admin/orders/export.csv');
    expect(Object.fromEntries(call!.url.searchParams)).toEqual({ status: 'paid', q: 'ana' });
  });

  it('filters to the orders to ship, from the address (the dashboard link) and the checkbox', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, page([orderRow()])));
    const user = userEvent.setup();
    renderRoute(<OrderManagementPage />, { path: '/admin/orders', initialEntry: '/admin/orders?to_ship=true' });
    const toShip = await screen.findByRole('checkbox', { name: 'To ship only' });
    expect(toShip).toBeChecked();
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/admin/orders').at(-1)?.url.searchParams.get('to_ship')).toBe('true'));
    await user.click(toShip);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/admin/orders').at(-1)?.url.searchParams.get('to_ship')).toBeNull());
  });

  it('links a customer with an account to their page', async () => {
    mockApi(() => jsonResponse(200, page([orderRow(), orderRow({ id: 'order-2', order_number: 'SC-GUEST-1', user_id: null })])));
    renderPage();
    expect(await screen.findByRole('link', { name: 'ana@example.co.nz' })).toHaveAttribute('href', '/admin/customers/0193a000-1111-7000-8000-0000000000aa');
    expect(screen.getByText('Guest').closest('a')).toBeNull();
  });
});
