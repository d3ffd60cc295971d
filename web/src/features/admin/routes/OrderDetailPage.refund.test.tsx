// The Refund dialog of the order page, by role and name: an amount only (prefilled with what is
// left) or chosen lines (the amount their total, lower allowed), the items back to stock only with
// lines, a confirmation that says what will happen, and the server's field errors beside fields.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { OrderDetail } from '../api/schemas';
import { callsTo, jsonResponse, mockApi, orderDetail, orderItem } from '../testing';
import { OrderDetailPage } from './OrderDetailPage';

const REFUNDS = '/api/v1/admin/orders/order-1/refunds';

const TWO_LINES = orderDetail({
  total_amount: 30700,
  items: [orderItem(), orderItem({ id: 'item-2', product_id: 'prod-3', product_name: 'USB to RS-232 Serial Cable', quantity: 1, unit_amount: 4900 })],
});

function renderPage() {
  return renderRoute(<OrderDetailPage />, { path: '/admin/orders/:id', initialEntry: '/admin/orders/order-1' });
}

function serve(order: OrderDetail, refund: (body: unknown) => Response) {
  let current = order;
  return mockApi(async (url, init) => {
    if (url.pathname === REFUNDS && init?.method === 'POST') {
      const answer = refund(JSON.parse(init.body as string));
      if (answer.ok) current = ((await answer.clone().json()) as { order: OrderDetail }).order;
      return answer;
    }
    if (url.pathname === '/api/v1/admin/orders/order-1') return jsonResponse(200, { order: current });
    return jsonResponse(404, { code: 'not_found', message: 'Not found' });
  });
}

async function openRefund(user: ReturnType<typeof userEvent.setup>) {
  await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Refund' }));
  return screen.getByRole('dialog', { name: 'Refund order SC-7KQ2-M9XD' });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('OrderDetailPage refunds', () => {
  it('refunds an amount of what is left, with no lines and no stock, after its confirmation, and lists the refund', async () => {
    const refunded = orderDetail({
      refunded_amount: 5800,
      refunds: [
        { id: 'refund-1', amount: 5000, currency: 'NZD', reason: 'Scratched case', restock: false, status: 'succeeded', source: 'staff', provider_refund_id: 're_1', actor_email: 'admin@example.test', late_payment_id: null, created_at: '2025-10-03T00:00:00Z' },
      ],
    });
    const fetchMock = serve(orderDetail({ refunded_amount: 800 }), () => jsonResponse(200, { order: refunded }));
    const user = userEvent.setup();
    renderPage();
    const dialog = await openRefund(user);
    expect(dialog).toHaveAccessibleDescription('$250.00 of $258.00 can still be refunded.');
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    expect(amount).toHaveValue('250.00');
    const stock = within(dialog).getByRole('checkbox', { name: 'Return these items to stock' });
    expect(stock).toBeDisabled();
    expect(stock).toHaveAccessibleDescription('Choose the items above to return them to stock.');
    await user.clear(amount);
    await user.type(amount, '300');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('At most $250.00 can still be refunded.')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '50');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Scratched case');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    const confirm = screen.getByRole('dialog', { name: 'Confirm refund of order SC-7KQ2-M9XD' });
    expect(confirm).toHaveAccessibleDescription('Refunds $50.00 to the customer, emails the customer.');
    expect(callsTo(fetchMock, 'POST', REFUNDS)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refunded $50.00 of order SC-7KQ2-M9XD.')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, 'POST', REFUNDS);
    expect(call?.body).toEqual({ amount: 5000, reason: 'Scratched case', restock: false });
    expect(call?.headers['Idempotency-Key']).toBeTruthy();
    const row = within(screen.getByRole('table', { name: 'Refunds' })).getAllByRole('row')[1];
    expect(row).toHaveTextContent('$50.00');
    expect(row).toHaveTextContent('Scratched case');
    expect(screen.getByText('Refunded: $58.00')).toBeInTheDocument();
  });

  it('refunds a chosen line with its items back to stock: the amount is the line’s, lower allowed, and the confirmation says so', async () => {
    const fetchMock = serve(TWO_LINES, () =>
      jsonResponse(200, {
        order: { ...TWO_LINES, refunded_amount: 4900, refundable_amount: 25800, items: [TWO_LINES.items[0]!, { ...TWO_LINES.items[1]!, refunded_quantity: 1, restocked_quantity: 1 }] },
      }),
    );
    const user = userEvent.setup();
    renderPage();
    const dialog = await openRefund(user);
    const lines = within(dialog).getByRole('table', { name: 'Items to refund' });
    const bluetooth = within(lines).getByRole('combobox', { name: 'Quantity to refund: Bluetooth Serial Adapter' });
    expect(within(bluetooth).getAllByRole('option').map((o) => o.textContent)).toEqual(['0', '1', '2']);
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    expect(amount).toHaveValue('307.00');

    await user.selectOptions(bluetooth, '2');
    expect(amount).toHaveValue('258.00');
    await user.selectOptions(bluetooth, '0');
    await user.selectOptions(within(lines).getByRole('combobox', { name: 'Quantity to refund: USB to RS-232 Serial Cable' }), '1');
    expect(amount).toHaveValue('49.00');
    await user.clear(amount);
    await user.type(amount, '50');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('At most $49.00 for the chosen items.')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '49');
    const stock = within(dialog).getByRole('checkbox', { name: 'Return these items to stock' });
    expect(stock).toBeEnabled();
    await user.click(stock);
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    const confirm = screen.getByRole('dialog', { name: 'Confirm refund of order SC-7KQ2-M9XD' });
    expect(confirm).toHaveAccessibleDescription('Refunds $49.00 to the customer, returns 1 item to stock, emails the customer.');
    await user.click(within(confirm).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refunded $49.00 of order SC-7KQ2-M9XD.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', REFUNDS).map((call) => call.body)).toEqual([{ amount: 4900, restock: true, lines: [{ order_item_id: 'item-2', quantity: 1 }] }]);
    // The items table shows the line refunded and back in stock.
    const cable = within(screen.getByRole('table', { name: 'Items' })).getAllByRole('row')[2]!;
    expect(within(cable).getAllByRole('cell').map((c) => c.textContent)).toEqual(['USB to RS-232 Serial Cable', '1', '$49.00', '$49.00', '1', '1']);
  });

  it('shows the server’s line and restock errors beside their fields, and retries with the same key', async () => {
    const fetchMock = serve(TWO_LINES, () =>
      jsonResponse(422, {
        code: 'validation_failed',
        message: 'Check the refund.',
        fields: { 'lines[1]': 'This line is refunded already.', restock: 'Choose the lines to return to stock, or refund the whole of what is left.' },
      }),
    );
    const user = userEvent.setup();
    renderPage();
    const dialog = await openRefund(user);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Quantity to refund: Bluetooth Serial Adapter' }), '1');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Quantity to refund: USB to RS-232 Serial Cable' }), '1');
    expect(within(dialog).getByRole('textbox', { name: /Amount/ })).toHaveValue('178.00');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Return these items to stock' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('dialog', { name: /^Confirm refund/ })).toHaveAccessibleDescription('Refunds $178.00 to the customer, returns 2 items to stock, emails the customer.');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Refund' }));

    const form = await screen.findByRole('dialog', { name: 'Refund order SC-7KQ2-M9XD' });
    expect(within(form).getByRole('alert')).toHaveTextContent('Check the refund.');
    const cable = within(form).getByRole('combobox', { name: 'Quantity to refund: USB to RS-232 Serial Cable' });
    expect(cable).toHaveAttribute('aria-invalid', 'true');
    expect(cable).toHaveAccessibleDescription('This line is refunded already.');
    expect(within(form).getByRole('combobox', { name: 'Quantity to refund: Bluetooth Serial Adapter' })).not.toHaveAttribute('aria-invalid');
    expect(within(form).getByRole('checkbox', { name: 'Return these items to stock' })).toHaveAccessibleDescription(
      'Choose the lines to return to stock, or refund the whole of what is left.',
    );

    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', REFUNDS)).toHaveLength(2));
    const [first, second] = callsTo(fetchMock, 'POST', REFUNDS);
    expect(first?.body).toEqual({ amount: 17800, restock: true, lines: [{ order_item_id: 'item-1', quantity: 1 }, { order_item_id: 'item-2', quantity: 1 }] });
    expect(second?.headers['Idempotency-Key']).toBe(first?.headers['Idempotency-Key']);
  });

  it('offers only the units not refunded yet, and none of a line refunded in full', async () => {
    serve(orderDetail({ total_amount: 30700, refunded_amount: 17800, items: [orderItem({ refunded_quantity: 1 }), orderItem({ id: 'item-2', product_name: 'USB to RS-232 Serial Cable', quantity: 1, unit_amount: 4900, refunded_quantity: 1 })] }), () =>
      jsonResponse(500, {}),
    );
    const user = userEvent.setup();
    renderPage();
    const dialog = await openRefund(user);
    const lines = within(dialog).getByRole('table', { name: 'Items to refund' });
    expect(within(within(lines).getByRole('combobox', { name: 'Quantity to refund: Bluetooth Serial Adapter' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['0', '1']);
    expect(within(lines).queryByRole('combobox', { name: 'Quantity to refund: USB to RS-232 Serial Cable' })).not.toBeInTheDocument();
    expect(within(lines).getAllByRole('row')[2]).toHaveTextContent('All refunded');
  });
});
