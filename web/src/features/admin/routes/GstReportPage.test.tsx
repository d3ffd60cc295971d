import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import { callsTo, gstCurrency, gstReport, jsonResponse, mockApi } from '../testing';
import { GstReportPage } from './GstReportPage';

const REPORT = '/api/v1/admin/reports/gst';

function renderPage(initialEntry = '/admin/reports/gst') {
  return renderRoute(<GstReportPage />, { path: '/admin/reports/gst', initialEntry });
}

/** The figure a GST return asks for, by its words on the page. */
function figure(term: string) {
  const region = screen.getByRole('region', { name: 'New Zealand dollars (NZD)' });
  return within(region).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
}

const asked = (fetchMock: Parameters<typeof callsTo>[0]) => callsTo(fetchMock, 'GET', REPORT).map((call) => Object.fromEntries(call.url.searchParams));

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
  // 2 December 2026 in New Zealand: the Nov – Dec period is under way, Sep – Oct has ended.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T19:15:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('GstReportPage', () => {
  it('opens on the latest ended period and shows the NZD figures a GST return asks for', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, gstReport({ currencies: [gstCurrency({ zero_rated_amount: 1500 })] })));
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'GST report' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Invoices/ })).toHaveAttribute('href', '/admin/invoices');
    await screen.findByRole('region', { name: 'New Zealand dollars (NZD)' });
    expect(asked(fetchMock)).toEqual([{ from: '2026-09-01', to: '2026-10-31' }]);
    const period = screen.getByRole('combobox', { name: 'GST period' });
    expect(period).toHaveDisplayValue('Sep – Oct 2026');
    const labels = within(period).getAllByRole('option').map((o) => o.textContent);
    expect(labels).toHaveLength(12);
    expect(labels.slice(0, 3)).toEqual(['Nov – Dec 2026', 'Sep – Oct 2026', 'Jul – Aug 2026']);
    expect(labels.at(-1)).toBe('Jan – Feb 2025');
    expect(screen.getByText(/1 Sept? 2026 to 31 Oct 2026/)).toBeInTheDocument();
    expect(figure('Total sales and income (including GST and zero-rated supplies)')).toBe('$1,185.50');
    expect(figure('Zero-rated supplies')).toBe('$15.00');
    expect(figure('GST on sales')).toBe('$154.63');
    expect(figure('Invoiced')).toBe('$1,234.50');
    expect(figure('Credited')).toBe('$49.00');
    expect(figure('Tax invoices')).toBe('12');
    expect(figure('Credit notes')).toBe('1');
    expect(screen.queryByRole('region', { name: 'Other currencies' })).not.toBeInTheDocument();
  });

  it('asks for the period chosen, keeping it in the address', async () => {
    const fetchMock = mockApi((url) => jsonResponse(200, gstReport({ from: url.searchParams.get('from')!, to: url.searchParams.get('to')! })));
    const user = userEvent.setup();
    const { router } = renderPage();
    await screen.findByRole('region', { name: 'New Zealand dollars (NZD)' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'GST period' }), 'Nov – Dec 2026');
    await waitFor(() => expect(asked(fetchMock).at(-1)).toEqual({ from: '2026-11-01', to: '2026-12-31' }));
    expect(router.state.location.search).toBe('?from=2026-11-01&to=2026-12-31');
    expect(await screen.findByText(/1 Nov 2026 to 31 Dec 2026/)).toBeInTheDocument();
    const dates = screen.getByRole('form', { name: 'Report dates' });
    expect(within(dates).getByLabelText('From')).toHaveValue('2026-11-01');
    expect(within(dates).getByLabelText('To')).toHaveValue('2026-12-31');
  });

  it('reports custom dates from the address or the date fields', async () => {
    const fetchMock = mockApi((url) => jsonResponse(200, gstReport({ from: url.searchParams.get('from')!, to: url.searchParams.get('to')! })));
    const user = userEvent.setup();
    const { router } = renderPage('/admin/reports/gst?from=2026-04-01&to=2027-03-31');
    await screen.findByRole('region', { name: 'New Zealand dollars (NZD)' });
    expect(asked(fetchMock)).toEqual([{ from: '2026-04-01', to: '2027-03-31' }]);
    expect(screen.getByRole('combobox', { name: 'GST period' })).toHaveDisplayValue('Custom dates');
    const dates = screen.getByRole('form', { name: 'Report dates' });
    await user.clear(within(dates).getByLabelText('To'));
    await user.type(within(dates).getByLabelText('To'), '2026-06-30');
    await user.click(within(dates).getByRole('button', { name: 'Show report' }));
    await waitFor(() => expect(asked(fetchMock).at(-1)).toEqual({ from: '2026-04-01', to: '2026-06-30' }));
    expect(router.state.location.search).toBe('?from=2026-04-01&to=2026-06-30');
  });

  it('lists other currencies in their own table, in their own currency, with the plain statement', async () => {
    mockApi(() =>
      jsonResponse(
        200,
        gstReport({
          currencies: [
            gstCurrency(),
            gstCurrency({ currency: 'AUD', invoiced_amount: 9000, credited_amount: 0, net_amount: 9000, gst_amount: 0, zero_rated_amount: 9000, invoice_count: 3, credit_note_count: 0 }),
          ],
        }),
      ),
    );
    renderPage();
    const other = await screen.findByRole('region', { name: 'Other currencies' });
    expect(other).toHaveTextContent(
      'Sales in other currencies are listed in their own currency: convert them to New Zealand dollars at the exchange rate you use for your return.',
    );
    const [row] = within(within(other).getByRole('table', { name: 'Other currencies' })).getAllByRole('row').slice(1);
    expect(within(row!).getByRole('rowheader')).toHaveTextContent('AUD');
    expect(within(row!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['A$90.00', 'A$90.00', 'A$0.00', 'A$90.00', 'A$0.00', '3', '0']);
    // The NZD figures stay NZD only.
    expect(figure('GST on sales')).toBe('$154.63');
  });

  it('shows zeros for a period with no NZD documents', async () => {
    mockApi(() => jsonResponse(200, gstReport({ currencies: [] })));
    renderPage();
    await screen.findByRole('region', { name: 'New Zealand dollars (NZD)' });
    expect(figure('Total sales and income (including GST and zero-rated supplies)')).toBe('$0.00');
    expect(figure('Tax invoices')).toBe('0');
  });

  it('shows a refused range (422) as an alert and beside its field, never as an empty report', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(() =>
      jsonResponse(422, { code: 'validation_failed', message: 'Check the dates of the range.', fields: { to: 'The end of the range must not be before its start.' } }),
    );
    renderPage('/admin/reports/gst?from=2026-12-01&to=2026-11-01');
    expect(await screen.findByRole('alert')).toHaveTextContent('Check the dates of the range. The end of the range must not be before its start.');
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription('The end of the range must not be before its start.');
    expect(screen.queryByRole('region', { name: 'New Zealand dollars (NZD)' })).not.toBeInTheDocument();
  });

  it('shows a server failure as an alert, never as an empty report', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(() => jsonResponse(503, { code: 'unavailable', message: 'The database is not answering.' }));
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is not answering.');
    expect(screen.queryByRole('region', { name: 'New Zealand dollars (NZD)' })).not.toBeInTheDocument();
    expect(screen.queryByText('$0.00')).not.toBeInTheDocument();
  });
});
