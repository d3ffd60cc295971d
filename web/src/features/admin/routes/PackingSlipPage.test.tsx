import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import { jsonResponse, mockApi, orderDetail, orderItem } from '../testing';
import { PackingSlipPage } from './PackingSlipPage';

function renderPage(id = 'order-1') {
  return renderRoute(<PackingSlipPage />, { path: '/admin/orders/:id/packing-slip', initialEntry: `/admin/orders/${id}/packing-slip` });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('PackingSlipPage', () => {
  it('prints the order number, date, ship-to address and the items with quantities, and no prices', async () => {
    mockApi(() =>
      jsonResponse(200, {
        order: orderDetail({
          shipping_address: { name: 'Aroha Ngāti', line1: '12 Kauri Street', line2: null, city: 'Sydney', state: 'NSW', postal_code: '2000', country: 'AU', phone: '021 555 0101' },
        }),
      }),
    );
    renderPage();
    const slip = await screen.findByRole('article', { name: 'Packing slip' });
    expect(slip).toHaveTextContent('SC-7KQ2-M9XD');
    expect(slip).toHaveTextContent('2 Oct 2025');
    const address = within(slip).getByRole('region', { name: 'Ship to' });
    expect(address).toHaveTextContent('Aroha Ngāti12 Kauri StreetSydney NSW 2000AustraliaPhone: 021 555 0101');
    const rows = within(within(slip).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['ProductQuantity', 'Bluetooth Serial Adapter2']);
    expect(slip).not.toHaveTextContent('$');
    expect(slip).toHaveClass('print-document');
    expect(screen.getByRole('button', { name: 'Print' }).parentElement).toHaveClass('print:hidden');
  });

  it('lists what is still to send: a refunded unit is not packed, and a line refunded in full not at all', async () => {
    mockApi(() =>
      jsonResponse(200, {
        order: orderDetail({
          items: [
            orderItem({ id: 'item-1', product_name: 'USB to RS-232 Serial Cable', quantity: 2, refunded_quantity: 1 }),
            orderItem({ id: 'item-2', product_name: 'Bluetooth Serial Adapter', quantity: 1, refunded_quantity: 1 }),
          ],
        }),
      }),
    );
    renderPage();
    const slip = await screen.findByRole('article', { name: 'Packing slip' });
    const rows = within(within(slip).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['ProductQuantity', 'USB to RS-232 Serial Cable1']);
  });

  it('says when the order does not exist', async () => {
    mockApi(() => jsonResponse(404, { code: 'order_not_found', message: 'No such order.' }));
    renderPage('missing');
    expect(await screen.findByText('Order not found.')).toBeInTheDocument();
  });
});
