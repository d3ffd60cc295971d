import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import { callsTo, jsonResponse, mockApi, page, registerEntry } from '../testing';
import { InvoiceRegisterPage } from './InvoiceRegisterPage';

const LIST = '/api/v1/admin/invoices';

function renderPage(initialEntry = '/admin/invoices') {
  return renderRoute(<InvoiceRegisterPage />, { path: '/admin/invoices', initialEntry });
}

const lastAsked = (fetchMock: Parameters<typeof callsTo>[0]) => Object.fromEntries(callsTo(fetchMock, 'GET', LIST).at(-1)!.url.searchParams);

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('InvoiceRegisterPage', () => {
  it('lists number, kind, issue date (New Zealand), buyer, order, total and GST, each number opening its document', async () => {
    mockApi(() =>
      jsonResponse(
        200,
        page([
          registerEntry(),
          registerEntry({ number: 'CN-000007', kind: 'credit_note', total_amount: 4900, gst_amount: 639, adjusts_number: 'INV-000042', issued_at: '2026-11-30T11:30:00Z' }),
          registerEntry({ number: 'INV-000043', buyer_name: null, buyer_email: null, order_id: null, order_number: null, subscription_id: 'sub-1', currency: 'AUD', total_amount: 1500, gst_amount: 0, zero_rated: true }),
        ]),
      ),
    );
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Invoices' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Invoices' });
    await within(table).findByText('INV-000042');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Number', 'Kind', 'Issued', 'Buyer', 'Order', 'Total', 'GST']);
    const [invoice, note, subscription] = within(table).getAllByRole('row').slice(1);
    expect(within(invoice!).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'INV-000042',
      'Tax invoice',
      '4 Nov 2026',
      'Ana Tupouana@example.co.nz',
      'SC-7KQ2-M9XD',
      '$258.00',
      '$33.65',
    ]);
    expect(within(invoice!).getByRole('link', { name: 'INV-000042' })).toHaveAttribute('href', '/account/invoices/INV-000042');
    expect(within(invoice!).getByRole('link', { name: 'SC-7KQ2-M9XD' })).toHaveAttribute('href', '/admin/orders/order-1');
    // 11:30 UTC on 30 November is 12:30 am on 1 December in New Zealand.
    expect(note).toHaveTextContent('Credit noteAdjusts INV-000042');
    expect(note).toHaveTextContent('1 Dec 2026');
    expect(within(note!).getByRole('link', { name: 'CN-000007' })).toHaveAttribute('href', '/account/invoices/CN-000007');
    expect(within(subscription!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['INV-000043', 'Tax invoice', '4 Nov 2026', '—', 'Subscription', 'A$15.00', 'A$0.00Zero-rated']);
    expect(screen.getByRole('link', { name: 'GST report' })).toHaveAttribute('href', '/admin/reports/gst');
  });

  it('keeps the search, kind, dates and page in the address and asks the server with them', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, page([registerEntry()], 120)));
    const user = userEvent.setup();
    const { router } = renderPage('/admin/invoices?kind=credit_note&from=2026-11-01&to=2026-12-31&page=2');
    await screen.findByText('INV-000042');
    expect(lastAsked(fetchMock)).toEqual({ kind: 'credit_note', from: '2026-11-01', to: '2026-12-31', page: '2', page_size: '50' });
    const kinds = screen.getByRole('group', { name: 'Filter by kind' });
    expect(within(kinds).getAllByRole('button').map((b) => b.textContent)).toEqual(['All', 'Tax invoices', 'Credit notes', 'Debit notes']);
    expect(within(kinds).getByRole('button', { name: 'Credit notes' })).toHaveAttribute('aria-pressed', 'true');
    const dates = screen.getByRole('form', { name: 'Issue dates' });
    expect(within(dates).getByLabelText('From')).toHaveValue('2026-11-01');
    expect(within(dates).getByLabelText('To')).toHaveValue('2026-12-31');

    await user.click(within(kinds).getByRole('button', { name: 'Debit notes' }));
    await waitFor(() => expect(router.state.location.search).toBe('?kind=debit_note&from=2026-11-01&to=2026-12-31'));
    await user.clear(within(dates).getByLabelText('From'));
    await user.type(within(dates).getByLabelText('From'), '2026-09-01');
    // Nothing is asked while a date is being typed: only on Apply.
    expect(router.state.location.search).toBe('?kind=debit_note&from=2026-11-01&to=2026-12-31');
    await user.click(within(dates).getByRole('button', { name: 'Apply dates' }));
    await waitFor(() => expect(lastAsked(fetchMock)).toEqual({ kind: 'debit_note', from: '2026-09-01', to: '2026-12-31', page: '1', page_size: '50' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search invoices' }), 'ana@{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?kind=debit_note&from=2026-09-01&to=2026-12-31&q=ana%40'));
    await user.click(within(kinds).getByRole('button', { name: 'All' }));
    await waitFor(() => expect(lastAsked(fetchMock)).toEqual({ from: '2026-09-01', to: '2026-12-31', q: 'ana@', page: '1', page_size: '50' }));
  });

  it('exports the register as CSV with the same filters', async () => {
    URL.createObjectURL = () => 'blob:invoices';
    URL.revokeObjectURL = () => undefined;
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const fetchMock = mockApi((url) => {
      if (url.pathname === LIST) return jsonResponse(200, page([registerEntry()]));
      if (url.pathname === `${LIST}/export.csv`)
        return new Response('number,kind\r\n', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="invoices-2026-12-02.csv"' } });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage('/admin/invoices?kind=invoice&q=SC-7KQ2&from=2026-11-01&page=3');
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toEqual(['invoices-2026-12-02.csv']));
    expect(Object.fromEntries(callsTo(fetchMock, 'GET', `${LIST}/export.csv`)[0]!.url.searchParams)).toEqual({ kind: 'invoice', q: 'SC-7KQ2', from: '2026-11-01' });
  });

  it('says the empty text of a filtered register', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, page([])));
    renderPage('/admin/invoices?kind=debit_note');
    expect(await screen.findByRole('cell', { name: 'No invoices match your filters' })).toBeInTheDocument();
    expect(lastAsked(fetchMock).kind).toBe('debit_note');
  });

  it('shows a refused date as an alert and beside its field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(() => jsonResponse(422, { code: 'validation_failed', message: 'Check the dates of the range.', fields: { to: 'The end of the range must not be before its start.' } }));
    renderPage('/admin/invoices?from=2026-12-01&to=2026-11-01');
    expect(await screen.findByRole('alert')).toHaveTextContent('Check the dates of the range.');
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription('The end of the range must not be before its start.');
    expect(screen.getByRole('cell', { name: 'The invoices could not be loaded.' })).toBeInTheDocument();
  });
});
