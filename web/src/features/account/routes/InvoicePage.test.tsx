import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockApi, renderRoute } from '@/test/utils';
import { InvoicePage } from './InvoicePage';

const invoice = {
  title: 'Tax Invoice',
  number: 'INV-000123',
  kind: 'invoice',
  issued_at: '2026-11-26T11:30:00.000Z',
  issue_date: '2026-11-27',
  supplier: { legal_name: 'Storefront Demo Limited', address: '1 Queen Street, Auckland', gst_number: '49-091-850' },
  buyer: { name: 'Ana Buyer', email: 'ana@example.nz', address: null },
  lines: [{ description: 'Bluetooth Serial Adapter', quantity: 3, amount: 7500 }],
  currency: 'NZD',
  total_amount: 7500,
  gst_amount: 978,
  zero_rated: false,
  gst_note: 'Total includes GST at 15%',
  order_id: 'order-1',
  order_number: 'SC-7KQ2-M9XD',
  adjusts: null,
  reason: null,
};

function renderPage(entry: string) {
  return renderRoute(<InvoicePage />, { path: '/account/invoices/:number', initialEntry: entry });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'ana@example.nz' }, 'aal1');
});

describe('InvoicePage', () => {
  it('shows every detail of the tax invoice, with the New Zealand date and the GST content', async () => {
    mockApi((url) => (url.pathname === '/api/v1/account/invoices/INV-000123' ? jsonResponse(200, invoice) : undefined));
    renderPage('/account/invoices/INV-000123');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tax Invoice' })).toBeInTheDocument();
    const sheet = screen.getByRole('article', { name: 'Tax Invoice INV-000123' });
    expect(sheet).toHaveTextContent('Date 27 November 2026');
    expect(sheet).toHaveTextContent('Storefront Demo Limited');
    expect(sheet).toHaveTextContent('GST number 49-091-850');
    expect(sheet).toHaveTextContent('ana@example.nz');
    expect(screen.getByRole('table', { name: 'Lines' })).toHaveTextContent('Bluetooth Serial Adapter3$75.00');
    expect(sheet).toHaveTextContent('GST content$9.78');
    expect(screen.getByRole('button', { name: 'Print or save as PDF' })).toBeInTheDocument();
  });

  it('reads through the staff endpoint from an order, and says when there is no such invoice', async () => {
    mockApi((url) => (url.pathname === '/api/v1/admin/invoices/INV-000123' ? jsonResponse(200, { ...invoice, zero_rated: true, gst_amount: 0 }) : jsonResponse(404, { code: 'invoice_not_found', message: 'No such invoice.' })));
    renderPage('/account/invoices/INV-000123?staff=1');
    expect(await screen.findByText('GST (zero-rated)')).toBeInTheDocument();
  });

  it('names where the goods went: the order\'s shipping address', async () => {
    const address = { name: 'Ana Buyer', line1: '12 Kauri Street', line2: null, city: 'Wellington', state: null, postal_code: '6011', country: 'NZ', phone: '021 555 0101' };
    mockApi((url) => (url.pathname === '/api/v1/account/invoices/INV-000123' ? jsonResponse(200, { ...invoice, buyer: { ...invoice.buyer, address } }) : undefined));
    renderPage('/account/invoices/INV-000123');
    const buyer = await screen.findByRole('region', { name: 'Buyer' });
    expect(buyer).toHaveTextContent('12 Kauri Street, Wellington 6011, New Zealand');
  });

  it('says when the invoice is not there', async () => {
    mockApi(() => jsonResponse(404, { code: 'invoice_not_found', message: 'No such invoice.' }));
    renderPage('/account/invoices/INV-999999');
    expect(await screen.findByRole('heading', { name: 'Invoice not found' })).toBeInTheDocument();
  });
});
