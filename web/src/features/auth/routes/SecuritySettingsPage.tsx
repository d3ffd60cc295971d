// /admin/mfa, Security Settings (spec sections 2, 4, 5, 8 and 9): two-factor status, the active
// authenticators with Remove, the four set-up steps, the supported apps, and the set-up panel
// (QR code, manual secret with Copy, 6-digit code, Cancel and 'Enable MFA'). The same screen, with
// the same rules, is every signed-in user's /account/security (audience 'account', under the
// account pages' navigation, which the route table passes in).
import { useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import { formatDate } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useAuth } from '@/lib/auth';
import { ACCOUNT_AUTHENTICATOR_LABEL, AUTHENTICATOR_LABEL, enrolTotp, mfaKeys, removeFactor, useFactors, useRemoveFactor, verifyTotp, type TotpEnrolment } from '../api/factors';
import { CodeInput, ErrorBox, MFA_CODE_LENGTH } from '../components/CodeInput';
import { errorMessage } from '@/lib/api';

export const ACCESS_DENIED_TEXT = 'Access denied. Admin privileges required.';
export const DISABLE_MFA_CONFIRM_TEXT =
  'Are you sure you want to disable two-factor authentication? This will make your account less secure.';
export const ENROL_FAILED_TEXT = 'Failed to enroll MFA';
export const INVALID_CODE_TEXT = 'Invalid verification code';
export const NO_FACTOR_ID_TEXT = 'No factor ID available';
/** How long the 'Copied!' marker stays after copying the secret. */
export const COPIED_MARKER_MS = 2000;

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
          <p role="alert" className="mt-4 text-sm text-red-800">
            {errorMessage(factors.error, 'Could not load your two-factor settings.')}
          </p>
        ) : settingUp ? (
          <SetupPanel
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
          <ActiveAuthenticators factors={active} />
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

interface ActiveFactor {
  id: string;
  friendly_name?: string;
  created_at: string;
}

function ActiveAuthenticators({ factors }: { factors: ActiveFactor[] }) {
  const remove = useRemoveFactor();

  const onRemove = (factorId: string) => {
    if (!window.confirm(DISABLE_MFA_CONFIRM_TEXT)) return;
    remove.mutate(factorId, {
      onError: (error) => {
        console.error('Removing the authenticator failed', error);
        window.alert(`Error disabling MFA: ${errorMessage(error, 'Unknown error')}`);
      },
    });
  };

  return (
    <div className="mt-4">
      <h3 className="text-base font-semibold text-slate-900">Active Authenticators</h3>
      <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200">
        {factors.map((factor) => (
          <li key={factor.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <div>
              <p className="font-medium text-slate-900">{factor.friendly_name?.trim() ? factor.friendly_name : 'Authenticator app'}</p>
              <p className="text-sm text-slate-500">Added {formatDate(factor.created_at)}</p>
            </div>
            <button
              type="button"
              className="btn-secondary text-red-700"
              disabled={remove.isPending && remove.variables === factor.id}
              onClick={() => onRemove(factor.id)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface SetupPanelProps {
  label: string;
  onCancelled: () => void;
  onEnabled: () => void;
}

type Enrolment = { state: 'enrolling' } | { state: 'failed'; message: string } | ({ state: 'ready' } & TotpEnrolment);

function SetupPanel({ label, onCancelled, onEnabled }: SetupPanelProps) {
  const [enrolment, setEnrolment] = useState<Enrolment>({ state: 'enrolling' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const started = useRef(false);

  // Enrol once per opening of the panel (the ref keeps StrictMode's second effect run from
  // enrolling a second factor).
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    enrolTotp(label).then(
      (result) => setEnrolment({ state: 'ready', ...result }),
      (thrown: unknown) => {
        console.error('MFA enrolment failed', thrown);
        setEnrolment({ state: 'failed', message: errorMessage(thrown, ENROL_FAILED_TEXT) });
      },
    );
  }, [label]);

  const factorId = enrolment.state === 'ready' ? enrolment.factorId : null;

  const onCancel = async () => {
    setCancelling(true);
    // The pending factor is dropped; should that fail, the next set-up removes it anyway.
    if (factorId) await removeFactor(factorId).catch((thrown: unknown) => console.error('Could not remove the pending factor', thrown));
    onCancelled();
  };

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (verifying || code.length !== MFA_CODE_LENGTH) return;
    if (!factorId) {
      setError(NO_FACTOR_ID_TEXT);
      return;
    }
    setVerifying(true);
    setError(null);
    try {
      await verifyTotp(factorId, code);
    } catch (thrown) {
      console.error('MFA verification failed', thrown);
      setError(errorMessage(thrown, INVALID_CODE_TEXT));
      setVerifying(false);
      return;
    }
    setVerifying(false);
    onEnabled();
  };

  return (
    <div className="mt-4 space-y-6">
      <h3 className="text-base font-semibold text-slate-900">Set Up Two-Factor Authentication</h3>
      {enrolment.state === 'enrolling' ? (
        <p role="status" className="text-slate-500">
          Preparing your QR code...
        </p>
      ) : null}
      {enrolment.state === 'failed' ? <ErrorBox message={enrolment.message} /> : null}
      {enrolment.state === 'ready' ? (
        <>
          <div>
            <p className="text-sm text-slate-700">1. Scan this QR code with your authenticator app.</p>
            <div className="mt-3 inline-block rounded-xl border border-slate-200 bg-white p-3">
              <QRCodeSVG value={enrolment.uri} size={256} marginSize={1} level="M" title="QR code for your authenticator app" />
            </div>
          </div>
          <div>
            <p className="text-sm text-slate-700">
              2. Or enter this secret key by hand:
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <code className="rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900" data-testid="mfa-secret">
                {enrolment.secret}
              </code>
              <CopyButton text={enrolment.secret} />
            </div>
          </div>
        </>
      ) : null}
      <form onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-busy={verifying}>
        <ErrorBox message={error} />
        <CodeInput
          label="3. Enter the 6-digit code from the app"
          value={code}
          onChange={setCode}
          disabled={verifying || enrolment.state === 'failed'}
          invalid={Boolean(error)}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={() => void onCancel()} disabled={cancelling || verifying}>
            Cancel
          </button>
          <button type="submit" className="btn-primary" disabled={verifying || code.length !== MFA_CODE_LENGTH}>
            {verifying ? 'Verifying...' : 'Enable MFA'}
          </button>
        </div>
      </form>
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copiedAt, setCopiedAt] = useState<number | null>(null);

  useEffect(() => {
    if (copiedAt === null) return;
    const timer = window.setTimeout(() => setCopiedAt(null), COPIED_MARKER_MS);
    return () => window.clearTimeout(timer);
  }, [copiedAt]);

  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopiedAt(Date.now());
    } catch (error) {
      console.error('Copying the secret failed', error);
    }
  };

  return (
    <>
      <button type="button" className="btn-secondary" onClick={() => void onCopy()}>
        Copy
      </button>
      <span role="status" className="text-sm font-medium text-green-700">
        {copiedAt !== null ? 'Copied!' : ''}
      </span>
    </>
  );
}
