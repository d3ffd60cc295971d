import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { Worker } from '../api/workers';
import { UsersPage } from './UsersPage';

const LIST = '/api/v1/admin/wirewrite/workers';

function worker(overrides: Partial<Worker>): Worker {
  return {
    id: 'w1',
    full_name: 'Amy Rangi',
    email: 'amy@example.test',
    ewrb_licence_number: 'EW123456',
    entitlement: 'free',
    pro_expires_at: null,
    created_at: '2026-01-05T00:00:00.000Z',
    certificates_count: 4,
    ...overrides,
  };
}

const WORKERS = [worker({}), worker({ id: 'w2', full_name: 'Ben Pro', email: 'ben@example.test', entitlement: 'pro', certificates_count: 12 }), worker({ id: 'w3', full_name: null, email: 'sparky@example.test', ewrb_licence_number: null }), worker({ id: 'w4', full_name: null, email: null, ewrb_licence_number: null })];

function page(items: Worker[]) {
  return { items, total: items.length, page: 1, page_size: 50, counts: { all: 4, free: 3, pro: 1 } };
}

function renderPage() {
  return renderRoute(<UsersPage />, { path: '/admin/wirewrite/users', initialEntry: '/admin/wirewrite/users' });
}

function listCalls(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.filter(([url, init]) => (url as string).startsWith(LIST) && init?.method === 'GET').map(([url]) => new URL((url as string), 'http://x').searchParams);
}

beforeEach(() => fakeAuth.restoreSession());

describe('UsersPage', () => {
  it('shows the totals and the users: name and licence, contact, tier, certificates, joined, action', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, page(WORKERS)));
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeInTheDocument();
    expect(await screen.findByText('(4 total users (3 free, 1 pro)')).toBeInTheDocument();
    const first = listCalls(fetchMock)[0]!;
    expect(first.get('sort')).toBe('joined');
    expect(first.get('dir')).toBe('desc');
    expect(first.get('page')).toBe('1');
    const amy = screen.getByText('Amy Rangi').closest('tr')!;
    expect(amy).toHaveTextContent('EW123456');
    expect(amy).toHaveTextContent('amy@example.test');
    expect(amy).toHaveTextContent('Free');
    expect(amy).toHaveTextContent('4');
    expect(amy).toHaveTextContent('5 Jan 2026');
    expect(within(amy).getByRole('button', { name: 'Upgrade to Pro: Amy Rangi' })).toHaveTextContent('Upgrade to Pro');
    const ben = screen.getByText('Ben Pro').closest('tr')!;
    expect(within(ben).getByRole('button', { name: 'Downgrade to Free: Ben Pro' })).toHaveTextContent('Downgrade to Free');
    // No name: the email, in the row and in the button's name; neither: 'Unknown'.
    const sparky = screen.getByText('sparky@example.test', { selector: '.font-medium' }).closest('tr')!;
    expect(within(sparky).getByRole('button', { name: 'Upgrade to Pro: sparky@example.test' })).toBeInTheDocument();
    expect(screen.getByText('Unknown')).toBeInTheDocument();
  });

  it("gives every button a name that contains its visible text (WCAG 2.5.3 label in name)", async () => {
    mockFetch(() => jsonResponse(200, page(WORKERS)));
    renderPage();
    await screen.findByText('Amy Rangi');
    for (const button of screen.getAllByRole('button')) {
      const visible = button.textContent.replace(/[▲▼↕]/g, '').trim();
      const name = button.getAttribute('aria-label');
      if (visible && name) expect(name.toLowerCase()).toContain(visible.toLowerCase());
    }
  });

  it('sorts on the server: joined newest first by default, the same column flips, a new column starts ascending', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch(() => jsonResponse(200, page(WORKERS)));
    renderPage();
    await screen.findByText('Amy Rangi');
    expect(screen.getByRole('columnheader', { name: /Joined/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: /^User/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('sort')).toBe('name'));
    expect(listCalls(fetchMock).at(-1)!.get('dir')).toBe('asc');
    await user.click(screen.getByRole('button', { name: /^User/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('dir')).toBe('desc'));
    await user.click(screen.getByRole('button', { name: /^Tier/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('sort')).toBe('tier'));
    expect(listCalls(fetchMock).at(-1)!.get('dir')).toBe('asc');
    await user.click(screen.getByRole('button', { name: /^Joined/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('sort')).toBe('joined'));
    expect(listCalls(fetchMock).at(-1)!.get('dir')).toBe('asc');
  });

  it('searches and filters on the server, with the empty texts', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((url) => {
      const params = new URL(url, 'http://x').searchParams;
      return jsonResponse(200, page(params.get('q') || params.get('tier') ? [] : WORKERS));
    });
    renderPage();
    await screen.findByText('Amy Rangi');
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'EW99');
    expect(await screen.findByText('No users match your filters')).toBeInTheDocument();
    expect(listCalls(fetchMock).at(-1)!.get('q')).toBe('EW99');
    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await screen.findByText('Amy Rangi');
    const tiers = screen.getByRole('group', { name: 'Filter by tier' });
    await user.click(within(tiers).getByRole('button', { name: 'Pro Tier Only' }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('tier')).toBe('pro'));
    expect(within(tiers).getByRole('button', { name: 'Pro Tier Only' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(tiers).getByRole('button', { name: 'All Users' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(tiers).getByRole('button', { name: 'Free Tier Only' })).toBeInTheDocument();
  });

  it('keeps search, tier, sort and page in the address: a link shows the same rows, a sort writes it back', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch(() => jsonResponse(200, { ...page(WORKERS), total: 120, page: 2 }));
    const { router } = renderRoute(<UsersPage />, { path: '/admin/wirewrite/users', initialEntry: '/admin/wirewrite/users?q=EW99&tier=pro&sort=name&dir=asc&page=2' });
    await screen.findByText('Amy Rangi');
    const asked = listCalls(fetchMock)[0]!;
    expect(Object.fromEntries(asked)).toEqual({ q: 'EW99', tier: 'pro', sort: 'name', dir: 'asc', page: '2', page_size: '50' });
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('EW99');
    expect(screen.getByRole('button', { name: 'Pro Tier Only' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('columnheader', { name: /User/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    await user.click(within(screen.getByRole('columnheader', { name: /Tier/ })).getByRole('button'));
    expect(router.state.location.search).toBe('?q=EW99&tier=pro&sort=tier&dir=asc');
    await waitFor(() => expect(listCalls(fetchMock).at(-1)!.get('sort')).toBe('tier'));
  });

  it("says 'No users yet' without filters", async () => {
    mockFetch(() => jsonResponse(200, { ...page([]), counts: { all: 0, free: 0, pro: 0 } }));
    renderPage();
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
  });

  it('upgrades after the confirmation and says so', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((_url, init) =>
      init?.method === 'PATCH' ? jsonResponse(200, worker({ entitlement: 'pro' })) : jsonResponse(200, page(WORKERS)),
    );
    renderPage();
    await screen.findByText('Amy Rangi');
    await user.click(screen.getByRole('button', { name: 'Upgrade to Pro: Amy Rangi' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Upgrade Amy Rangi to LIFETIME PRO access?');
    expect(dialog).toHaveTextContent("Set entitlement to 'pro'");
    expect(dialog).toHaveTextContent('Set pro_expires_at to null');
    expect(dialog).toHaveTextContent('This action cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Successfully upgraded Amy Rangi to Lifetime Pro!');
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(patch[0]).toBe(`${LIST}/w1`);
    expect(JSON.parse(patch[1]!.body as string)).toEqual({ entitlement: 'pro' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('changes nothing when the confirmation is cancelled', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch(() => jsonResponse(200, page(WORKERS)));
    renderPage();
    await screen.findByText('Ben Pro');
    await user.click(screen.getByRole('button', { name: 'Downgrade to Free: Ben Pro' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Downgrade Ben Pro to FREE tier?');
    expect(dialog).toHaveTextContent('Remove Pro access');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('says a downgrade failed', async () => {
    const user = userEvent.setup();
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch((_url, init) =>
      init?.method === 'PATCH' ? jsonResponse(500, { code: 'internal_error', message: 'Something went wrong on our side.' }) : jsonResponse(200, page(WORKERS)),
    );
    renderPage();
    await screen.findByText('Ben Pro');
    await user.click(screen.getByRole('button', { name: 'Downgrade to Free: Ben Pro' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Downgrade' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to downgrade user');
    log.mockRestore();
  });
});
