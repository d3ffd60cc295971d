import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import { callsTo, jsonResponse, mockApi, orderDetail } from '../testing';
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
    expect(within(items).getAllByRole('row')[1]).toHaveTextContent('Bluetooth Serial Adapter2$129.00$258.00');
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

  it('changes the status and shows the new history entry from the answer', async () => {
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
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Status of order SC-7KQ2-M9XD' }), 'shipped');
    // Mark as shipped with neither carrier nor tracking number: only the status is sent.
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark as shipped' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/orders/order-1')[0]?.body).toEqual({ status: 'shipped' }));
    expect(await screen.findByText('Paid → Shipped')).toBeInTheDocument();
    const last = within(screen.getByRole('table', { name: 'Status History' })).getAllByRole('row').at(-1);
    expect(last).toHaveTextContent('Staff');
    expect(last).toHaveTextContent('admin@example.test');
    expect(screen.getByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Shipped.');
  });

  it('refunds part of the order through the Refund dialog, prefilled with what is left, and lists the refund', async () => {
    const refunded = orderDetail({
      refunded_amount: 5000,
      refunds: [
        {
          id: 'refund-1',
          amount: 5000,
          currency: 'NZD',
          reason: 'Scratched case',
          restock: true,
          status: 'succeeded',
          source: 'staff',
          provider_refund_id: 're_1',
          actor_email: 'admin@example.test',
          created_at: '2025-10-03T00:00:00Z',
        },
      ],
    });
    let current = orderDetail({ refunded_amount: 800 });
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/orders/order-1/refunds' && init?.method === 'POST') {
        current = refunded;
        return jsonResponse(200, { order: current });
      }
      if (url.pathname === '/api/v1/admin/orders/order-1') return jsonResponse(200, { order: current });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order SC-7KQ2-M9XD' });
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    expect(amount).toHaveValue('250.00');
    await user.clear(amount);
    await user.type(amount, '300');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(within(dialog).getByText('At most $250.00 can still be refunded.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/orders/order-1/refunds')).toHaveLength(0);
    await user.clear(amount);
    await user.type(amount, '50');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Scratched case');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Return the items to stock' }));
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    const call = callsTo(fetchMock, 'POST', '/api/v1/admin/orders/order-1/refunds')[0];
    expect(call?.body).toEqual({ amount: 5000, reason: 'Scratched case', restock: true });
    expect(call?.headers['Idempotency-Key']).toBeTruthy();
    expect(await screen.findByText('Refunded $50.00 of order SC-7KQ2-M9XD.')).toBeInTheDocument();
    const refunds = screen.getByRole('table', { name: 'Refunds' });
    expect(within(refunds).getAllByRole('row')[1]).toHaveTextContent('$50.00');
    expect(within(refunds).getAllByRole('row')[1]).toHaveTextContent('Scratched case');
    expect(screen.getByText('Refunded: $50.00')).toBeInTheDocument();
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
    expect(within(shipping).getByRole('link', { name: 'Packing slip' })).toHaveAttribute('href', '/admin/orders/order-1/packing-slip');
    expect(within(shipping).getByRole('button', { name: 'Update tracking' })).toBeInTheDocument();
  });

  it('says clearly when a payment arrived after cancellation', async () => {
    mockApi(() =>
      jsonResponse(200, {
        order: orderDetail({
          status: 'cancelled',
          paid_after_cancellation: true,
          late_payments: [{ at: '2025-10-03T00:00:00Z', amount: 25800, currency: 'NZD', provider: 'stripe', provider_reference: 'pi_123' }],
        }),
      }),
    );
    renderPage();
    const notice = await screen.findByRole('note', { name: 'Paid after cancellation' });
    expect(notice).toHaveTextContent('A payment arrived after this order was cancelled.');
    expect(screen.getByRole('heading', { name: 'Late Payments' }).parentElement).toHaveTextContent('$258.00 via stripe (pi_123)');
  });

  it('says when the order does not exist', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(() => jsonResponse(404, { code: 'not_found', message: 'Order not found' }));
    renderPage('nope');
    expect(await screen.findByText('Order not found.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Order Details' })).toBeInTheDocument();
  });
});
