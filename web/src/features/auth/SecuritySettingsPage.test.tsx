import { AuthApiError } from '@supabase/auth-js';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as QrCodeModule from 'qrcode.react';
import { QRCodeSVG } from 'qrcode.react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authClient } from '@/lib/authClient';
import { FAKE_SECRET, FAKE_URI, fakeAuth, VALID_CODE } from '@/test/fakeAuthClient';
import { jsonResponse, mockApi, renderWithAuth } from '@/test/utils';
import { ACCOUNT_AUTHENTICATOR_LABEL, AUTHENTICATOR_LABEL } from './api/factors';
import { REGENERATE_CONFIRM_TEXT } from './components/RecoveryCodesPanel';
import { REMOVE_CODE_LABEL } from './components/RemoveFactorDialog';
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
  let removed: { path: string; body: unknown }[];
  let removalAnswer: Response | null;
  let codesLeft: { remaining: number; created_at: string | null };

  beforeEach(() => {
    fakeAuth.addFactor({ friendly_name: 'Work phone' });
    fakeAuth.restoreSession(admin, 'aal2');
    removed = [];
    removalAnswer = null;
    codesLeft = { remaining: 0, created_at: null };
    mockApi((url, init) => {
      if (url.pathname === '/api/v1/account/recovery-codes' && (init?.method ?? 'GET') === 'GET') return jsonResponse(200, codesLeft);
      if (url.pathname === '/api/v1/account/recovery-codes' && init?.method === 'POST') {
        codesLeft = { remaining: 10, created_at: '2026-03-01T00:00:00Z' };
        return jsonResponse(200, { ...codesLeft, codes: Array.from({ length: 10 }, (_, i) => `abcde-${String(10000 + i)}`) });
      }
      if (url.pathname.startsWith('/auth/v1/factors/') && init?.method === 'DELETE') {
        removed.push({ path: url.pathname, body: JSON.parse(init.body as string) as unknown });
        if (removalAnswer) return removalAnswer;
        const id = decodeURIComponent(url.pathname.split('/').pop()!);
        fakeAuth.factors.splice(fakeAuth.factors.findIndex((f) => f.id === id), 1);
        return jsonResponse(200, { id });
      }
      return undefined;
    });
  });

  it("asks in a dialog that says what it does, and Cancel changes nothing", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove authenticator' });
    // The spec's confirmation, word for word.
    expect(DISABLE_MFA_CONFIRM_TEXT).toBe(
      'Are you sure you want to disable two-factor authentication? This will make your account less secure.',
    );
    expect(dialog).toHaveTextContent(DISABLE_MFA_CONFIRM_TEXT);
    expect(within(dialog).getByRole('button', { name: 'Remove authenticator' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(removed).toEqual([]);
    expect(within(twoFactorSection()).getByText('Enabled')).toBeInTheDocument();
  });

  it('removes the factor with a current code and shows Disabled', async () => {
    const user = userEvent.setup();
    const [factor] = fakeAuth.factors;
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove authenticator' });
    await user.type(within(dialog).getByLabelText(REMOVE_CODE_LABEL), '123 456');
    await user.click(within(dialog).getByRole('button', { name: 'Remove authenticator' }));
    expect(await within(twoFactorSection()).findByText('Disabled')).toBeInTheDocument();
    expect(removed).toEqual([{ path: `/auth/v1/factors/${factor!.id}`, body: { code: '123456' } }]);
  });

  it('takes a recovery code as typed', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove authenticator' });
    await user.type(within(dialog).getByLabelText(REMOVE_CODE_LABEL), 'k3x9p-2mv7q');
    await user.click(within(dialog).getByRole('button', { name: 'Remove authenticator' }));
    await waitFor(() => expect(removed[0]?.body).toEqual({ code: 'k3x9p-2mv7q' }));
  });

  it("shows 'Error disabling MFA: <message>' in the dialog when the server refuses the code", async () => {
    const user = userEvent.setup();
    removalAnswer = jsonResponse(422, { code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove authenticator' });
    await user.type(within(dialog).getByLabelText(REMOVE_CODE_LABEL), '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Remove authenticator' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error disabling MFA: Invalid TOTP code entered');
    expect(within(twoFactorSection()).getByText('Enabled')).toBeInTheDocument();
  });
});

describe('Security Settings: recovery codes', () => {
  let codesLeft: { remaining: number; created_at: string | null };
  let made: number;

  beforeEach(() => {
    fakeAuth.addFactor({ friendly_name: 'Work phone' });
    fakeAuth.restoreSession(admin, 'aal2');
    codesLeft = { remaining: 0, created_at: null };
    made = 0;
    mockApi((url, init) => {
      if (url.pathname !== '/api/v1/account/recovery-codes') return undefined;
      if (init?.method !== 'POST') return jsonResponse(200, codesLeft);
      made += 1;
      codesLeft = { remaining: 10, created_at: '2026-03-01T00:00:00Z' };
      return jsonResponse(200, { ...codesLeft, codes: Array.from({ length: 10 }, (_, i) => `set${String(made)}a-${String(10000 + i)}`) });
    });
  });

  it('shows a new set once, with Copy and Download, then the count left', async () => {
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('You have no recovery codes yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Generate recovery codes' }));
    const codes = await screen.findByRole('region', { name: 'Your new recovery codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(within(codes).getByText('set1a-10000')).toBeInTheDocument();
    expect(within(codes).getByRole('button', { name: 'Copy codes' })).toBeInTheDocument();
    expect(within(codes).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    await user.click(within(codes).getByRole('button', { name: 'I have saved my codes' }));
    expect(screen.queryByText('set1a-10000')).not.toBeInTheDocument();
    expect(await screen.findByText('10 of 10 recovery codes left')).toBeInTheDocument();
  });

  it('says the old codes stop working before making a new set, and Cancel keeps them', async () => {
    const user = userEvent.setup();
    codesLeft = { remaining: 7, created_at: '2026-02-01T00:00:00Z' };
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Generate new recovery codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate new recovery codes?' });
    expect(dialog).toHaveTextContent(REGENERATE_CONFIRM_TEXT);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(made).toBe(0);
    expect(screen.getByText('7 of 10 recovery codes left')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Generate new recovery codes' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Generate new codes' }));
    expect(await screen.findByText('set1a-10000')).toBeInTheDocument();
    expect(made).toBe(1);
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
