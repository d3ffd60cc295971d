// The order page's Shipping card (docs/billing.md, "Staff's address"): only an order with no
// physical line is called digital; goods with no address say so and, while the order is pending or
// paid, staff add it (or change it) in a dialog that PUTs it; a refusal goes to the page's alert.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { OrderDetail } from '../api/schemas';
import { callsTo, jsonResponse, mockApi, orderDetail } from '../testing';
import { OrderDetailPage } from './OrderDetailPage';

const ORDER = '/api/v1/admin/orders/order-1';
const PUT_ADDRESS = `${ORDER}/shipping-address`;
const ADDRESS = { name: 'Aroha Ngāti', line1: '12 Kauri Street', line2: null, city: 'Wellington', state: null, postal_code: '6011', country: 'NZ', phone: '021 555 0101' };
const REQUIRED = 'This field is required.';

function renderPage() {
  return renderRoute(<OrderDetailPage />, { path: '/admin/orders/:id', initialEntry: '/admin/orders/order-1' });
}

/** Answers the order page with `order` (GET), and the PUT with what `put` makes of its body; a 200's order is the order from then on. */
function serve(order: OrderDetail, put: (body: unknown) => { answer: Response; after?: OrderDetail } = () => ({ answer: jsonResponse(404, { code: 'not_found', message: 'Not found' }) })) {
  let current = order;
  return mockApi(async (url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === ORDER && method === 'GET') return jsonResponse(200, { order: current });
    if (url.pathname !== PUT_ADDRESS || method !== 'PUT') return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    const { answer, after } = put(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined);
    if (answer.ok) current = ((await answer.clone().json()) as { order: OrderDetail }).order;
    else if (after) current = after;
    return answer;
  });
}

async function shippingCard() {
  return screen.findByRole('region', { name: 'Shipping' });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('OrderDetailPage Shipping card', () => {
  it.each([
    ['a digital order', orderDetail({ status: 'paid', has_physical_items: false }), 'Digital order: nothing to ship.', []],
    ['unpaid goods with no address', orderDetail({ status: 'pending' }), 'No shipping address yet.', ['Add address']],
    ['paid goods with no address', orderDetail({ status: 'paid' }), 'No shipping address yet.', ['Add address']],
    ['shipped goods with no address', orderDetail({ status: 'shipped' }), 'No shipping address yet.', ['Update tracking']],
    ['paid goods with an address', orderDetail({ status: 'paid', shipping_address: ADDRESS }), 'Aroha Ngāti', ['Change address']],
    ['shipped goods with an address', orderDetail({ status: 'shipped', shipping_address: ADDRESS }), 'Aroha Ngāti', ['Update tracking']],
    ['cancelled goods with an address', orderDetail({ status: 'cancelled', shipping_address: ADDRESS }), 'Aroha Ngāti', []],
  ])('says what %s ships, offering the address only while it can change', async (_, order, text, buttons) => {
    serve(order);
    renderPage();
    const shipping = await shippingCard();
    expect(shipping).toHaveTextContent(text);
    expect(within(shipping).queryAllByRole('button').map((button) => button.textContent)).toEqual(buttons);
    if (order.has_physical_items) expect(shipping).not.toHaveTextContent(/digital/i);
  });

  it('adds the address of goods with none: required fields first, then the PUT, the banner and the address on the card', async () => {
    const saved = orderDetail({
      status: 'paid',
      shipping_address: { ...ADDRESS, state: 'NSW', postal_code: '2000', country: 'AU', city: 'Sydney' },
      history: [
        ...orderDetail().history,
        { at: '2025-10-02T01:00:00Z', from_status: null, to_status: 'paid', source: 'staff', actor_email: 'admin@example.test', note: 'Shipping address added: Aroha Ngāti, 12 Kauri Street, Sydney NSW 2000, Australia' },
      ],
    });
    const fetchMock = serve(orderDetail({ status: 'paid' }), () => ({ answer: jsonResponse(200, { order: saved }) }));
    const user = userEvent.setup();
    renderPage();
    const shipping = await shippingCard();
    expect(shipping).toHaveTextContent('No shipping address yet.');
    await user.click(within(shipping).getByRole('button', { name: 'Add address' }));
    const dialog = screen.getByRole('dialog', { name: 'Shipping address of order SC-7KQ2-M9XD' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    expect(name).toHaveFocus();
    expect(name).toHaveValue('');

    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    for (const label of [/^Name/, /^Address line 1/, /^City/, /^Postcode/]) {
      expect(within(dialog).getByRole('textbox', { name: label })).toHaveAccessibleDescription(REQUIRED);
    }
    expect(callsTo(fetchMock, 'PUT', PUT_ADDRESS)).toHaveLength(0);

    await user.type(name, 'Aroha Ngāti');
    await user.type(within(dialog).getByRole('textbox', { name: /^Address line 1/ }), '12 Kauri Street');
    await user.type(within(dialog).getByRole('textbox', { name: /^City/ }), 'Sydney');
    await user.type(within(dialog).getByRole('textbox', { name: 'State (optional)' }), 'NSW');
    await user.type(within(dialog).getByRole('textbox', { name: /^Postcode/ }), '2000');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Country' }), 'Australia');
    await user.type(within(dialog).getByRole('textbox', { name: 'Phone (optional)' }), '021 555 0101');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Shipping address of order SC-7KQ2-M9XD saved.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', PUT_ADDRESS).map((call) => call.body)).toEqual([
      { shipping_address: { name: 'Aroha Ngāti', line1: '12 Kauri Street', line2: null, city: 'Sydney', state: 'NSW', postal_code: '2000', country: 'AU', phone: '021 555 0101' } },
    ]);
    expect(within(shipping).getByText('Sydney NSW 2000')).toBeInTheDocument();
    expect(within(shipping).getByText('Australia')).toBeInTheDocument();
    expect(within(shipping).getByRole('button', { name: 'Change address' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Status History' })).toHaveTextContent('Shipping address added: Aroha Ngāti');
  });

  it('corrects an address from a prefilled form, showing the server’s error for a member beside its field', async () => {
    let answer = jsonResponse(422, { code: 'validation_failed', message: 'Check the fields', fields: { 'shipping_address.phone': 'Enter a phone number of 6 to 15 digits.' } });
    const fetchMock = serve(orderDetail({ status: 'pending', shipping_address: ADDRESS }), () => ({ answer }));
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await shippingCard()).getByRole('button', { name: 'Change address' }));
    const dialog = screen.getByRole('dialog', { name: 'Shipping address of order SC-7KQ2-M9XD' });
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Aroha Ngāti');
    expect(within(dialog).getByRole('textbox', { name: /^Postcode/ })).toHaveValue('6011');
    expect(within(dialog).getByRole('combobox', { name: 'Country' })).toHaveValue('NZ');
    const phone = within(dialog).getByRole('textbox', { name: 'Phone (optional)' });
    expect(phone).toHaveValue('021 555 0101');
    await user.clear(phone);
    await user.type(phone, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(phone).toHaveAccessibleDescription('Enter a phone number of 6 to 15 digits.'));
    expect(phone).toHaveAttribute('aria-invalid', 'true');

    answer = jsonResponse(200, { order: orderDetail({ status: 'pending', shipping_address: { ...ADDRESS, phone: null } }) });
    await user.clear(phone);
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Shipping address of order SC-7KQ2-M9XD saved.');
    expect(callsTo(fetchMock, 'PUT', PUT_ADDRESS).map((call) => call.body)).toEqual([
      { shipping_address: { ...ADDRESS, phone: '12' } },
      { shipping_address: { ...ADDRESS, phone: null } },
    ]);
    expect(await shippingCard()).not.toHaveTextContent('Phone:');
  });

  it('closes the dialog when the order has shipped meanwhile (409 address_locked), shows why, and reloads the order', async () => {
    const shipped = orderDetail({ status: 'shipped', shipping_address: ADDRESS });
    const fetchMock = serve(orderDetail({ status: 'paid', shipping_address: ADDRESS }), () => ({
      answer: jsonResponse(409, { code: 'address_locked', message: 'This order has shipped: its shipping address can no longer change.' }),
      after: shipped,
    }));
    const user = userEvent.setup();
    renderPage();
    const shipping = await shippingCard();
    await user.click(within(shipping).getByRole('button', { name: 'Change address' }));
    const dialog = screen.getByRole('dialog', { name: 'Shipping address of order SC-7KQ2-M9XD' });
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This order has shipped: its shipping address can no longer change.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', PUT_ADDRESS)).toHaveLength(1);
    // The order as it now is: shipped, its address fixed.
    await waitFor(() => expect(within(shipping).queryByRole('button', { name: 'Change address' })).not.toBeInTheDocument());
    expect(within(shipping).getByRole('button', { name: 'Update tracking' })).toBeInTheDocument();
  });
});
