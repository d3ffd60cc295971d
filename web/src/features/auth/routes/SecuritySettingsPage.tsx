// /admin/mfa, Security Settings (spec sections 2, 4, 5, 8 and 9): two-factor status, the active
// authenticators with Remove, the four set-up steps, the supported apps, and the set-up panel
// (QR code, manual secret with Copy, 6-digit code, Cancel and 'Enable MFA'). The same screen, with
// the same rules, is every signed-in user's /account/security (audience 'account', under the
// account pages' navigation, which the route table passes in). With two-factor on, the recovery
// codes panel follows the authenticators.
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useAuth } from '@/lib/auth';
import { ACCOUNT_AUTHENTICATOR_LABEL, AUTHENTICATOR_LABEL, mfaKeys, useFactors } from '../api/factors';
import { ActiveAuthenticators } from '../components/ActiveAuthenticators';
import { RecoveryCodesPanel } from '../components/RecoveryCodesPanel';
import { TotpSetupPanel } from '../components/TotpSetupPanel';

export { COPIED_MARKER_MS } from '../components/CopyButton';
export { DISABLE_MFA_CONFIRM_TEXT } from '../components/RemoveFactorDialog';
export { ENROL_FAILED_TEXT, INVALID_CODE_TEXT, NO_FACTOR_ID_TEXT } from '../components/TotpSetupPanel';

export const ACCESS_DENIED_TEXT = 'Access denied. Admin privileges required.';

export const AUTHENTICATOR_APPS = ['Google Authenticator', 'Microsoft Authenticator', 'Authy', '1Password'] as const;

const SETUP_STEPS = [
  'Install an authenticator app on your phone (see the supported apps below).',
  'Click "Enable Two-Factor Authentication" to start the set-up.',
  'Scan the QR code with your authenticator app, or enter the secret key by hand.',
  'Enter the 6-digit code from the app to confirm and turn two-factor authentication on.',
];

interface SecuritySettingsPageProps {
  /** 'admin': /admin/mfa, for admins only. 'account': /account/security, for every signed-in user. */
  audience?: 'admin' | 'account';
  /** Shown under the heading (the account pages' navigation). */
  nav?: ReactNode;
}

export function SecuritySettingsPage({ audience = 'admin', nav }: SecuritySettingsPageProps) {
  const forAccount = audience === 'account';
  const title = forAccount ? 'Security' : 'Security Settings';
  useDocumentHead({ title: `${title} | ${SITE_NAME}`, robots: 'noindex' });
  const { user, isAdmin, loading } = useAuth();

  let body;
  if (loading) body = <p role="status" className="mt-6 text-slate-500">Loading ...</p>;
  else if (!user || (!forAccount && !isAdmin))
    body = <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">{ACCESS_DENIED_TEXT}</p>;
  else body = <TwoFactorSettings label={forAccount ? ACCOUNT_AUTHENTICATOR_LABEL : AUTHENTICATOR_LABEL} />;

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      {nav}
      <p className="mt-2 text-slate-600">
        {forAccount ? 'Protect your account with two-factor authentication.' : 'Protect your admin account with two-factor authentication.'}
      </p>
      {body}
    </div>
  );
}

function TwoFactorSettings({ label }: { label: string }) {
  const factors = useFactors();
  const queryClient = useQueryClient();
  const [settingUp, setSettingUp] = useState(false);

  const recheck = () => queryClient.invalidateQueries({ queryKey: mfaKeys.factors() });
  const active = factors.data?.totp ?? [];
  const enabled = active.length > 0;

  return (
    <>
      <section aria-labelledby="two-factor-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="two-factor-heading" className="text-xl font-semibold text-slate-900">
            Two-Factor Authentication
          </h2>
          {factors.isSuccess ? (
            <p className="text-sm text-slate-600">
              Status:{' '}
              <span
                className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${enabled ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-700'}`}
              >
                {enabled ? 'Enabled' : 'Disabled'}
              </span>
            </p>
          ) : null}
        </div>
        {factors.isPending ? (
          <p role="status" className="mt-4 text-slate-500">
            Loading ...
          </p>
        ) : factors.isError ? (
          <LoadError className={`mt-4 ${LOAD_ERROR_CLASS}`} error={factors.error} title="Could not load your two-factor settings." retrying={factors.isFetching} onRetry={() => void factors.refetch()} />
        ) : settingUp ? (
          <TotpSetupPanel
            label={label}
            onCancelled={() => {
              setSettingUp(false);
              void recheck();
            }}
            onEnabled={() => {
              setSettingUp(false);
              void recheck();
            }}
          />
        ) : enabled ? (
          <>
            <ActiveAuthenticators factors={active} />
            <RecoveryCodesPanel />
          </>
        ) : (
          <div className="mt-4">
            <p className="text-slate-600">
              Two-factor authentication adds a second step to signing in: a 6-digit code from an app on your phone.
            </p>
            <ol className="mt-4 list-decimal space-y-2 pl-6 text-slate-700">
              {SETUP_STEPS.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
            <button type="button" className="btn-primary mt-6" onClick={() => setSettingUp(true)}>
              Enable Two-Factor Authentication
            </button>
          </div>
        )}
      </section>

      <section aria-labelledby="apps-heading" className="mt-6 rounded-2xl border border-brand-100 bg-brand-50 p-6">
        <h2 id="apps-heading" className="text-lg font-semibold text-brand-900">
          Supported Authenticator Apps
        </h2>
        <p className="mt-1 text-sm text-brand-800">Any app that supports time-based one-time passwords (TOTP) works, including:</p>
        <ul className="mt-3 grid gap-2 text-sm text-brand-900 sm:grid-cols-2">
          {AUTHENTICATOR_APPS.map((app) => (
            <li key={app} className="flex items-center gap-2">
              <span aria-hidden="true">✓</span>
              {app}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
