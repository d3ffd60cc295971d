import { AuthApiError } from '@supabase/auth-js';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { authClient } from '@/lib/authClient';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderWithAuth } from '@/test/utils';
import {
  AccountPage,
  EMAIL_INVALID_TEXT,
  NAME_REQUIRED_TEXT,
  NAME_SAVED_TEXT,
  OTHERS_SIGNED_OUT_TEXT,
  PASSWORD_CHANGED_TEXT,
  PASSWORDS_DIFFER_TEXT,
} from './AccountPage';

const ME = {
  id: '0193a000-0000-7000-8000-0000000000aa',
  email: 'tech@example.co.nz',
  full_name: 'Aroha Ngata',
  roles: [],
  aal: 'aal1',
  factors: [],
  enterprise: null,
  pending_email: null,
};

function renderPage(me: object = ME) {
  const fetchMock = mockFetch((url) => (url === '/api/v1/account/me' ? jsonResponse(200, me) : jsonResponse(500, {})));
  fakeAuth.restoreSession({ email: ME.email, fullName: ME.full_name });
  renderWithAuth(
    <MemoryRouter initialEntries={['/account']}>
      <AccountPage />
    </MemoryRouter>,
  );
  return { user: userEvent.setup(), fetchMock };
}

const section = (name: string) => screen.getByRole('region', { name });

describe('AccountPage', () => {
  it('shows the account navigation and the name from the one /me call', async () => {
    const { fetchMock } = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Account' });
    expect(within(nav).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/account');
    expect(within(nav).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Security' })).toHaveAttribute('href', '/account/security');
    expect(within(nav).getByRole('link', { name: 'Invoices' })).toHaveAttribute('href', '/account/invoices');
    expect(within(nav).getByRole('link', { name: 'Your data' })).toHaveAttribute('href', '/account/privacy');
    expect(await screen.findByRole('textbox', { name: 'Full name' })).toHaveValue('Aroha Ngata');
    expect(section('Email address')).toHaveTextContent('You sign in with tech@example.co.nz.');
    expect(document.title).toBe('Account | Signalcraft');
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/v1/account/me')).toHaveLength(1);
  });

  it('saves the name, and refuses an empty one without asking the server', async () => {
    const { user } = renderPage();
    const name = await screen.findByRole('textbox', { name: 'Full name' });
    await user.clear(name);
    await user.click(within(section('Profile')).getByRole('button', { name: 'Save name' }));
    expect(name).toHaveAccessibleDescription(NAME_REQUIRED_TEXT);
    expect(authClient.updateUser).not.toHaveBeenCalled();

    await user.type(name, '  Aroha Ngata-Tane ');
    await user.click(within(section('Profile')).getByRole('button', { name: 'Save name' }));
    expect(await within(section('Profile')).findByText(NAME_SAVED_TEXT)).toBeInTheDocument();
    expect(authClient.updateUser).toHaveBeenCalledWith({ data: { full_name: 'Aroha Ngata-Tane' } });
  });

  it('sends an email change link and shows a pending change', async () => {
    const { user } = renderPage({ ...ME, pending_email: 'new@example.co.nz' });
    expect(await screen.findByText(/We sent a confirmation link to/)).toHaveTextContent(
      'We sent a confirmation link to new@example.co.nz. Your email address changes when you open it.',
    );
    const field = within(section('Email address')).getByRole('textbox', { name: 'New email address' });
    await user.type(field, 'not-an-address');
    await user.click(within(section('Email address')).getByRole('button', { name: 'Change email' }));
    expect(field).toHaveAccessibleDescription(expect.stringContaining(EMAIL_INVALID_TEXT));
    expect(authClient.updateUser).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, 'moved@example.co.nz');
    await user.click(within(section('Email address')).getByRole('button', { name: 'Change email' }));
    await waitFor(() =>
      expect(authClient.updateUser).toHaveBeenCalledWith({ email: 'moved@example.co.nz' }, { emailRedirectTo: `${window.location.origin}/account` }),
    );
  });

  it('after sending the link shows the new address as pending, not as changed', async () => {
    const { user } = renderPage();
    const field = await within(await screen.findByRole('region', { name: 'Email address' })).findByRole('textbox', { name: 'New email address' });
    await user.type(field, 'moved@example.co.nz');
    await user.click(within(section('Email address')).getByRole('button', { name: 'Change email' }));
    const pending = await within(section('Email address')).findByText(/We sent a confirmation link to/);
    expect(pending).toHaveTextContent('We sent a confirmation link to moved@example.co.nz. Your email address changes when you open it.');
    expect(pending).toHaveAttribute('role', 'status');
    expect(section('Email address')).toHaveTextContent('You sign in with tech@example.co.nz.');
  });

  it('shows the error state with Retry when the account cannot be loaded, not the server text', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let failing = true;
    const fetchMock = mockFetch(() =>
      failing ? new Response(JSON.stringify({ code: 'unavailable', message: 'Database busy' }), { status: 503, headers: { 'X-Request-Id': 'req-me-7' } }) : jsonResponse(200, ME),
    );
    fakeAuth.restoreSession({ email: ME.email });
    renderWithAuth(
      <MemoryRouter initialEntries={['/account']}>
        <AccountPage />
      </MemoryRouter>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your account could not be loaded.');
    expect(alert).toHaveTextContent('req-me-7');
    expect(alert).not.toHaveTextContent('Database busy');
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('textbox', { name: 'Full name' })).toHaveValue('Aroha Ngata');
    expect(fetchMock.mock.calls.length).toBeGreaterThan(1);
  });

  it('changes the password with the current one, and says so when the server refuses it', async () => {
    const { user } = renderPage();
    const card = await screen.findByRole('region', { name: 'Password' });
    await user.type(within(card).getByLabelText('Current password'), 'old password 1');
    await user.type(within(card).getByLabelText('New password'), 'new password 2');
    await user.type(within(card).getByLabelText('Confirm new password'), 'new password 3');
    await user.click(within(card).getByRole('button', { name: 'Change password' }));
    expect(within(card).getByLabelText('Confirm new password')).toHaveAccessibleDescription(PASSWORDS_DIFFER_TEXT);
    expect(authClient.updateUser).not.toHaveBeenCalled();

    vi.mocked(authClient.updateUser).mockResolvedValueOnce({
      data: { user: null },
      error: new AuthApiError('Current password required when setting new password.', 400, 'current_password_invalid'),
    });
    await user.clear(within(card).getByLabelText('Confirm new password'));
    await user.type(within(card).getByLabelText('Confirm new password'), 'new password 2');
    await user.click(within(card).getByRole('button', { name: 'Change password' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('Your current password is not right. Nothing was changed.');
    expect(authClient.updateUser).toHaveBeenLastCalledWith({ password: 'new password 2', current_password: 'old password 1' });

    await user.click(within(card).getByRole('button', { name: 'Change password' }));
    expect(await within(card).findByText(PASSWORD_CHANGED_TEXT)).toBeInTheDocument();
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(card).getByLabelText('Current password')).toHaveValue('');
  });

  it('signs out of the other devices only', async () => {
    const { user } = renderPage();
    const card = await screen.findByRole('region', { name: 'Devices' });
    await user.click(within(card).getByRole('button', { name: 'Sign out of other devices' }));
    expect(await within(card).findByText(OTHERS_SIGNED_OUT_TEXT)).toBeInTheDocument();
    expect(authClient.signOut).toHaveBeenCalledWith({ scope: 'others' });
  });
});
