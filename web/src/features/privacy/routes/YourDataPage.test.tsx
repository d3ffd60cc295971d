import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '@/lib/auth';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockApi, renderRoute } from '@/test/utils';
import { exportFileName } from '../api/privacy';
import { CLOSED_NOTICE, YourDataPage } from './YourDataPage';

const signOut = vi.fn(() => Promise.resolve());

function renderPage() {
  const auth: AuthContextValue = {
    user: { id: 'u1', email: 'ana@example.nz' },
    isAdmin: false,
    loading: false,
    needsMfa: false,
    openSignIn: () => undefined,
    openSignUp: () => undefined,
    openMfa: () => undefined,
    signOut,
  };
  const page = (
    <AuthContext.Provider value={auth}>
      <YourDataPage />
    </AuthContext.Provider>
  );
  return renderRoute(page, { path: '/account/privacy', initialEntry: '/account/privacy' });
}

const EXPORT = { format: 'storefront-data/1', profile: { id: 'u1', email: 'ana@example.nz' }, orders: [] };

beforeEach(() => {
  signOut.mockClear();
  fakeAuth.restoreSession({ email: 'ana@example.nz' }, 'aal1');
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export'), revokeObjectURL: vi.fn() }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('YourDataPage', () => {
  it('downloads the data as the file the server names', { timeout: 15_000 }, async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    let authorization: string | undefined;
    mockApi((url, init) => {
      if (url.pathname !== '/api/v1/account/export') return undefined;
      authorization = (init?.headers as Record<string, string>).Authorization;
      return new Response(JSON.stringify(EXPORT), {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Content-Disposition': 'attachment; filename="storefront-data-2026-11-27.json"' },
      });
    });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Your Data' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Your data was saved as storefront-data-2026-11-27.json.')).toBeInTheDocument();
    expect(click).toHaveBeenCalledTimes(1);
    expect(authorization).toMatch(/^Bearer /);
    click.mockRestore();
  });

  it('says so when the download fails', async () => {
    mockApi(() => jsonResponse(500, { code: 'internal_error', message: 'Something broke.' }));
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Something broke.')).toBeInTheDocument();
  });

  it('closes the account with the password, signs out and lands on the home page with a notice', { timeout: 15_000 }, async () => {
    const bodies: unknown[] = [];
    mockApi((url, init) => {
      if (url.pathname !== '/api/v1/account' || init?.method !== 'DELETE') return undefined;
      const body = JSON.parse(init.body as string) as { password: string };
      bodies.push(body);
      return body.password === 'right-password'
        ? new Response(null, { status: 204 })
        : jsonResponse(400, { code: 'invalid_credentials', message: 'The password is not correct.' });
    });
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    expect(dialog).toHaveTextContent('Removed');
    expect(dialog).toHaveTextContent('Kept');
    expect(dialog).toHaveTextContent('seven years');
    expect(within(dialog).queryByLabelText(/Authenticator code/)).not.toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText(/Current password/), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close my account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The password is not correct.');
    expect(signOut).not.toHaveBeenCalled();

    const password = within(dialog).getByLabelText(/Current password/);
    await userEvent.clear(password);
    await userEvent.type(password, 'right-password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close my account' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/'));
    expect(screen.getByTestId('location').dataset.state).toContain(CLOSED_NOTICE);
    expect(signOut).toHaveBeenCalled();
    expect(bodies).toEqual([{ password: 'wrong' }, { password: 'right-password' }]);
  });

  it('asks for a code when two-factor is on and shows the server\'s field message', async () => {
    fakeAuth.restoreSession({ email: 'ana@example.nz' }, 'aal2'); // past the code step
    fakeAuth.addFactor({ status: 'verified' });
    const bodies: unknown[] = [];
    mockApi((url, init) => {
      if (url.pathname !== '/api/v1/account') return undefined;
      bodies.push(JSON.parse(init?.body as string));
      return jsonResponse(422, { code: 'validation_failed', message: 'Confirm with your password and a code.', fields: { code: 'Enter the 6-digit code from your authenticator app.' } });
    });
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    const code = await within(dialog).findByLabelText(/Authenticator code/);
    await userEvent.type(within(dialog).getByLabelText(/Current password/), 'right-password');
    await userEvent.type(code, '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close my account' }));
    expect(await within(dialog).findByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    expect(bodies).toEqual([{ password: 'right-password', code: '123456' }]);

    // Keeping the account closes the dialog and changes nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep my account' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(signOut).not.toHaveBeenCalled();
  }, 15_000);
});

describe('exportFileName', () => {
  it('takes the server\'s name, else a dated default', () => {
    expect(exportFileName('attachment; filename="storefront-data-2026-11-27.json"')).toBe('storefront-data-2026-11-27.json');
    expect(exportFileName(null, new Date('2026-01-02T03:00:00Z'))).toBe('storefront-data-2026-01-02.json');
  });
});
