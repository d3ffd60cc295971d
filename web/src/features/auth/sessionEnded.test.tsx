import { useQuery } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiFetch, errorMessage } from '@/lib/api';
import { authClient } from '@/lib/authClient';
import { authFetch } from '@/lib/authFetch';
import { SESSION_ENDED_TEXT } from '@/lib/sessionEnded';
import { fakeAuth } from '@/test/fakeAuthClient';
import { AuthProbe, jsonResponse, mockFetch, renderWithAuth } from '@/test/utils';

const RAW = 'Session from session_id claim in JWT does not exist';

/** A signed-in page's query, as the order history asks it. */
function Orders() {
  const orders = useQuery({ queryKey: ['orders'], queryFn: () => apiFetch<unknown[]>('/api/v1/account/orders') });
  return (
    <>
      <AuthProbe />
      <p data-testid="orders">{orders.isError ? errorMessage(orders.error) : orders.isPending ? 'loading' : `${String(orders.data.length)} orders`}</p>
    </>
  );
}

describe('a session ended elsewhere', () => {
  it.each([
    [401, 'not_authenticated', 'Sign in to continue.'],
    [403, 'session_not_found', RAW],
  ])('a %i %s on the orders query signs out here, says so and opens the sign-in dialog', async (status, code, message) => {
    fakeAuth.restoreSession({ email: 'ana@example.co.nz' });
    mockFetch(() => jsonResponse(status, { code, message }));
    renderWithAuth(<Orders />);
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(SESSION_ENDED_TEXT);
    expect(authClient.signOut).toHaveBeenCalledWith({ scope: 'local' });
    await waitFor(() => expect(screen.getByTestId('auth-state')).toHaveTextContent('signed out'));
    expect(authClient.signOut).toHaveBeenCalledTimes(1);
  });

  it('GET /auth/v1/user refused with session_not_found does the same (the auth client fetch)', async () => {
    fakeAuth.restoreSession({ email: 'ana@example.co.nz' });
    mockFetch(() => jsonResponse(403, { code: 'session_not_found', message: RAW }));
    renderWithAuth();
    await waitFor(() => expect(screen.getByTestId('auth-state')).toHaveTextContent('signed in'));
    await act(() => authFetch('/auth/v1/user', { headers: { Authorization: 'Bearer token' } }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(SESSION_ENDED_TEXT);
  });

  it('a wrong password (400 from /auth/v1/token, no token sent) neither signs out nor says so', async () => {
    fakeAuth.restoreSession({ email: 'ana@example.co.nz' });
    mockFetch(() => jsonResponse(400, { code: 'invalid_credentials', message: 'Invalid login credentials' }));
    renderWithAuth();
    await waitFor(() => expect(screen.getByTestId('auth-state')).toHaveTextContent('signed in'));
    await act(async () => {
      await authFetch('/auth/v1/token?grant_type=password', { method: 'POST', body: '{}' });
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(authClient.signOut).not.toHaveBeenCalled();
  });

  it('a two-factor refusal opens the code step path, not the sign-out', async () => {
    fakeAuth.restoreSession({ email: 'ana@example.co.nz' });
    mockFetch(() => jsonResponse(403, { code: 'insufficient_aal', message: 'Enter your two-factor code to continue.' }));
    renderWithAuth(<Orders />);
    await waitFor(() => expect(screen.getByTestId('orders')).toHaveTextContent('Enter your two-factor code'));
    expect(screen.queryByText(SESSION_ENDED_TEXT)).not.toBeInTheDocument();
    expect(vi.mocked(authClient.signOut)).not.toHaveBeenCalled();
  });
});
