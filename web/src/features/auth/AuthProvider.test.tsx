import { AuthImplicitGrantRedirectError } from '@supabase/auth-js';
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authClient } from '@/lib/authClient';
import { fakeAuth, VALID_CODE } from '@/test/fakeAuthClient';
import { renderWithAuth } from '@/test/utils';
import { PASSWORD_UPDATED_TEXT, SET_PASSWORD_AUTO_CLOSE_MS } from './components/SetPasswordDialog';
import { ACTIVITY_EVENTS, INACTIVITY_TIMEOUT_MS, useInactivitySignOut } from '@/lib/auth';
import { AUTH_STORAGE_KEY } from '@/lib/authSession';

const state = () => screen.getByTestId('auth-state');

/** The URL an email link lands on (`#access_token=...` or `#error=...`), for the next render. */
function landOn(hash: string) {
  window.history.replaceState(null, '', `/${hash}`);
}

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('AuthProvider: loading the auth client only when needed', () => {
  it('is signed out at once for a visitor without a stored session, and never starts the auth client', async () => {
    renderWithAuth();
    expect(state()).toHaveTextContent('signed out');
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(authClient.initialize).not.toHaveBeenCalled();
    expect(fakeAuth.listenerCount()).toBe(0);
  });

  it('is loading while a stored session is read (no Sign In flash), then signed in', async () => {
    fakeAuth.restoreSession({ email: 'ana@example.co.nz' });
    renderWithAuth();
    expect(state()).toHaveTextContent('loading');
    await waitFor(() => expect(state()).toHaveTextContent('signed in as ana@example.co.nz'));
  });

  it('is loading, then signed out, when the stored session turns out to be gone', async () => {
    window.localStorage.setItem(AUTH_STORAGE_KEY, '{"expired":true}');
    renderWithAuth();
    expect(state()).toHaveTextContent('loading');
    await waitFor(() => expect(state()).toHaveTextContent('signed out'));
    expect(authClient.initialize).toHaveBeenCalledTimes(1);
  });

  it('starts the auth client at once for an email link, with no session stored yet', async () => {
    landOn('#access_token=jwt&type=magiclink');
    renderWithAuth();
    expect(state()).toHaveTextContent('loading');
    await waitFor(() => expect(authClient.initialize).toHaveBeenCalledTimes(1));
  });

  it('loads the sign-in code when the visitor asks to sign in, then opens the dialog', async () => {
    const user = userEvent.setup();
    renderWithAuth();
    await user.click(screen.getByRole('button', { name: 'Open sign in' }));
    expect(await screen.findByRole('dialog', { name: 'Sign In' })).toBeInTheDocument();
    expect(authClient.initialize).toHaveBeenCalledTimes(1);
    expect(state()).toHaveTextContent('signed out');
  });

  it('follows a sign-in made in another tab (the storage event on the session key)', async () => {
    renderWithAuth();
    expect(state()).toHaveTextContent('signed out');
    act(() => void fakeAuth.signIn({ email: 'ana@example.co.nz' }));
    // This document hears of the other tab's write only through the storage event.
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: AUTH_STORAGE_KEY, newValue: window.localStorage.getItem(AUTH_STORAGE_KEY) }));
    });
    await waitFor(() => expect(state()).toHaveTextContent('signed in as ana@example.co.nz'));
  });

  it('ignores storage events of other keys and of a sign-out', async () => {
    renderWithAuth();
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'something-else', newValue: 'x' }));
      window.dispatchEvent(new StorageEvent('storage', { key: AUTH_STORAGE_KEY, newValue: null }));
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(authClient.initialize).not.toHaveBeenCalled();
  });
});

describe('AuthProvider: the session', () => {
  it('restores a stored session: user, full name and admin role from the server', async () => {
    fakeAuth.restoreSession({ email: 'admin@example.test', fullName: 'Aroha Ngata', roles: ['admin'] }, 'aal2');
    renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in as admin@example.test (Aroha Ngata) [admin]'));
  });

  it('is not admin without the admin role', async () => {
    fakeAuth.restoreSession({ roles: ['member'] });
    renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in as tech@example.co.nz'));
    expect(state()).not.toHaveTextContent('[admin]');
  });

  it('follows sign-ins and sign-outs made elsewhere (another tab)', async () => {
    const user = userEvent.setup();
    renderWithAuth();
    // The auth client is running (it is, once the visitor has opened Sign In).
    await user.click(screen.getByRole('button', { name: 'Open sign in' }));
    await screen.findByRole('dialog', { name: 'Sign In' });
    act(() => void fakeAuth.signIn({ email: 'ana@example.co.nz' }));
    await waitFor(() => expect(state()).toHaveTextContent('signed in as ana@example.co.nz'));
    await act(() => authClient.signOut());
    expect(state()).toHaveTextContent('signed out');
  });

  it('signs out this session only', async () => {
    const user = userEvent.setup();
    fakeAuth.restoreSession();
    renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in'));
    await user.click(screen.getByRole('button', { name: 'Probe sign out' }));
    expect(authClient.signOut).toHaveBeenCalledWith({ scope: 'local' });
    await waitFor(() => expect(state()).toHaveTextContent('signed out'));
  });

  it("drops the previous person's cached data on sign-out", async () => {
    const user = userEvent.setup();
    fakeAuth.restoreSession();
    const { queryClient } = renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in'));
    queryClient.setQueryData(['account', 'orders'], [{ id: 'order-1' }]);
    await user.click(screen.getByRole('button', { name: 'Probe sign out' }));
    await waitFor(() => expect(queryClient.getQueryData(['account', 'orders'])).toBeUndefined());
  });

  it('unsubscribes from the auth client when unmounted', async () => {
    fakeAuth.restoreSession();
    const { unmount } = renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in'));
    expect(fakeAuth.listenerCount()).toBe(1);
    unmount();
    expect(fakeAuth.listenerCount()).toBe(0);
  });

  it('opens Sign In with the message of an email link that failed', async () => {
    fakeAuth.setInitializeError(new AuthImplicitGrantRedirectError('Email link is invalid or has expired', { error: 'access_denied', code: 'otp_expired' }));
    landOn('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired');
    renderWithAuth();
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Email link is invalid or has expired');
  });
});

describe('AuthProvider: two-factor on session load', () => {
  it('flags a restored aal1 session of an account with a verified authenticator and opens the code step', async () => {
    const user = userEvent.setup();
    fakeAuth.addFactor();
    fakeAuth.restoreSession({}, 'aal1');
    renderWithAuth();
    const dialog = await screen.findByRole('dialog', { name: 'Two-Factor Authentication' });
    expect(state()).toHaveTextContent('[needs mfa]');

    await user.type(within(dialog).getByLabelText('Verification code'), VALID_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(state()).toHaveTextContent('signed in');
    expect(state()).not.toHaveTextContent('[needs mfa]');
  });

  it('leaves an aal2 session alone', async () => {
    fakeAuth.addFactor();
    fakeAuth.restoreSession({}, 'aal2');
    renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(state()).not.toHaveTextContent('[needs mfa]');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('does not count an unverified factor', async () => {
    fakeAuth.addFactor({ status: 'unverified' });
    fakeAuth.restoreSession({}, 'aal1');
    renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Cancel at the code step signs out', async () => {
    const user = userEvent.setup();
    fakeAuth.addFactor();
    fakeAuth.restoreSession({}, 'aal1');
    renderWithAuth();
    const dialog = await screen.findByRole('dialog', { name: 'Two-Factor Authentication' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(state()).toHaveTextContent('signed out'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the code step on request (the server answered insufficient_aal)', async () => {
    const user = userEvent.setup();
    fakeAuth.restoreSession({}, 'aal1');
    renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open code step' }));
    expect(screen.getByRole('dialog', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
  });
});

describe('AuthProvider: set a new password after an email link', () => {
  it('opens after a recovery link, checks the two entries, updates the password and closes', async () => {
    const user = userEvent.setup();
    fakeAuth.setPasswordLinkType('recovery');
    fakeAuth.restoreSession();
    renderWithAuth();
    const dialog = await screen.findByRole('dialog', { name: 'Set a new password' });
    const password = within(dialog).getByLabelText('New Password');
    const confirm = within(dialog).getByLabelText('Confirm New Password');
    expect(password).toHaveAttribute('minlength', '6');

    password.removeAttribute('minlength');
    confirm.removeAttribute('minlength');
    await user.type(password, 'short');
    await user.type(confirm, 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Password must be at least 6 characters');

    await user.clear(password);
    await user.clear(confirm);
    await user.type(password, 'new-secret-1');
    await user.type(confirm, 'new-secret-2');
    await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(authClient.updateUser).not.toHaveBeenCalled();

    await user.clear(confirm);
    await user.type(confirm, 'new-secret-1');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
    expect(authClient.updateUser).toHaveBeenCalledWith({ password: 'new-secret-1' });
    expect(await within(dialog).findByRole('status')).toHaveTextContent(PASSWORD_UPDATED_TEXT);
    await act(() => vi.advanceTimersByTimeAsync(SET_PASSWORD_AUTO_CLOSE_MS));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    vi.useRealTimers();
  });

  it('opens on the PASSWORD_RECOVERY event too', async () => {
    landOn('#access_token=jwt&type=recovery');
    renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed out'));
    act(() => void fakeAuth.signIn({}, 'aal1', 'PASSWORD_RECOVERY'));
    expect(await screen.findByRole('dialog', { name: 'Set a new password' })).toHaveAccessibleDescription(
      'Choose a new password for your account.',
    );
  });

  it('opens after an invitation link', async () => {
    fakeAuth.setPasswordLinkType('invite');
    fakeAuth.restoreSession();
    renderWithAuth();
    expect(await screen.findByRole('dialog', { name: 'Set a new password' })).toHaveAccessibleDescription(
      'Welcome! Choose a password for your account.',
    );
  });

  it('shows the server refusing the password', async () => {
    const user = userEvent.setup();
    vi.mocked(authClient.updateUser).mockResolvedValueOnce({
      data: { user: null },
      error: new (await import('@supabase/auth-js')).AuthWeakPasswordError('Password should contain a digit', 422, ['characters']),
    });
    fakeAuth.setPasswordLinkType('recovery');
    fakeAuth.restoreSession();
    renderWithAuth();
    const dialog = await screen.findByRole('dialog', { name: 'Set a new password' });
    await user.type(within(dialog).getByLabelText('New Password'), 'abcdefgh');
    await user.type(within(dialog).getByLabelText('Confirm New Password'), 'abcdefgh');
    await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Password should contain a digit');
  });

  it('waits for the code step first when the account has an authenticator', async () => {
    fakeAuth.setPasswordLinkType('recovery');
    fakeAuth.addFactor();
    fakeAuth.restoreSession({}, 'aal1');
    renderWithAuth();
    expect(await screen.findByRole('dialog', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Set a new password' })).not.toBeInTheDocument();
  });

  it('is not shown without a link', async () => {
    fakeAuth.restoreSession();
    renderWithAuth();
    await waitFor(() => expect(state()).toHaveTextContent('signed in'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('inactivity sign-out', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires after 15 minutes without activity, and every kind of activity starts the wait again', () => {
    vi.useFakeTimers();
    const onInactive = vi.fn();
    renderHook(() => useInactivitySignOut(true, onInactive));
    expect(INACTIVITY_TIMEOUT_MS).toBe(15 * 60 * 1000); // spec section 9

    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS - 1);
    expect(onInactive).not.toHaveBeenCalled();

    for (const type of ACTIVITY_EVENTS) {
      fireEvent(window, new Event(type));
      vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS - 1);
      expect(onInactive).not.toHaveBeenCalled();
    }

    vi.advanceTimersByTime(1);
    expect(onInactive).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS * 2);
    expect(onInactive).toHaveBeenCalledTimes(1);
  });

  it('counts scrolling inside an element', () => {
    vi.useFakeTimers();
    const onInactive = vi.fn();
    renderHook(() => useInactivitySignOut(true, onInactive));
    const panel = document.createElement('div');
    document.body.append(panel);
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS - 1000);
    fireEvent.scroll(panel);
    vi.advanceTimersByTime(2000);
    expect(onInactive).not.toHaveBeenCalled();
    panel.remove();
  });

  it('keeps one timer, not one per event', () => {
    vi.useFakeTimers();
    renderHook(() => useInactivitySignOut(true, vi.fn()));
    for (let i = 0; i < 50; i++) fireEvent.mouseMove(window);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('does nothing while inactive (signed out) and stops when unmounted', () => {
    vi.useFakeTimers();
    const onInactive = vi.fn();
    const { rerender, unmount } = renderHook(({ active }) => useInactivitySignOut(active, onInactive), { initialProps: { active: false } });
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS * 2);
    expect(onInactive).not.toHaveBeenCalled();
    rerender({ active: true });
    unmount();
    vi.advanceTimersByTime(INACTIVITY_TIMEOUT_MS * 2);
    expect(onInactive).not.toHaveBeenCalled();
  });

  it('signs a signed-in user out after 15 idle minutes, but not one who keeps working', async () => {
    vi.useFakeTimers();
    fakeAuth.restoreSession();
    renderWithAuth();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(state()).toHaveTextContent('signed in');

    await act(() => vi.advanceTimersByTimeAsync(10 * 60 * 1000));
    fireEvent.keyDown(window, { key: 'a' });
    await act(() => vi.advanceTimersByTimeAsync(10 * 60 * 1000));
    expect(authClient.signOut).not.toHaveBeenCalled();
    expect(state()).toHaveTextContent('signed in');

    await act(() => vi.advanceTimersByTimeAsync(5 * 60 * 1000));
    expect(authClient.signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(state()).toHaveTextContent('signed out');
  });
});
