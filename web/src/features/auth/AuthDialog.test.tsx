import { AuthApiError, AuthRetryableFetchError, AuthWeakPasswordError } from '@supabase/auth-js';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { authClient } from '@/lib/authClient';
import { fakeAuth, VALID_CODE } from '@/test/fakeAuthClient';
import { renderWithAuth } from '@/test/utils';

async function openDialog() {
  const user = userEvent.setup();
  renderWithAuth();
  await waitFor(() => expect(screen.getByTestId('auth-state')).toHaveTextContent('signed out'));
  await user.click(screen.getByRole('button', { name: 'Open sign in' }));
  // The sign-in code loads on first use: the dialog opens once it is there.
  return { user, dialog: await screen.findByRole('dialog', { name: 'Sign In' }) };
}

function field(dialog: HTMLElement, name: string) {
  return within(dialog).getByLabelText(name);
}

async function signInAs(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, email = 'tech@example.co.nz', password = 'correct horse') {
  await user.type(field(dialog, 'Email'), email);
  await user.type(field(dialog, 'Password'), password);
  await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
}

describe('Sign In', () => {
  it('asks for an email (type email) and a password, both required, with the email focused', async () => {
    const { dialog } = await openDialog();
    const email = field(dialog, 'Email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(email).toHaveFocus();
    expect(field(dialog, 'Password')).toHaveAttribute('type', 'password');
    expect(field(dialog, 'Password')).toBeRequired();
    expect(within(dialog).queryByLabelText('Full Name')).not.toBeInTheDocument();
  });

  it('signs in with the email and password and closes', async () => {
    const { user, dialog } = await openDialog();
    await signInAs(user, dialog, 'ana@example.co.nz', 'secret-pass');
    expect(authClient.signInWithPassword).toHaveBeenCalledWith({ email: 'ana@example.co.nz', password: 'secret-pass' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('auth-state')).toHaveTextContent('signed in as ana@example.co.nz');
  });

  it("shows the error's message in a red box", async () => {
    vi.mocked(authClient.signInWithPassword).mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'),
    });
    const { user, dialog } = await openDialog();
    await signInAs(user, dialog);
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Invalid login credentials');
    expect(alert).toHaveClass('bg-red-50');
    expect(screen.getByRole('dialog', { name: 'Sign In' })).toBeInTheDocument();
  });

  it("falls back to 'An error occurred' for an error without a message", async () => {
    vi.mocked(authClient.signInWithPassword).mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthApiError('', 500, undefined),
    });
    const { user, dialog } = await openDialog();
    await signInAs(user, dialog);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^An error occurred$/);
  });

  it("shows 'An error occurred' for a server failure, which auth-js reports with the message '{}'", async () => {
    vi.mocked(authClient.signInWithPassword).mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthRetryableFetchError('{}', 503),
    });
    const { user, dialog } = await openDialog();
    await signInAs(user, dialog);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^An error occurred$/);
  });

  it("shows 'An error occurred' when the call throws something that is not an Error", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(authClient.signInWithPassword).mockRejectedValueOnce('boom');
    const { user, dialog } = await openDialog();
    await signInAs(user, dialog);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^An error occurred$/);
  });

  it('closes with the close button and starts fresh when opened again', async () => {
    const { user, dialog } = await openDialog();
    await user.type(field(dialog, 'Email'), 'ana@example.co.nz');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open sign in' }));
    expect(field(screen.getByRole('dialog', { name: 'Sign In' }), 'Email')).toHaveValue('');
  });
});

describe('Create Account', () => {
  async function openCreateAccount() {
    const opened = await openDialog();
    await opened.user.click(within(opened.dialog).getByRole('button', { name: 'Create Account' }));
    return { user: opened.user, dialog: screen.getByRole('dialog', { name: 'Create Account' }) };
  }

  async function fill(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, values: { name: string; email: string; password: string }) {
    if (values.name) await user.type(field(dialog, 'Full Name'), values.name);
    await user.type(field(dialog, 'Email'), values.email);
    await user.type(field(dialog, 'Password'), values.password);
    await user.click(within(dialog).getByRole('button', { name: 'Create Account' }));
  }

  it('toggles to full name, email and password (at least 6 characters), all required, and back', async () => {
    const { user, dialog } = await openCreateAccount();
    expect(field(dialog, 'Full Name')).toBeRequired();
    expect(field(dialog, 'Full Name')).toHaveFocus();
    expect(field(dialog, 'Email')).toHaveAttribute('type', 'email');
    expect(field(dialog, 'Email')).toBeRequired();
    expect(field(dialog, 'Password')).toHaveAttribute('minlength', '6');
    expect(field(dialog, 'Password')).toBeRequired();
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('dialog', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('refuses a password shorter than 6 characters without calling the server', async () => {
    const { user, dialog } = await openCreateAccount();
    field(dialog, 'Password').removeAttribute('minlength');
    await fill(user, dialog, { name: 'Ana Smith', email: 'ana@example.co.nz', password: '12345' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Password must be at least 6 characters');
    expect(authClient.signUp).not.toHaveBeenCalled();
  });

  it('refuses a blank full name', async () => {
    const { user, dialog } = await openCreateAccount();
    await fill(user, dialog, { name: '   ', email: 'ana@example.co.nz', password: 'secret-pass' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Full name is required');
    expect(authClient.signUp).not.toHaveBeenCalled();
  });

  it('signs up with the full name as user data and asks to confirm the email when there is no session', async () => {
    const { user, dialog } = await openCreateAccount();
    await fill(user, dialog, { name: ' Ana Smith ', email: 'ana@example.co.nz', password: 'secret-pass' });
    expect(authClient.signUp).toHaveBeenCalledWith({
      email: 'ana@example.co.nz',
      password: 'secret-pass',
      options: { data: { full_name: 'Ana Smith' } },
    });
    const signIn = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(within(signIn).getByRole('status')).toHaveTextContent('Check your email for a link to confirm your account.');
    expect(field(signIn, 'Email')).toHaveValue('ana@example.co.nz');
    expect(field(signIn, 'Password')).toHaveValue('');
  });

  it('closes when sign-up returns a session (email confirmation off)', async () => {
    vi.mocked(authClient.signUp).mockImplementationOnce((credentials) => {
      const session = fakeAuth.signIn({ email: 'email' in credentials ? credentials.email : '' });
      return Promise.resolve({ data: { user: session.user, session }, error: null });
    });
    const { user, dialog } = await openCreateAccount();
    await fill(user, dialog, { name: 'Ana Smith', email: 'ana@example.co.nz', password: 'secret-pass' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('auth-state')).toHaveTextContent('signed in as ana@example.co.nz');
  });

  it("shows the server's message for a weak password", async () => {
    vi.mocked(authClient.signUp).mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthWeakPasswordError('Password is known to be weak and easy to guess, please choose a different one.', 422, ['pwned']),
    });
    const { user, dialog } = await openCreateAccount();
    await fill(user, dialog, { name: 'Ana Smith', email: 'ana@example.co.nz', password: 'password' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Password is known to be weak and easy to guess, please choose a different one.',
    );
  });
});

describe('Forgot your password?', () => {
  it('sends a reset link to the email, back to this site, and says so without revealing accounts', async () => {
    const { user, dialog } = await openDialog();
    await user.type(field(dialog, 'Email'), 'ana@example.co.nz');
    await user.click(within(dialog).getByRole('button', { name: 'Forgot your password?' }));
    const reset = screen.getByRole('dialog', { name: 'Reset Password' });
    expect(field(reset, 'Email')).toHaveValue('ana@example.co.nz');
    expect(within(reset).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(within(reset).getByRole('button', { name: 'Send Reset Link' }));
    expect(authClient.resetPasswordForEmail).toHaveBeenCalledWith('ana@example.co.nz', { redirectTo: `${window.location.origin}/` });
    expect(await within(reset).findByRole('status')).toHaveTextContent(
      'If an account exists for that email, we have sent a link to reset your password.',
    );
    await user.click(within(reset).getByRole('button', { name: 'Back to Sign In' }));
    expect(screen.getByRole('dialog', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('shows a failure in the red box', async () => {
    vi.mocked(authClient.resetPasswordForEmail).mockResolvedValueOnce({
      data: null,
      error: new AuthApiError('For security purposes, you can only request this after 60 seconds.', 429, 'over_email_send_rate_limit'),
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Forgot your password?' }));
    const reset = screen.getByRole('dialog', { name: 'Reset Password' });
    await user.type(field(reset, 'Email'), 'ana@example.co.nz');
    await user.click(within(reset).getByRole('button', { name: 'Send Reset Link' }));
    expect(await within(reset).findByRole('alert')).toHaveTextContent('only request this after 60 seconds');
  });
});

describe('the code step after a password sign-in', () => {
  async function reachCodeStep() {
    fakeAuth.addFactor();
    const opened = await openDialog();
    await signInAs(opened.user, opened.dialog);
    const dialog = await screen.findByRole('dialog', { name: 'Two-Factor Authentication' });
    return { user: opened.user, dialog, code: within(dialog).getByLabelText('Verification code') };
  }

  it('opens when the account has a verified authenticator and the session is at aal1', async () => {
    const { dialog, code } = await reachCodeStep();
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(within(dialog).getByRole('button', { name: 'Verify' })).toBeDisabled();
    expect(screen.getByTestId('auth-state')).toHaveTextContent('[needs mfa]');
  });

  it('does not open for an account without an authenticator', async () => {
    const { user, dialog } = await openDialog();
    await signInAs(user, dialog);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(authClient.mfa.challenge).not.toHaveBeenCalled();
  });

  it('takes digits only, at most 6, and enables Verify at exactly 6', async () => {
    const { user, dialog, code } = await reachCodeStep();
    const verify = within(dialog).getByRole('button', { name: 'Verify' });
    await user.type(code, '12a-3 4');
    expect(code).toHaveValue('1234');
    expect(verify).toBeDisabled();
    await user.type(code, '5');
    expect(verify).toBeDisabled();
    await user.type(code, '6');
    expect(code).toHaveValue('123456');
    expect(verify).toBeEnabled();
    await user.type(code, '7');
    expect(code).toHaveValue('123456');
    await user.clear(code);
    await user.paste('98 76 54 32');
    expect(code).toHaveValue('987654');
  });

  it('challenges and verifies the first verified TOTP factor, then closes', async () => {
    const { user, dialog, code } = await reachCodeStep();
    const [factor] = fakeAuth.factors;
    await user.type(code, VALID_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(authClient.mfa.challenge).toHaveBeenCalledWith({ factorId: factor!.id });
    expect(authClient.mfa.verify).toHaveBeenCalledWith({ factorId: factor!.id, challengeId: `challenge-${factor!.id}`, code: VALID_CODE });
    await waitFor(() => expect(screen.getByTestId('auth-state')).not.toHaveTextContent('[needs mfa]'));
    expect(screen.getByTestId('auth-state')).toHaveTextContent('signed in as tech@example.co.nz');
  });

  it('takes a recovery code instead, through the same verify call, and refuses a wrong one', async () => {
    const { user, dialog } = await reachCodeStep();
    const [factor] = fakeAuth.factors;
    await user.click(within(dialog).getByRole('button', { name: 'Use a recovery code' }));
    const recovery = within(dialog).getByLabelText('Recovery code');
    const verify = within(dialog).getByRole('button', { name: 'Verify' });
    await user.type(recovery, 'abcde-1234');
    expect(verify).toBeDisabled();
    await user.type(recovery, '5');
    expect(verify).toBeEnabled();
    await user.click(verify);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Invalid TOTP code entered');
    expect(authClient.mfa.verify).toHaveBeenCalledWith({ factorId: factor!.id, challengeId: `challenge-${factor!.id}`, code: 'abcde-12345' });
    await user.click(within(dialog).getByRole('button', { name: 'Use your authenticator app' }));
    expect(within(dialog).getByLabelText('Verification code')).toHaveValue('');
  });

  it("shows the error's message for a wrong code, and 'Invalid verification code' without one", async () => {
    const { user, dialog, code } = await reachCodeStep();
    await user.type(code, '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Invalid TOTP code entered');

    vi.mocked(authClient.mfa.verify).mockResolvedValueOnce({ data: null, error: new AuthApiError('', 422, 'mfa_verification_failed') });
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent(/^Invalid verification code$/));
    expect(screen.getByRole('dialog', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
  });

  it("says 'No MFA factor found' when the account has no verified TOTP factor", async () => {
    const { user, dialog, code } = await reachCodeStep();
    vi.mocked(authClient.mfa.listFactors).mockResolvedValueOnce({ data: { all: [], totp: [], phone: [], webauthn: [] }, error: null });
    await user.type(code, VALID_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No MFA factor found');
    expect(authClient.mfa.challenge).not.toHaveBeenCalled();
  });

  it('Cancel signs out and returns to Sign In with the password cleared', async () => {
    const { user, dialog } = await reachCodeStep();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const signIn = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(authClient.signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(field(signIn, 'Password')).toHaveValue('');
    expect(field(signIn, 'Email')).toHaveValue('tech@example.co.nz');
    await waitFor(() => expect(screen.getByTestId('auth-state')).toHaveTextContent('signed out'));
  });

  it('is not dismissed by Escape: only the code or Cancel leave it', async () => {
    const { user } = await reachCodeStep();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
  });
});
