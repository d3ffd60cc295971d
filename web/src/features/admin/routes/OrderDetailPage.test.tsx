import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import { callsTo, jsonResponse, mockApi, orderDetail, orderItem } from '../testing';
import { OrderDetailPage } from './OrderDetailPage';

function renderPage(id = 'order-1') {
  return renderRoute(<OrderDetailPage />, { path: '/admin/orders/:id', initialEntry: `/admin/orders/${id}` });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('OrderDetailPage', () => {
  it('shows the items and the status history (who, what, when, source), oldest first', async () => {
    mockApi((url) => (url.pathname === '/api/v1/admin/orders/order-1' ? jsonResponse(200, { order: orderDetail() }) : undefined));
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Order SC-7KQ2-M9XD' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Order Management/ })).toHaveAttribute('href', '/admin/orders');
    const items = screen.getByRole('table', { name: 'Items' });
    expect(within(items).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Product', 'Quantity', 'Unit Price', 'Total', 'Refunded', 'Returned to stock']);
    expect(within(items).getAllByRole('row')[1]).toHaveTextContent(/^Bluetooth Serial Adapter2\$129\.00\$258\.0000$/);
    const history = screen.getByRole('table', { name: 'Status History' });
    const rows = within(history).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Pending');
    expect(rows[0]).toHaveTextContent('System');
    expect(rows[1]).toHaveTextContent('Pending → Paid');
    expect(rows[1]).toHaveTextContent('Payment provider');
    expect(rows[1]).toHaveTextContent('2 Oct 2025, 12:31 am');
    expect(screen.queryByRole('note', { name: 'Paid after cancellation' })).not.toBeInTheDocument();
    // Staff open the order's tax invoice from here.
    expect(screen.getByRole('link', { name: 'Tax invoice INV-000042' })).toHaveAttribute('href', '/account/invoices/INV-000042?staff=1');
  });

  it('marks the order shipped from its actions and shows the new history entry from the answer', async () => {
    const changed = orderDetail({
      status: 'shipped',
      history: [
        ...orderDetail().history,
        { at: '2025-10-02T01:00:00Z', from_status: 'paid', to_status: 'shipped', source: 'staff', actor_email: 'admin@example.test', note: null },
      ],
    });
    let current = orderDetail();
    const fetchMock = mockApi((url, init) => {
      if (url.pathname !== '/api/v1/admin/orders/order-1') return undefined;
      if (init?.method === 'PATCH') current = changed;
      return jsonResponse(200, { order: current });
    });
    const user = userEvent.setup();
    renderPage();
    const actions = await screen.findByRole('group', { name: 'Order actions' });
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    await user.click(within(actions).getByRole('button', { name: 'Mark as shipped' }));
    // Mark as shipped with neither carrier nor tracking number: only the status is sent.
    await user.click(within(await screen.findByRole('dialog', { name: 'Mark order SC-7KQ2-M9XD as shipped' })).getByRole('button', { name: 'Mark as shipped' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/orders/order-1')[0]?.body).toEqual({ status: 'shipped' }));
    expect(await screen.findByText('Paid → Shipped')).toBeInTheDocument();
    const last = within(screen.getByRole('table', { name: 'Status History' })).getAllByRole('row').at(-1);
    expect(last).toHaveTextContent('Staff');
    expect(last).toHaveTextContent('admin@example.test');
    expect(screen.getByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Shipped.');
    // A shipped order can only be completed now (and refunded).
    expect(within(screen.getByRole('group', { name: 'Order actions' })).getAllByRole('button').map((b) => b.textContent)).toEqual(['Mark as completed', 'Refund']);
  });

  it('shows the refunded and returned-to-stock units of each line', async () => {
    mockApi(() =>
      jsonResponse(200, {
        order: orderDetail({
          total_amount: 30700,
          refunded_amount: 12900,
          items: [orderItem({ refunded_quantity: 1, restocked_quantity: 1 }), orderItem({ id: 'item-2', product_name: 'USB to RS-232 Serial Cable', quantity: 1, unit_amount: 4900 })],
        }),
      }),
    );
    renderPage();
    const rows = within(await screen.findByRole('table', { name: 'Items' })).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Bluetooth Serial Adapter', '2', '$129.00', '$258.00', '1', '1']);
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['USB to RS-232 Serial Cable', '1', '$49.00', '$49.00', '0', '0']);
  });

  it('shows a Disputed badge and no Refund button once everything is refunded', async () => {
    mockApi((url) =>
      url.pathname === '/api/v1/admin/orders/order-1'
        ? jsonResponse(200, { order: orderDetail({ status: 'refunded', refunded_amount: 25800, disputed: true }) })
        : undefined,
    );
    renderPage();
    expect(await screen.findByText('Disputed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
  });

  it('shows the shipping address snapshot, the tracking and a packing slip link', async () => {
    mockApi(() =>
      jsonResponse(200, {
        order: orderDetail({
          status: 'shipped',
          shipping_address: { name: 'Aroha Ngāti', line1: '12 Kauri Street', line2: null, city: 'Wellington', state: null, postal_code: '6011', country: 'NZ', phone: '021 555 0101' },
          carrier: 'NZ Post',
          tracking_number: 'LY123456789NZ',
          shipped_at: '2025-10-02T01:00:00Z',
        }),
      }),
    );
    renderPage();
    const shipping = await screen.findByRole('region', { name: 'Shipping' });
    expect(within(shipping).getByText('Aroha Ngāti')).toBeInTheDocument();
    expect(within(shipping).getByText('Wellington 6011')).toBeInTheDocument();
    expect(within(shipping).getByText('New Zealand')).toBeInTheDocument();
    expect(shipping).toHaveTextContent('Phone: 021 555 0101');
    expect(shipping).toHaveTextContent('Carrier: NZ Post');
    expect(shipping).toHaveTextContent('Tracking number: LY123456789NZ');
    expect(within(shipping).getByRole('link', { name: 'LY123456789NZ' })).toHaveAttribute('href', 'https://www.nzpost.co.nz/tools/tracking?trackid=LY123456789NZ');
    // The customer opens to their page.
    expect(within(screen.getByRole('region', { name: 'Summary' })).getByRole('link', { name: 'ana@example.co.nz' })).toHaveAttribute(
      'href',
      '/admin/customers/0193a000-1111-7000-8000-0000000000aa',
    );
    expect(within(shipping).getByRole('link', { name: 'Packing slip' })).toHaveAttribute('href', '/admin/orders/order-1/packing-slip');
    expect(within(shipping).getByRole('button', { name: 'Update tracking' })).toBeInTheDocument();
  });

  it('says clearly when a payment arrived after cancellation', async () => {
    mockApi(() =>
      jsonResponse(200, {
        order: orderDetail({
          status: 'cancelled',
          paid_after_cancellation: true,
          late_payments: [
            { id: 'late-1', at: '2025-10-03T00:00:00Z', amount: 25800, currency: 'NZD', provider: 'stripe', provider_reference: 'pi_123', reason: 'after_cancellation', returned_amount: 0 },
          ],
        }),
      }),
    );
    renderPage();
    const notice = await screen.findByRole('note', { name: 'Paid after cancellation' });
    expect(notice).toHaveTextContent('A payment arrived after this order was cancelled.');
    expect(screen.getByRole('heading', { name: 'Late Payments' }).parentElement).toHaveTextContent('$258.00 via stripe (pi_123)');
  });

  it('says when an order was paid twice and returns the second payment after saying what that does', async () => {
    const twice = {
      payment_to_return: true,
      late_payments: [
        { id: 'late-2', at: '2025-10-03T00:00:00Z', amount: 25800, currency: 'NZD', provider: 'stripe', provider_reference: 'pi_9', reason: 'already_paid', returned_amount: 0 },
      ],
    };
    const returned = orderDetail({ ...twice, payment_to_return: false, late_payments: [{ ...twice.late_payments[0]!, returned_amount: 25800 }] });
    let done = false;
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/orders/order-1/refunds' && init?.method === 'POST') {
        done = true;
        return jsonResponse(200, { order: returned });
      }
      if (url.pathname === '/api/v1/admin/orders/order-1') return jsonResponse(200, { order: done ? returned : orderDetail(twice) });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    const notice = await screen.findByRole('note', { name: 'Paid twice' });
    expect(notice).toHaveTextContent('A payment arrived for this order after it had been paid another way.');
    expect(screen.queryByRole('note', { name: 'Paid after cancellation' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Return payment' }));
    const dialog = screen.getByRole('dialog', { name: 'Return payment' });
    expect(dialog).toHaveTextContent('Return $258.00 to the customer through stripe? The order stays paid, and no credit note is issued.');
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/orders/order-1/refunds')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Return payment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = callsTo(fetchMock, 'POST', '/api/v1/admin/orders/order-1/refunds');
    expect(call?.body).toEqual({ amount: 25800, restock: false, reason: 'Paid twice', late_payment_id: 'late-2' });
    expect(call?.headers['Idempotency-Key']).toBeTruthy();
    expect(await screen.findByText(/\$258\.00 returned/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Return payment' })).not.toBeInTheDocument();
  });

  it('says when the order does not exist', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(() => jsonResponse(404, { code: 'not_found', message: 'Order not found' }));
    renderPage('nope');
    expect(await screen.findByText('Order not found.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Order Details' })).toBeInTheDocument();
  });
});
