import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { PromoCode } from '../api/promoCodes';
import { PromoCodesPage } from './PromoCodesPage';

const LIST = '/api/v1/admin/wirewrite/promo-codes';

function code(overrides: Partial<PromoCode>): PromoCode {
  return {
    id: 'p1',
    code: 'WELCOME',
    description: 'Welcome offer',
    entitlement: 'pro',
    duration_months: 12,
    max_uses: 5,
    uses_count: 2,
    expires_at: '2026-03-01T00:00:00.000Z',
    active: true,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const CODES = [
  code({}),
  code({ id: 'p2', code: 'LIFETIME', description: 'Forever', duration_months: null, max_uses: null, uses_count: 0, expires_at: null, active: false }),
  code({ id: 'p3', code: 'ONEMONTH', description: 'A month', duration_months: 1 }),
];

function page(items: PromoCode[]) {
  return { items, total: items.length, page: 1, page_size: 50 };
}

function renderPage() {
  return renderRoute(<PromoCodesPage />, { path: '/admin/wirewrite/promo-codes', initialEntry: '/admin/wirewrite/promo-codes' });
}

function rowOf(text: string) {
  return screen.getByRole('cell', { name: text }).closest('tr')!;
}

beforeEach(() => fakeAuth.restoreSession());

describe('PromoCodesPage', () => {
  it('lists the codes with duration, usage, expiry and status; inactive rows dimmed', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, page(CODES)));
    renderPage();
    expect(await screen.findByRole('cell', { name: 'WELCOME' })).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]![0]).toBe(`${LIST}?page=1&page_size=50`);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Code', 'Description', 'Duration', 'Usage', 'Expires', 'Status', 'Actions']);
    const welcome = rowOf('WELCOME');
    expect(welcome).toHaveTextContent('12 months');
    expect(welcome).toHaveTextContent('2 / 5');
    expect(welcome).toHaveTextContent('1 Mar 2026');
    expect(welcome).toHaveTextContent('Active');
    expect(welcome).not.toHaveClass('opacity-50');
    const lifetime = rowOf('LIFETIME');
    expect(lifetime).toHaveTextContent('Lifetime');
    expect(lifetime).toHaveTextContent('0 / ∞');
    expect(lifetime).toHaveTextContent('Never');
    expect(lifetime).toHaveTextContent('Inactive');
    expect(lifetime).toHaveClass('opacity-50');
    expect(within(lifetime).getByRole('button', { name: 'Activate LIFETIME' })).toBeInTheDocument();
    expect(rowOf('ONEMONTH')).toHaveTextContent('1 month');
    expect(screen.getByRole('link', { name: '← Back to WireWrite Admin' })).toHaveAttribute('href', '/admin/wirewrite');
  });

  it('says so when there are no codes', async () => {
    mockFetch(() => jsonResponse(200, page([])));
    renderPage();
    expect(await screen.findByText('No promo codes yet. Create your first one above!')).toBeInTheDocument();
  });

  it('creates a code: the form toggles, the code is forced to upper case and empty numbers are null', async () => {
    const user = userEvent.setup();
    let created = false;
    const fetchMock = mockFetch((_url, init) => {
      if (init?.method === 'POST') {
        created = true;
        return jsonResponse(201, code({ id: 'p9', code: 'SPRING', description: 'Spring sale' }));
      }
      return jsonResponse(200, page(created ? [code({ id: 'p9', code: 'SPRING', description: 'Spring sale' }), ...CODES] : CODES));
    });
    renderPage();
    await screen.findByRole('cell', { name: 'WELCOME' });
    expect(screen.queryByRole('form', { name: 'Create promo code' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Code' }));
    const form = screen.getByRole('form', { name: 'Create promo code' });
    await user.type(within(form).getByLabelText(/^Code/), 'spring');
    expect(within(form).getByLabelText(/^Code/)).toHaveValue('SPRING');
    await user.type(within(form).getByLabelText(/^Description/), 'Spring sale');
    await user.type(within(form).getByLabelText('Max Uses'), '10');
    await user.click(within(form).getByRole('button', { name: 'Create Promo Code' }));
    await waitFor(() => expect(created).toBe(true));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(post[1]!.body as string)).toEqual({
      code: 'SPRING',
      description: 'Spring sale',
      duration_months: null,
      max_uses: 10,
      expires_days: null,
    });
    expect(await screen.findByRole('cell', { name: 'SPRING' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Create promo code' })).not.toBeInTheDocument();
  });

  it('checks the form before sending: required fields and counts of at least 1', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch(() => jsonResponse(200, page(CODES)));
    renderPage();
    await screen.findByRole('cell', { name: 'WELCOME' });
    await user.click(screen.getByRole('button', { name: 'Create Code' }));
    const form = screen.getByRole('form', { name: 'Create promo code' });
    await user.type(within(form).getByLabelText('Duration (months)'), '0');
    await user.click(within(form).getByRole('button', { name: 'Create Promo Code' }));
    expect(within(form).getByText('Code is required.')).toBeInTheDocument();
    expect(within(form).getByText('Description is required.')).toBeInTheDocument();
    expect(within(form).getByText('Duration must be a whole number of at least 1, or empty.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it("says 'Failed to create promo code' when the server refuses, with its reason under the field", async () => {
    const user = userEvent.setup();
    mockFetch((_url, init) =>
      init?.method === 'POST'
        ? jsonResponse(409, { code: 'promo_code_taken', message: 'A promo code with this code already exists.', fields: { code: 'This code is already taken.' } })
        : jsonResponse(200, page(CODES)),
    );
    renderPage();
    await screen.findByRole('cell', { name: 'WELCOME' });
    await user.click(screen.getByRole('button', { name: 'Create Code' }));
    const form = screen.getByRole('form', { name: 'Create promo code' });
    await user.type(within(form).getByLabelText(/^Code/), 'WELCOME');
    await user.type(within(form).getByLabelText(/^Description/), 'Again');
    await user.click(within(form).getByRole('button', { name: 'Create Promo Code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create promo code');
    expect(within(form).getByText('This code is already taken.')).toBeInTheDocument();
  });

  it('deactivates and activates a code', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((_url, init) =>
      init?.method === 'PATCH' ? jsonResponse(200, code({ active: false })) : jsonResponse(200, page(CODES)),
    );
    renderPage();
    await screen.findByRole('cell', { name: 'WELCOME' });
    await user.click(screen.getByRole('button', { name: 'Deactivate WELCOME' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(true));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(patch[0]).toBe(`${LIST}/p1`);
    expect(JSON.parse(patch[1]!.body as string)).toEqual({ active: false });
  });
});
