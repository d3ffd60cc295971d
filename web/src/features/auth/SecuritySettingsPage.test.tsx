import { AuthApiError } from '@supabase/auth-js';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as QrCodeModule from 'qrcode.react';
import { QRCodeSVG } from 'qrcode.react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authClient } from '@/lib/authClient';
import { FAKE_SECRET, FAKE_URI, fakeAuth, VALID_CODE } from '@/test/fakeAuthClient';
import { renderWithAuth } from '@/test/utils';
import { ACCOUNT_AUTHENTICATOR_LABEL, AUTHENTICATOR_LABEL } from './api/factors';
import { COPIED_MARKER_MS, DISABLE_MFA_CONFIRM_TEXT, SecuritySettingsPage } from './routes/SecuritySettingsPage';

// The real QR component, watched so that its props can be checked.
vi.mock('qrcode.react', async (importOriginal) => {
  const actual = await importOriginal<typeof QrCodeModule>();
  const { createElement } = await import('react');
  type Props = Parameters<typeof actual.QRCodeSVG>[0];
  return { ...actual, QRCodeSVG: vi.fn((props: Props) => createElement(actual.QRCodeSVG, props)) };
});

const admin = { email: 'admin@example.test', roles: ['admin'] };

function renderPage() {
  return renderWithAuth(
    <MemoryRouter initialEntries={['/admin/mfa']}>
      <SecuritySettingsPage />
    </MemoryRouter>,
  );
}

function twoFactorSection() {
  return screen.getByRole('region', { name: 'Two-Factor Authentication' });
}

async function openSetup() {
  const user = userEvent.setup();
  fakeAuth.restoreSession(admin, 'aal1');
  renderPage();
  await user.click(await screen.findByRole('button', { name: 'Enable Two-Factor Authentication' }));
  return { user, section: twoFactorSection() };
}

describe('Security: every signed-in user at /account/security', () => {
  it('lets a customer without the admin role set up two-factor, named after the company', async () => {
    const user = userEvent.setup();
    fakeAuth.restoreSession({ email: 'customer@example.test', roles: [] }, 'aal1');
    renderWithAuth(
      <MemoryRouter initialEntries={['/account/security']}>
        <SecuritySettingsPage audience="account" nav={<nav aria-label="Account" />} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Security' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Account' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Enable Two-Factor Authentication' }));
    await screen.findByTestId('mfa-secret');
    expect(authClient.mfa.enroll).toHaveBeenCalledWith({ factorType: 'totp', friendlyName: ACCOUNT_AUTHENTICATOR_LABEL, issuer: ACCOUNT_AUTHENTICATOR_LABEL });
    expect(screen.queryByText('Access denied. Admin privileges required.')).not.toBeInTheDocument();
    expect(document.title).toBe('Security | Signalcraft');
  });
});

describe('Security Settings: access', () => {
  it("shows 'Loading ...' while the session loads, then denies a non-admin", async () => {
    fakeAuth.restoreSession({ roles: [] });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Security Settings' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading ...');
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied. Admin privileges required.');
    expect(authClient.mfa.listFactors).not.toHaveBeenCalled();
  });

  it('sets a noindex title', async () => {
    fakeAuth.restoreSession(admin);
    renderPage();
    await screen.findByText('Disabled');
    expect(document.title).toBe('Security Settings | Signalcraft');
  });
});

describe('Security Settings: status', () => {
  it('when disabled: status, the four set-up steps, the enable button and the supported apps', async () => {
    fakeAuth.restoreSession(admin);
    renderPage();
    const section = await screen.findByRole('region', { name: 'Two-Factor Authentication' });
    expect(await within(section).findByText('Disabled')).toBeInTheDocument();
    expect(within(section).getAllByRole('listitem')).toHaveLength(4);
    expect(within(section).getByRole('button', { name: 'Enable Two-Factor Authentication' })).toBeInTheDocument();
    const apps = screen.getByRole('region', { name: 'Supported Authenticator Apps' });
    expect(within(apps).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '✓Google Authenticator',
      '✓Microsoft Authenticator',
      '✓Authy',
      '✓1Password',
    ]);
  });

  it('when enabled: the active authenticators with name and en-NZ added date, and no enable button', async () => {
    fakeAuth.addFactor({ friendly_name: 'Work phone', created_at: '2025-10-02T01:00:00Z' });
    fakeAuth.addFactor({ friendly_name: '', created_at: '2025-12-31T12:30:00Z' });
    fakeAuth.addFactor({ status: 'unverified', friendly_name: 'Abandoned' });
    fakeAuth.restoreSession(admin, 'aal2');
    renderPage();
    const section = await screen.findByRole('region', { name: 'Two-Factor Authentication' });
    expect(await within(section).findByText('Enabled')).toBeInTheDocument();
    const items = within(section).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Work phone');
    expect(items[0]).toHaveTextContent('Added 2 Oct 2025');
    // 12:30 UTC on 31 December is 1 January in New Zealand.
    expect(items[1]).toHaveTextContent('Authenticator app');
    expect(items[1]).toHaveTextContent('Added 1 Jan 2026');
    expect(within(section).queryByRole('button', { name: 'Enable Two-Factor Authentication' })).not.toBeInTheDocument();
    expect(screen.queryByText('Abandoned')).not.toBeInTheDocument();
  });
});

describe('Security Settings: removing an authenticator', () => {
  beforeEach(() => {
    fakeAuth.addFactor({ friendly_name: 'Work phone' });
    fakeAuth.restoreSession(admin, 'aal2');
  });

  it('asks first, and does nothing when the answer is no', async () => {
    const user = userEvent.setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(confirm).toHaveBeenCalledWith(DISABLE_MFA_CONFIRM_TEXT);
    // The spec's confirmation, word for word.
    expect(DISABLE_MFA_CONFIRM_TEXT).toBe(
      'Are you sure you want to disable two-factor authentication? This will make your account less secure.',
    );
    expect(authClient.mfa.unenroll).not.toHaveBeenCalled();
  });

  it('removes the factor after confirmation and shows Disabled', async () => {
    const user = userEvent.setup();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const [factor] = fakeAuth.factors;
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(authClient.mfa.unenroll).toHaveBeenCalledWith({ factorId: factor!.id });
    expect(await within(twoFactorSection()).findByText('Disabled')).toBeInTheDocument();
  });

  it("alerts 'Error disabling MFA: <message>' on failure", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    vi.mocked(authClient.mfa.unenroll).mockResolvedValueOnce({
      data: null,
      error: new AuthApiError('AAL2 required to unenroll verified factor', 403, 'insufficient_aal'),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Error disabling MFA: AAL2 required to unenroll verified factor'));
    expect(within(twoFactorSection()).getByText('Enabled')).toBeInTheDocument();
  });
});

describe('Security Settings: setting up', () => {
  it('removes earlier unverified factors, then enrols a TOTP factor with the product label', async () => {
    const stale = fakeAuth.addFactor({ status: 'unverified' });
    const { section } = await openSetup();
    await within(section).findByText(FAKE_SECRET);
    expect(authClient.mfa.unenroll).toHaveBeenCalledWith({ factorId: stale.id });
    expect(authClient.mfa.enroll).toHaveBeenCalledTimes(1);
    expect(authClient.mfa.enroll).toHaveBeenCalledWith({ factorType: 'totp', friendlyName: AUTHENTICATOR_LABEL, issuer: AUTHENTICATOR_LABEL });
    expect(vi.mocked(authClient.mfa.unenroll).mock.invocationCallOrder[0]).toBeLessThan(
      vi.mocked(authClient.mfa.enroll).mock.invocationCallOrder[0]!,
    );
  });

  it('shows the QR code of the otpauth URI (256 px, margin 1) and the manual secret', async () => {
    const { section } = await openSetup();
    const qr = await within(section).findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr).toHaveAttribute('width', '256');
    expect(qr).toHaveAttribute('height', '256');
    expect(vi.mocked(QRCodeSVG).mock.lastCall![0]).toMatchObject({ value: FAKE_URI, size: 256, marginSize: 1, level: 'M' });
    expect(within(section).getByText(FAKE_SECRET)).toBeInTheDocument();
  });

  it("copies the secret and shows 'Copied!' for 2 seconds", async () => {
    const { section } = await openSetup();
    await within(section).findByText(FAKE_SECRET);
    // userEvent.setup() gives the window a clipboard stub; watch what is written to it.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    vi.useFakeTimers();
    try {
      fireEvent.click(within(section).getByRole('button', { name: 'Copy' }));
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(writeText).toHaveBeenCalledWith(FAKE_SECRET);
      expect(within(section).getByText('Copied!')).toBeInTheDocument();
      expect(COPIED_MARKER_MS).toBe(2000); // spec section 9: the copied marker shows for 2 s
      await act(() => vi.advanceTimersByTimeAsync(COPIED_MARKER_MS - 1));
      expect(within(section).getByText('Copied!')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(within(section).queryByText('Copied!')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes digits only, at most 6, and enables 'Enable MFA' at exactly 6", async () => {
    const { user, section } = await openSetup();
    await within(section).findByText(FAKE_SECRET);
    const code = within(section).getByLabelText(/6-digit code/);
    const enable = within(section).getByRole('button', { name: 'Enable MFA' });
    expect(enable).toBeDisabled();
    await user.type(code, '1x2y3z45');
    expect(code).toHaveValue('12345');
    expect(enable).toBeDisabled();
    await user.type(code, '67');
    expect(code).toHaveValue('123456');
    expect(enable).toBeEnabled();
  });

  it("shows 'Verifying...' while working, then returns to the status view as Enabled", async () => {
    const { user, section } = await openSetup();
    await within(section).findByText(FAKE_SECRET);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const original = vi.mocked(authClient.mfa.challenge).getMockImplementation()!;
    vi.mocked(authClient.mfa.challenge).mockImplementationOnce(async (params) => {
      await held;
      return original(params);
    });
    await user.type(within(section).getByLabelText(/6-digit code/), VALID_CODE);
    await user.click(within(section).getByRole('button', { name: 'Enable MFA' }));
    expect(within(section).getByRole('button', { name: 'Verifying...' })).toBeDisabled();
    release();
    expect(await within(section).findByText('Enabled')).toBeInTheDocument();
    expect(within(section).getByText(AUTHENTICATOR_LABEL)).toBeInTheDocument();
    expect(authClient.mfa.verify).toHaveBeenCalledWith({ factorId: fakeAuth.factors[0]!.id, challengeId: `challenge-${fakeAuth.factors[0]!.id}`, code: VALID_CODE });
  });

  it("shows the error's message for a wrong code, or 'Invalid verification code'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, section } = await openSetup();
    await within(section).findByText(FAKE_SECRET);
    await user.type(within(section).getByLabelText(/6-digit code/), '000000');
    await user.click(within(section).getByRole('button', { name: 'Enable MFA' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('Invalid TOTP code entered');

    vi.mocked(authClient.mfa.verify).mockResolvedValueOnce({ data: null, error: new AuthApiError('', 422, undefined) });
    await user.click(within(section).getByRole('button', { name: 'Enable MFA' }));
    await waitFor(() => expect(within(section).getByRole('alert')).toHaveTextContent(/^Invalid verification code$/));
  });

  it("says 'No factor ID available' when the enrolment has not produced a factor", async () => {
    vi.mocked(authClient.mfa.enroll).mockReturnValueOnce(new Promise(() => undefined));
    const { user, section } = await openSetup();
    await user.type(within(section).getByLabelText(/6-digit code/), VALID_CODE);
    await user.click(within(section).getByRole('button', { name: 'Enable MFA' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('No factor ID available');
    expect(authClient.mfa.challenge).not.toHaveBeenCalled();
  });

  it("shows an enrolment failure: the message, or 'Failed to enroll MFA'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(authClient.mfa.enroll).mockResolvedValueOnce({ data: null, error: new AuthApiError('', 500, undefined) });
    const { section } = await openSetup();
    expect(await within(section).findByRole('alert')).toHaveTextContent(/^Failed to enroll MFA$/);
  });

  it('shows the server message of an enrolment failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(authClient.mfa.enroll).mockResolvedValueOnce({
      data: null,
      error: new AuthApiError('Maximum number of verified factors reached, unenroll to continue', 422, 'too_many_enrolled_mfa_factors'),
    });
    const { section } = await openSetup();
    expect(await within(section).findByRole('alert')).toHaveTextContent('Maximum number of verified factors reached');
  });

  it('Cancel removes the pending factor and returns to the status view', async () => {
    const { user, section } = await openSetup();
    await within(section).findByText(FAKE_SECRET);
    const pending = fakeAuth.factors[0]!;
    await user.click(within(section).getByRole('button', { name: 'Cancel' }));
    expect(authClient.mfa.unenroll).toHaveBeenCalledWith({ factorId: pending.id });
    expect(await within(section).findByRole('button', { name: 'Enable Two-Factor Authentication' })).toBeInTheDocument();
    expect(within(section).getByText('Disabled')).toBeInTheDocument();
    expect(fakeAuth.factors).toEqual([]);
  });
});

afterEach(() => {
  vi.useRealTimers();
});
