import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { OutboxMail } from '../api/getMail';
import { callsTo, jsonResponse, mockApi, page } from '../testing';
import { MailOutboxPage } from './MailOutboxPage';

function mail(overrides: Partial<OutboxMail> = {}): OutboxMail {
  return {
    id: 'mail-1',
    kind: 'order_shipped',
    to: 'ana@example.co.nz',
    subject: 'Your order SC-7KQ2-M9XD has shipped',
    status: 'failed',
    attempts: 5,
    last_error: '550 mailbox unavailable',
    next_attempt_at: '2025-10-01T01:00:00Z',
    created_at: '2025-10-01T00:00:00Z',
    sent_at: null,
    ...overrides,
  };
}

function renderPage(initialEntry = '/admin/mail') {
  return renderRoute(<MailOutboxPage />, { path: '/admin/mail', initialEntry });
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});

describe('MailOutboxPage', () => {
  it('lists kind, recipient, subject, status, attempts, last error and the next attempt or sent time', async () => {
    mockApi(() =>
      jsonResponse(
        200,
        page([mail(), mail({ id: 'mail-2', kind: 'signup', subject: 'Confirm your signup', status: 'sent', attempts: 1, last_error: null, next_attempt_at: null, sent_at: '2025-10-01T00:00:05Z' })]),
      ),
    );
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Mail Outbox' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Mail outbox' });
    await within(table).findByText('order_shipped');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Created', 'Kind', 'Recipient', 'Subject', 'Status', 'Attempts', 'Last error', 'Next attempt / sent', 'Actions',
    ]);
    const [failed, sent] = within(table).getAllByRole('row').slice(1);
    expect(failed).toHaveTextContent('1 Oct 2025, 1:00 pm');
    expect(failed).toHaveTextContent('ana@example.co.nz');
    expect(failed).toHaveTextContent('550 mailbox unavailable');
    expect(within(failed!).getByText('Failed')).toHaveAttribute('data-tone', 'red');
    expect(within(failed!).getByRole('button', { name: /^Retry now/ })).toBeInTheDocument();
    expect(sent).toHaveTextContent('Sent 1 Oct 2025, 1:00 pm');
    expect(within(sent!).getByText('Sent', { selector: 'span' })).toHaveAttribute('data-tone', 'green');
    expect(within(sent!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('filters by status and searches by recipient on the server, in the address', async () => {
    const fetchMock = mockApi(() => jsonResponse(200, page([])));
    const user = userEvent.setup();
    renderPage('/admin/mail?status=failed');
    expect(await screen.findByRole('cell', { name: 'No mail found' })).toBeInTheDocument();
    expect(Object.fromEntries(callsTo(fetchMock, 'GET', '/api/v1/admin/mail').at(-1)!.url.searchParams)).toEqual({ page: '1', page_size: '50', status: 'failed' });
    expect(screen.getByRole('button', { name: 'Failed' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Pending' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search mail' }), 'ana@{Enter}');
    await waitFor(() =>
      expect(Object.fromEntries(callsTo(fetchMock, 'GET', '/api/v1/admin/mail').at(-1)!.url.searchParams)).toEqual({ page: '1', page_size: '50', status: 'pending', q: 'ana@' }),
    );
  });

  it('retries a failed mail now and reloads the list', async () => {
    let rows = [mail()];
    const fetchMock = mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/mail') return jsonResponse(200, page(rows));
      if (url.pathname === '/api/v1/admin/mail/mail-1/retry' && init?.method === 'POST') {
        rows = [mail({ status: 'pending' })];
        return jsonResponse(200, { mail: rows[0] });
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    const table = await screen.findByRole('table', { name: 'Mail outbox' });
    await user.click(await within(table).findByRole('button', { name: 'Retry now: Your order SC-7KQ2-M9XD has shipped to ana@example.co.nz' }));
    expect(await screen.findByText('The mail to ana@example.co.nz will be sent again now.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/mail/mail-1/retry')).toHaveLength(1);
    await waitFor(() => expect(within(table).getByText('Pending')).toHaveAttribute('data-tone', 'yellow'));
    expect(within(table).queryByRole('button', { name: /^Retry now/ })).not.toBeInTheDocument();
  });

  it('says why a retry was refused', async () => {
    mockApi((url, init) => {
      if (url.pathname === '/api/v1/admin/mail') return jsonResponse(200, page([mail()]));
      if (init?.method === 'POST') return jsonResponse(409, { code: 'mail_not_failed', message: 'This mail was sent already: only a failed mail can be retried.' });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: /^Retry now/ }));
    expect(await screen.findByText('This mail was sent already: only a failed mail can be retried.')).toBeInTheDocument();
  });
});
