import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { EnterpriseAccountDetails } from '../api/schemas';
import { EnterprisePage } from './EnterprisePage';

const PRODUCT = { id: 'p1', name: 'HHTraff Terminal', slug: 'hhtraff' };

function team(overrides: Partial<EnterpriseAccountDetails['account']> = {}): EnterpriseAccountDetails {
  return {
    account: {
      id: 'a1',
      company_name: 'Harbour Traffic Systems Ltd',
      billing_email: 'accounts@harbour.example',
      admin: { id: 'u1', email: 'lead@harbour.example' },
      max_licenses: 5,
      is_active: true,
      created_at: '2025-10-01T00:00:00.000Z',
      member_count: 3,
      user_count: 3,
      license_count: 1,
      ...overrides,
    },
    members: [
      { id: 'm1', user_id: 'u1', email: 'lead@harbour.example', full_name: 'Lead', role: 'admin', added_at: '2025-10-01T00:00:00.000Z', seat_product_ids: ['p1'] },
      { id: 'm2', user_id: 'u2', email: 'aroha@harbour.example', full_name: null, role: 'member', added_at: '2025-10-02T00:00:00.000Z', seat_product_ids: ['p1'] },
      { id: 'm3', user_id: 'u3', email: 'liam@harbour.example', full_name: null, role: 'member', added_at: '2025-10-03T00:00:00.000Z', seat_product_ids: [] },
    ],
    licences: [{ id: 'l1', product: PRODUCT, quantity: 2, used_count: 2, created_at: '2025-10-01T00:00:00.000Z' }],
  };
}

const NOT_FOUND = { code: 'enterprise_account_not_found', message: 'No Enterprise Account' };

function renderPage(onContactSales = vi.fn()) {
  renderRoute(<EnterprisePage onContactSales={onContactSales} />, { path: '/enterprise', initialEntry: '/enterprise' });
  return { onContactSales };
}

function teamCalls(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.filter(([url, init]) => url === '/api/v1/enterprise' && (init?.method ?? 'GET') === 'GET').length;
}

beforeEach(() => {
  fakeAuth.restoreSession();
});

describe('EnterprisePage', () => {
  it('shows company, billing email, licence usage, status and the team', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, team()));
    renderPage();
    expect(screen.getByRole('status')).toHaveTextContent('Loading enterprise account...');
    const account = await screen.findByRole('region', { name: 'Harbour Traffic Systems Ltd' });
    expect(account).toHaveTextContent('accounts@harbour.example');
    expect(account).toHaveTextContent('3 of 5 licences used');
    expect(within(account).getByText('Active')).toHaveAttribute('data-tone', 'green');
    expect(account).toHaveTextContent('HHTraff Terminal: 2 of 2 seats in use');
    const members = within(screen.getByRole('list', { name: 'Team members' })).getAllByRole('listitem');
    expect(members).toHaveLength(3);
    expect(members[0]).toHaveTextContent('lead@harbour.example');
    expect(members[0]).toHaveTextContent('Admin');
    expect(within(members[0]!).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(members[1]).toHaveTextContent('added 2 Oct 2025');
    expect(members[1]).not.toHaveTextContent('No HHTraff Terminal seat');
    // The member without a seat is told so.
    expect(members[2]).toHaveTextContent('No HHTraff Terminal seat: all 2 are in use.');
    expect(document.title).toBe('Enterprise Management | Signalcraft');
    const [, init] = fetchMock.mock.calls[0]!;
    expect((init?.headers as Record<string, string>).Authorization).toMatch(/^Bearer token-/);
  });

  it('says there is no account and offers Contact Sales', async () => {
    mockFetch(() => jsonResponse(404, NOT_FOUND));
    const user = userEvent.setup();
    const { onContactSales } = renderPage();
    const panel = await screen.findByRole('region', { name: 'No Enterprise Account' });
    expect(panel).toHaveTextContent('Contact sales to set up an enterprise account for your organization.');
    await user.click(within(panel).getByRole('button', { name: 'Contact Sales' }));
    expect(onContactSales).toHaveBeenCalledTimes(1);
  });

  it('adds a member by email and reloads the team', async () => {
    let added = false;
    const fetchMock = mockFetch((_url, init) => {
      if (init?.method === 'POST') {
        added = true;
        return jsonResponse(201, { member: team().members[2] });
      }
      return jsonResponse(200, added ? { ...team(), account: { ...team().account, member_count: 4 } } : team());
    });
    const user = userEvent.setup();
    renderPage();
    const form = await screen.findByRole('region', { name: 'Add Team Member' });
    await user.type(within(form).getByLabelText('Email'), '  new@harbour.example ');
    await user.click(within(form).getByRole('button', { name: 'Add Member' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('new@harbour.example was added to the team.');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(post[0]).toBe('/api/v1/enterprise/members');
    expect(JSON.parse(post[1]!.body as string)).toEqual({ email: 'new@harbour.example' });
    expect(await screen.findByText('4 of 5 licences used')).toBeInTheDocument();
    expect(teamCalls(fetchMock)).toBe(2);
    expect(within(form).getByLabelText('Email')).toHaveValue('');
  });

  it.each([
    [404, { code: 'user_not_found', message: 'User not found. They must create an account first.' }, 'User not found. They must create an account first.'],
    [409, { code: 'license_limit_reached', message: 'License limit reached (5 licenses)' }, 'License limit reached (5 licenses)'],
    [409, { code: 'already_member', message: 'That user is already a member of this enterprise account.' }, 'That user is already a member of this enterprise account.'],
    [500, {}, 'Request failed with status 500'],
  ])('shows the server refusal %i as said', async (status, body, text) => {
    mockFetch((_url, init) => (init?.method === 'POST' ? jsonResponse(status, body) : jsonResponse(200, team())));
    const user = userEvent.setup();
    renderPage();
    const form = await screen.findByRole('region', { name: 'Add Team Member' });
    await user.type(within(form).getByLabelText('Email'), 'someone@harbour.example');
    await user.click(within(form).getByRole('button', { name: 'Add Member' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(text);
    expect(within(form).getByLabelText('Email')).toHaveValue('someone@harbour.example');
  });

  it("says 'Failed to add member' when the failure has no message, and asks for an email first", async () => {
    const fetchMock = mockFetch((_url, init) => {
      if (init?.method === 'POST') return jsonResponse(400, { code: 'bad_request', message: '' });
      return jsonResponse(200, team());
    });
    const user = userEvent.setup();
    renderPage();
    const form = await screen.findByRole('region', { name: 'Add Team Member' });
    await user.click(within(form).getByRole('button', { name: 'Add Member' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Email is required.');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    await user.type(within(form).getByLabelText('Email'), 'someone@harbour.example');
    await user.click(within(form).getByRole('button', { name: 'Add Member' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Failed to add member');
  });

  it('removes a member after the confirmation, and not without it', async () => {
    let removed = false;
    const fetchMock = mockFetch((_url, init) => {
      if (init?.method === 'DELETE') {
        removed = true;
        return jsonResponse(200, { id: 'm2', deleted: true });
      }
      const current = team();
      return jsonResponse(200, removed ? { ...current, members: current.members.filter((m) => m.id !== 'm2') } : current);
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove aroha@harbour.example' }));
    let dialog = screen.getByRole('dialog', { name: 'Remove Member' });
    expect(dialog).toHaveTextContent('Remove this member from the enterprise account?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Remove aroha@harbour.example' }));
    dialog = screen.getByRole('dialog', { name: 'Remove Member' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByText('aroha@harbour.example')).not.toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE')!;
    expect(call[0]).toBe('/api/v1/enterprise/members/m2');
  });

  it('shows an inactive account and disables adding members', async () => {
    mockFetch(() => jsonResponse(200, team({ is_active: false })));
    renderPage();
    const account = await screen.findByRole('region', { name: 'Harbour Traffic Systems Ltd' });
    expect(within(account).getByText('Inactive')).toHaveAttribute('data-tone', 'grey');
    expect(account).toHaveTextContent('This enterprise account is inactive');
    expect(screen.getByRole('button', { name: 'Add Member' })).toBeDisabled();
  });

  it('says when the account cannot be loaded, with a retry', async () => {
    let calls = 0;
    mockFetch(() => (++calls === 1 ? jsonResponse(500, { code: 'internal_error', message: 'Boom' }) : jsonResponse(200, team())));
    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your enterprise account.');
    expect(alert).not.toHaveTextContent('Boom');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'Harbour Traffic Systems Ltd' })).toBeInTheDocument();
  });
});
