// The order page's actions, driven by role and name: only what each status allows (from the
// server's allowed_statuses, cancellable and refundable_amount), and each change behind its
// button and, where it cannot be undone, a dialog that says what it will do.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { OrderDetail } from '../api/schemas';
import { callsTo, jsonResponse, mockApi, orderDetail, orderItem } from '../testing';
import { OrderDetailPage } from './OrderDetailPage';

const ORDER = '/api/v1/admin/orders/order-1';
const ADDRESS = { name: 'Aroha Ngāti', line1: '12 Kauri Street', line2: null, city: 'Wellington', state: null, postal_code: '6011', country: 'NZ', phone: null };
const REQUIRED = 'This field is required.';

function renderPage() {
  return renderRoute(<OrderDetailPage />, { path: '/admin/orders/:id', initialEntry: '/admin/orders/order-1' });
}

/** Answers the order page with `order`, and each write with what `write` makes of it (a 200's order is the order from then on). */
function serve(order: OrderDetail, write: (url: URL, body: unknown) => Response | undefined = () => undefined) {
  let current = order;
  return mockApi(async (url, init) => {
    const missing = jsonResponse(404, { code: 'not_found', message: 'Not found' });
    if (!url.pathname.startsWith(ORDER)) return missing;
    if ((init?.method ?? 'GET') === 'GET') return jsonResponse(200, { order: current });
    const answer = write(url, typeof init?.body === 'string' ? JSON.parse(init.body) : undefined);
    if (!answer) return missing;
    if (answer.ok) current = ((await answer.clone().json()) as { order: OrderDetail }).order;
    return answer;
  });
}

async function actionNames() {
  const group = await screen.findByRole('group', { name: 'Order actions' });
  return within(group).getAllByRole('button').map((button) => button.textContent);
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('OrderDetailPage actions', () => {
  it.each([
    ['pending', orderDetail({ status: 'pending' }), ['Mark as paid', 'Cancel order']],
    ['paid with a physical item', orderDetail({ status: 'paid' }), ['Mark as shipped', 'Mark as completed', 'Refund', 'Cancel order']],
    ['paid, digital only', orderDetail({ status: 'paid', has_physical_items: false }), ['Mark as completed', 'Refund', 'Cancel order']],
    ['paid by bank transfer (not cancellable)', orderDetail({ status: 'paid', cancellable: false }), ['Mark as shipped', 'Mark as completed', 'Refund']],
    ['shipped', orderDetail({ status: 'shipped' }), ['Mark as completed', 'Refund']],
    ['cancelled, paid after cancellation', orderDetail({ status: 'cancelled', paid_after_cancellation: true }), ['Reinstate', 'Refund']],
    ['completed', orderDetail({ status: 'completed' }), ['Refund']],
  ])('offers only what a %s order allows', async (_, order, expected) => {
    serve(order);
    renderPage();
    expect(await actionNames()).toEqual(expected);
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('has no actions for a cancelled order with nothing to refund', async () => {
    serve(orderDetail({ status: 'cancelled' }));
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Order SC-7KQ2-M9XD' });
    expect(screen.queryByRole('group', { name: 'Order actions' })).not.toBeInTheDocument();
  });

  it('cancels a paid order with a reason, saying exactly what will happen, stock clause only when ticked', async () => {
    const order = orderDetail({
      total_amount: 30700,
      refunded_amount: 20900,
      refundable_amount: 9800,
      items: [orderItem(), orderItem({ id: 'item-2', product_name: 'USB to RS-232 Serial Cable', quantity: 1, unit_amount: 4900, refunded_quantity: 1, restocked_quantity: 1 })],
    });
    const fetchMock = serve(order, (url) =>
      url.pathname === `${ORDER}/cancel` ? jsonResponse(200, { order: { ...order, status: 'cancelled', allowed_statuses: [], cancellable: false, refundable_amount: 0 } }) : undefined,
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Cancel order' }));
    let dialog = screen.getByRole('dialog', { name: 'Cancel order SC-7KQ2-M9XD' });
    const stock = within(dialog).getByRole('checkbox', { name: 'Return the items to stock' });
    expect(stock).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(expect.stringContaining('Give the reason for cancelling the order.'));
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), ' Customer changed their mind ');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    let confirm = screen.getByRole('dialog', { name: 'Confirm cancellation of order SC-7KQ2-M9XD' });
    expect(confirm).toHaveAccessibleDescription('Refunds $98.00 to the customer, returns 2 items to stock, emails the customer.');
    await user.click(within(confirm).getByRole('button', { name: 'Back' }));
    dialog = screen.getByRole('dialog', { name: 'Cancel order SC-7KQ2-M9XD' });
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveValue(' Customer changed their mind ');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Return the items to stock' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    confirm = screen.getByRole('dialog', { name: 'Confirm cancellation of order SC-7KQ2-M9XD' });
    expect(confirm).toHaveAccessibleDescription('Refunds $98.00 to the customer, emails the customer.');
    await user.click(within(confirm).getByRole('button', { name: 'Back' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('checkbox', { name: 'Return the items to stock' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Continue' }));
    expect(callsTo(fetchMock, 'POST', `${ORDER}/cancel`)).toHaveLength(0);

    await user.click(within(screen.getByRole('dialog', { name: /^Confirm cancellation/ })).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Cancelled.');
    expect(callsTo(fetchMock, 'POST', `${ORDER}/cancel`).map((call) => call.body)).toEqual([{ reason: 'Customer changed their mind', restock: true }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Order actions' })).not.toBeInTheDocument();
  });

  it('keeps the cancel dialog open with the provider’s failure, and sends a refused move to the page’s alert', async () => {
    let answer = jsonResponse(502, { code: 'payment_provider_error', message: 'The payment provider did not answer: nothing was changed.' });
    serve(orderDetail(), (url) => (url.pathname === `${ORDER}/cancel` ? answer : undefined));
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Cancel order' }));
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Duplicate order');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order SC-7KQ2-M9XD' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The payment provider did not answer: nothing was changed.');

    answer = jsonResponse(409, { code: 'invalid_transition', message: 'The order is already cancelled.', from: 'cancelled', to: 'cancelled', allowed: [] });
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent('The order is already cancelled.');
  });

  it('cancels an unpaid order after a confirmation that says what it does', async () => {
    const order = orderDetail({ status: 'pending' });
    const fetchMock = serve(order, (url, body) =>
      url.pathname === ORDER ? jsonResponse(200, { order: orderDetail({ status: (body as { status: string }).status }) }) : undefined,
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Cancel order' }));
    const confirm = screen.getByRole('dialog', { name: 'Cancel order SC-7KQ2-M9XD' });
    expect(confirm).toHaveAccessibleDescription('Cancels the order, returns its items to stock and closes its checkout.');
    // Focus starts on the safe choice.
    expect(within(confirm).getByRole('button', { name: 'Keep the order' })).toHaveFocus();
    expect(callsTo(fetchMock, 'PATCH', ORDER)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Cancelled.');
    expect(callsTo(fetchMock, 'PATCH', ORDER).map((call) => call.body)).toEqual([{ status: 'cancelled' }]);
  });

  it('marks an unpaid order as paid only with a payment reference, showing the server’s field error', async () => {
    // Its address came with the checkout: the dialog asks only for the reference.
    const fetchMock = serve(orderDetail({ status: 'pending', shipping_address: ADDRESS }), (url, body) => {
      if (url.pathname !== ORDER) return undefined;
      const { payment_reference } = body as { payment_reference?: string };
      if (payment_reference === 'x')
        return jsonResponse(422, { code: 'validation_failed', message: 'Check the fields', fields: { payment_reference: 'Enter the payment’s reference, such as the bank transfer’s.' } });
      return jsonResponse(200, { order: orderDetail({ status: 'paid', cancellable: false }) });
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Mark as paid' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order SC-7KQ2-M9XD as paid' });
    expect(dialog).toHaveAccessibleDescription('Records a payment received outside the payment provider, issues the tax invoice and emails the customer.');
    const reference = within(dialog).getByRole('textbox', { name: /Payment reference/ });
    expect(reference).toHaveFocus();
    expect(within(dialog).queryByRole('group', { name: 'Shipping address' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    expect(reference).toHaveAccessibleDescription(expect.stringContaining('Enter the payment reference, e.g. the bank transfer reference.'));
    expect(callsTo(fetchMock, 'PATCH', ORDER)).toHaveLength(0);

    await user.type(reference, 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    expect(await within(dialog).findByText('Enter the payment’s reference, such as the bank transfer’s.')).toBeInTheDocument();
    expect(reference).toHaveAttribute('aria-invalid', 'true');

    await user.clear(reference);
    await user.type(reference, ' ANZ 12-3456 SC-7KQ2 ');
    await user.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Paid.');
    expect(callsTo(fetchMock, 'PATCH', ORDER).map((call) => call.body)).toEqual([
      { status: 'paid', payment_reference: 'x' },
      { status: 'paid', payment_reference: 'ANZ 12-3456 SC-7KQ2' },
    ]);
    expect(await actionNames()).toEqual(['Mark as shipped', 'Mark as completed', 'Refund']);
  });

  it('asks for the shipping address when marking goods with no address as paid, checks it, and sends it', async () => {
    const fetchMock = serve(orderDetail({ status: 'pending' }), (url) =>
      url.pathname === ORDER ? jsonResponse(200, { order: orderDetail({ status: 'paid', cancellable: false, shipping_address: { ...ADDRESS, line2: 'Flat 2' } }) }) : undefined,
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Mark as paid' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order SC-7KQ2-M9XD as paid' });
    const address = within(dialog).getByRole('group', { name: 'Shipping address' });
    expect(address).toHaveAccessibleDescription('This order has goods to send and no address yet: enter where they go.');
    await user.type(within(dialog).getByRole('textbox', { name: /Payment reference/ }), 'ANZ 12-3456');

    // Nothing is sent while a required member is empty; each says so beside itself, the optional ones do not.
    await user.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    for (const label of [/^Name/, /^Address line 1/, /^City/, /^Postcode/]) {
      const field = within(address).getByRole('textbox', { name: label });
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(REQUIRED);
    }
    for (const label of ['Address line 2 (optional)', 'State (optional)', 'Phone (optional)']) {
      expect(within(address).getByRole('textbox', { name: label })).not.toHaveAttribute('aria-invalid');
    }
    expect(callsTo(fetchMock, 'PATCH', ORDER)).toHaveLength(0);

    await user.type(within(address).getByRole('textbox', { name: /^Name/ }), ' Aroha Ngāti ');
    await user.type(within(address).getByRole('textbox', { name: /^Address line 1/ }), '12 Kauri Street');
    await user.type(within(address).getByRole('textbox', { name: 'Address line 2 (optional)' }), 'Flat 2');
    await user.type(within(address).getByRole('textbox', { name: /^City/ }), 'Wellington');
    await user.type(within(address).getByRole('textbox', { name: /^Postcode/ }), '6011');
    expect(within(address).getByRole('combobox', { name: 'Country' })).toHaveDisplayValue('New Zealand');
    await user.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Paid.');
    expect(callsTo(fetchMock, 'PATCH', ORDER).map((call) => call.body)).toEqual([
      { status: 'paid', payment_reference: 'ANZ 12-3456', shipping_address: { ...ADDRESS, line2: 'Flat 2' } },
    ]);
    expect(within(screen.getByRole('region', { name: 'Shipping' })).getByText('Flat 2')).toBeInTheDocument();
  });

  it('does not ask a digital order for a shipping address', async () => {
    const fetchMock = serve(orderDetail({ status: 'pending', has_physical_items: false }), (url) =>
      url.pathname === ORDER ? jsonResponse(200, { order: orderDetail({ status: 'paid', has_physical_items: false, cancellable: false }) }) : undefined,
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Mark as paid' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order SC-7KQ2-M9XD as paid' });
    expect(within(dialog).queryByRole('group', { name: 'Shipping address' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /Payment reference/ }), 'ANZ 12-3456');
    await user.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Paid.');
    expect(callsTo(fetchMock, 'PATCH', ORDER).map((call) => call.body)).toEqual([{ status: 'paid', payment_reference: 'ANZ 12-3456' }]);
  });

  it('shows the server’s error for an address member beside its field, and for the whole address in the dialog', async () => {
    let answer = jsonResponse(422, { code: 'validation_failed', message: 'Check the fields', fields: { 'shipping_address.postal_code': 'A New Zealand postcode is four digits.' } });
    const fetchMock = serve(orderDetail({ status: 'pending' }), (url) => (url.pathname === ORDER ? answer : undefined));
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Mark as paid' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order SC-7KQ2-M9XD as paid' });
    const address = within(dialog).getByRole('group', { name: 'Shipping address' });
    await user.type(within(dialog).getByRole('textbox', { name: /Payment reference/ }), 'ANZ 12-3456');
    await user.type(within(address).getByRole('textbox', { name: /^Name/ }), 'Aroha Ngāti');
    await user.type(within(address).getByRole('textbox', { name: /^Address line 1/ }), '12 Kauri Street');
    await user.type(within(address).getByRole('textbox', { name: /^City/ }), 'Wellington');
    await user.type(within(address).getByRole('textbox', { name: /^Postcode/ }), '60111');
    await user.selectOptions(within(address).getByRole('combobox', { name: 'Country' }), 'Australia');
    await user.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    const postcode = within(address).getByRole('textbox', { name: /^Postcode/ });
    await waitFor(() => expect(postcode).toHaveAccessibleDescription('A New Zealand postcode is four digits.'));
    expect(postcode).toHaveAttribute('aria-invalid', 'true');
    expect(postcode).toHaveValue('60111');
    expect(within(address).getByRole('textbox', { name: /^City/ })).not.toHaveAttribute('aria-invalid');
    expect(callsTo(fetchMock, 'PATCH', ORDER)[0]?.body).toMatchObject({ shipping_address: { postal_code: '60111', country: 'AU' } });

    answer = jsonResponse(422, { code: 'validation_failed', message: 'Check the fields', fields: { shipping_address: 'Enter the shipping address: this order has goods to send.' } });
    await user.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    await waitFor(() => expect(address).toHaveAccessibleDescription(expect.stringContaining('Enter the shipping address: this order has goods to send.')));
    expect(postcode).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('dialog', { name: 'Mark order SC-7KQ2-M9XD as paid' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('reinstates an order paid after its cancellation, after a confirmation', async () => {
    const fetchMock = serve(orderDetail({ status: 'cancelled', paid_after_cancellation: true }), (url) =>
      url.pathname === ORDER ? jsonResponse(200, { order: orderDetail({ status: 'paid' }) }) : undefined,
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Reinstate' }));
    const confirm = screen.getByRole('dialog', { name: 'Reinstate order SC-7KQ2-M9XD' });
    expect(confirm).toHaveAccessibleDescription('Marks the order as paid again, keeping the payment that arrived after it was cancelled.');
    await user.click(within(confirm).getByRole('button', { name: 'Reinstate' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Paid.');
    expect(callsTo(fetchMock, 'PATCH', ORDER).map((call) => call.body)).toEqual([{ status: 'paid' }]);
  });

  it('marks a shipped order completed with one click, and shows a refused move in the page’s alert', async () => {
    let answer = jsonResponse(409, { code: 'invalid_transition', message: 'A refunded order cannot be completed.', from: 'refunded', to: 'completed', allowed: [] });
    const fetchMock = serve(orderDetail({ status: 'shipped' }), (url) => (url.pathname === ORDER ? answer : undefined));
    const user = userEvent.setup();
    renderPage();
    const complete = within(await screen.findByRole('group', { name: 'Order actions' })).getByRole('button', { name: 'Mark as completed' });
    await user.click(complete);
    expect(await screen.findByRole('alert')).toHaveTextContent('A refunded order cannot be completed.');
    answer = jsonResponse(200, { order: orderDetail({ status: 'completed' }) });
    await user.click(complete);
    expect(await screen.findByRole('status')).toHaveTextContent('Order SC-7KQ2-M9XD is now Completed.');
    expect(callsTo(fetchMock, 'PATCH', ORDER).map((call) => call.body)).toEqual([{ status: 'completed' }, { status: 'completed' }]);
  });
});
