import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { Certificate } from '../api/certificates';
import { CertificatesPage } from './CertificatesPage';

const LIST = '/api/v1/admin/wirewrite/certificates';

function certificate(overrides: Partial<Certificate>): Certificate {
  return {
    id: 'c1',
    worker_id: 'w1',
    certificate_number: 'WW-2026-000123',
    site_location: '12 Queen Street, Auckland',
    status: 'issued',
    created_at: '2026-02-01T00:00:00.000Z',
    issued_at: '2026-02-02T01:30:00.000Z',
    worker: { full_name: 'Amy Rangi', email: 'amy@example.test' },
    ...overrides,
  };
}

const CERTIFICATES = [
  certificate({}),
  certificate({ id: 'c2', certificate_number: null, site_location: null, status: 'draft', issued_at: null, worker: { full_name: null, email: 'anon@example.test' } }),
];

function page(items: Certificate[]) {
  return { items, total: items.length, page: 1, page_size: 50, counts: { all: 2, draft: 1, issued: 1 } };
}

function renderPage() {
  return renderRoute(<CertificatesPage />, { path: '/admin/wirewrite/certificates', initialEntry: '/admin/wirewrite/certificates' });
}

function listCalls(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.map(([url]) => (url as string)).filter((url) => url.startsWith(LIST)).map((url) => new URL(url, 'http://x').searchParams);
}

beforeEach(() => fakeAuth.restoreSession());

describe('CertificatesPage', () => {
  it("shows the totals and the columns: 'Draft', 'Unknown', 'Not specified', 'N/A'", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, page(CERTIFICATES)));
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'All Certificates' })).toBeInTheDocument();
    expect(await screen.findByText('(2 total certificates (1 draft, 1 issued)')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent.replace(/[▲▼↕]/g, ''));
    expect(headers).toEqual(['Certificate #', 'Worker', 'Site Location', 'Status', 'Created', 'Issued']);
    const issued = screen.getByText('WW-2026-000123').closest('tr')!;
    expect(issued).toHaveTextContent('Amy Rangi');
    expect(issued).toHaveTextContent('amy@example.test');
    expect(issued).toHaveTextContent('12 Queen Street, Auckland');
    expect(issued).toHaveTextContent('Issued');
    expect(issued).toHaveTextContent('1 Feb 2026');
    expect(issued).toHaveTextContent('2 Feb 2026, 2:30 pm');
    const draft = screen.getByText('anon@example.test').closest('tr')!;
    expect(draft).toHaveTextContent('Draft');
    expect(draft).toHaveTextContent('Unknown');
    expect(draft).toHaveTextContent('Not specified');
    expect(draft).toHaveTextContent('N/A');
    const first = listCalls(fetchMock)[0]!;
    expect(first.get('sort')).toBe('created');
    expect(first.get('dir')).toBe('desc');
  });

  it('sorts by number, status and created on the server', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch(() => jsonResponse(200, page(CERTIFICATES)));
    renderPage();
    await screen.findByText('WW-2026-000123');
    await user.click(screen.getByRole('button', { name: /^Certificate #/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('sort')).toBe('number'));
    expect(listCalls(fetchMock).at(-1)!.get('dir')).toBe('asc');
    await user.click(screen.getByRole('button', { name: /^Certificate #/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('dir')).toBe('desc'));
    await user.click(screen.getByRole('button', { name: /^Status/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('sort')).toBe('status'));
    expect(screen.getByRole('columnheader', { name: /Status/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('searches and filters on the server, with the empty texts', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((url) => {
      const params = new URL(url, 'http://x').searchParams;
      return jsonResponse(200, page(params.get('q') === 'nowhere' ? [] : CERTIFICATES));
    });
    renderPage();
    await screen.findByText('WW-2026-000123');
    await user.type(screen.getByRole('searchbox', { name: 'Search certificates' }), 'nowhere');
    expect(await screen.findByText('No certificates match your filters')).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search certificates' }));
    await screen.findByText('WW-2026-000123');
    await user.click(within(screen.getByRole('group', { name: 'Filter by status' })).getByRole('button', { name: 'Drafts Only' }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('status')).toBe('draft'));
    await user.click(within(screen.getByRole('group', { name: 'Filter by status' })).getByRole('button', { name: 'Issued Only' }));
    expect(screen.getByRole('button', { name: 'Issued Only' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('status')).toBe('issued'));
  });

  it("shows a capped search total as '10,000+' and pages on past page 200", async () => {
    const user = userEvent.setup();
    const full = Array.from({ length: 50 }, (_, i) => certificate({ id: `c${String(i)}`, certificate_number: `WW-2026-${String(100000 + i)}` }));
    const fetchMock = mockFetch((url) => {
      const params = new URL(url, 'http://x').searchParams;
      if (params.get('q') !== 'cuba street') return jsonResponse(200, page(CERTIFICATES));
      const pageNumber = Number(params.get('page'));
      return jsonResponse(200, { ...page(full), total: 10000, total_capped: true, page: pageNumber, counts: { all: 1000000, draft: 300000, issued: 700000 } });
    });
    renderPage();
    await screen.findByText('WW-2026-000123');
    await user.type(screen.getByRole('searchbox', { name: 'Search certificates' }), 'cuba street');
    const pager = await screen.findByRole('navigation', { name: 'WireWrite certificates pages' });
    await waitFor(() => expect(pager).toHaveTextContent('Page 1 of 200+ · 10,000+ matches'));
    expect(screen.getByText('(1000000 total certificates (300000 draft, 700000 issued)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('page')).toBe('2'));
    await waitFor(() => expect(pager).toHaveTextContent('Page 2 of 200+'));
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('shows an exact search total without a plus', async () => {
    const user = userEvent.setup();
    mockFetch((url) => {
      const params = new URL(url, 'http://x').searchParams;
      const items = Array.from({ length: 50 }, (_, i) => certificate({ id: `e${String(i)}`, certificate_number: `WW-2026-${String(200000 + i)}` }));
      return jsonResponse(200, params.get('q') === 'queen' ? { ...page(items), total: 120, total_capped: false } : page(CERTIFICATES));
    });
    renderPage();
    await screen.findByText('WW-2026-000123');
    await user.type(screen.getByRole('searchbox', { name: 'Search certificates' }), 'queen');
    const pager = await screen.findByRole('navigation', { name: 'WireWrite certificates pages' });
    await waitFor(() => expect(pager).toHaveTextContent('Page 1 of 3'));
    expect(pager).not.toHaveTextContent('+');
    expect(pager).not.toHaveTextContent('matches');
  });

  it("says 'No certificates yet' without filters", async () => {
    mockFetch(() => jsonResponse(200, { ...page([]), counts: { all: 0, draft: 0, issued: 0 } }));
    renderPage();
    expect(await screen.findByText('No certificates yet')).toBeInTheDocument();
  });
});
