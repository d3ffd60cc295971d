// /account/privacy ("Your Data"): what New Zealand's Privacy Act 2020 lets a customer ask for,
// done by themselves. "Download my data" saves everything held about the account as one JSON
// file; "Close my account" asks for the password (and a code when two-factor is on), says what is
// removed and what is kept, then signs out and lands on the home page with a notice.
import { useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormDialog } from '@/components/detail/FormDialog';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useCloseAccount, useDownloadMyData, useTwoFactorOn } from '../api/privacy';

const HEAD = { title: `Your Data | ${SITE_NAME}`, robots: 'noindex' };

/** What the home page says after the account is closed (history state `notice`). */
export const CLOSED_NOTICE = 'Your account has been closed. We have kept only the order and invoice records the law requires.';

const REMOVED = [
  'your profile: name, email address and password',
  'two-factor authenticators and every signed-in session, on all devices',
  'staff roles and enterprise team memberships',
  'your WireWrite profile and certificates',
];
const KEPT = [
  'orders and tax invoices exactly as issued, with their delivery address, for seven years as New Zealand tax law requires; your name and email on them are replaced by "Closed account"',
  'payments and refunds in our accounts, for the same seven years',
  'messages you sent us through the contact form, as our sales correspondence, for up to two years',
];

function CloseAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const { signOut } = useAuth();
  const twoFactor = useTwoFactorOn();
  const close = useCloseAccount();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);
  const needsCode = twoFactor.data === true;
  const fields = isApiError(close.error) ? close.error.fields : {};
  const fieldError = (name: string): string | undefined => fields[name];
  const formError =
    close.error && !fieldError('password') && !fieldError('code') ? errorMessage(close.error, 'Your account could not be closed.') : null;

  function cancel() {
    if (close.isPending) return;
    close.reset();
    setPassword('');
    setCode('');
    onClose();
  }

  function submit() {
    close.mutate(
      { password, code: needsCode ? code.trim() : undefined },
      {
        onSuccess: () => {
          // Home first (this signed-in page would send a signed-out visitor away on its own, and
          // drop the notice); then forget the stored session: the server has ended every one.
          void navigate('/', { replace: true, state: { notice: CLOSED_NOTICE } });
          void signOut();
        },
      },
    );
  }

  return (
    <FormDialog
      open={open}
      title="Close your account?"
      size="lg"
      initialFocusRef={passwordRef}
      closeButton={false}
      confirmLabel="Close my account"
      pendingLabel="Closing..."
      cancelLabel="Keep my account"
      danger
      pending={close.isPending}
      confirmDisabled={twoFactor.isPending}
      error={formError}
      onSubmit={submit}
      onClose={cancel}
    >
      <div className="space-y-4 text-sm text-slate-700">
        <p>This cannot be undone. Any active subscription is cancelled now, with no further charges.</p>
        <div>
          <h3 className="font-semibold text-slate-900">Removed</h3>
          <ul className="mt-1 list-disc pl-5">
            {REMOVED.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="font-semibold text-slate-900">Kept</h3>
          <ul className="mt-1 list-disc pl-5">
            {KEPT.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
        <FormField
          label="Current password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError('password')}
          inputRef={passwordRef}
        />
        {needsCode ? (
          <FormField
            label="Authenticator code"
            hint="The 6-digit code from your authenticator app."
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={fieldError('code')}
          />
        ) : null}
      </div>
    </FormDialog>
  );
}

export interface YourDataPageProps {
  /** Shown under the heading (the account pages' navigation, passed in by the route table). */
  nav?: ReactNode;
}

export function YourDataPage({ nav }: YourDataPageProps = {}) {
  useDocumentHead(HEAD);
  const download = useDownloadMyData();
  const [closing, setClosing] = useState(false);

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 lg:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Your Data</h1>
      {nav}
      <p className="mt-2 text-slate-600">
        New Zealand&apos;s Privacy Act 2020 lets you see the personal information we hold about you and ask us to
        delete it. Both are here. Our <Link className="font-medium text-brand-700 underline hover:text-brand-800" to="/privacy">Privacy Policy</Link>{' '}
        explains what we keep and why.
      </p>

      <section aria-labelledby="download-heading" className="mt-8 rounded-2xl border border-slate-200 p-6">
        <h2 id="download-heading" className="text-xl font-semibold text-slate-900">
          Download my data
        </h2>
        <p className="mt-2 text-slate-600">
          One JSON file with your profile, sign-in methods (never their secrets), orders, subscriptions, invoices,
          enterprise teams, WireWrite profile and certificates, the messages you sent us, and your sign-in history.
        </p>
        <button type="button" className="btn-primary mt-4" onClick={() => download.mutate()} disabled={download.isPending}>
          {download.isPending ? 'Preparing...' : 'Download my data'}
        </button>
        <div aria-live="polite" className="mt-2 text-sm">
          {download.isSuccess ? <p className="text-green-700">Your data was saved as {download.data}.</p> : null}
          {download.isError ? (
            <p className="text-red-700">{errorMessage(download.error, 'Your data could not be downloaded.')}</p>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="close-heading" className="mt-6 rounded-2xl border border-red-200 p-6">
        <h2 id="close-heading" className="text-xl font-semibold text-slate-900">
          Close my account
        </h2>
        <p className="mt-2 text-slate-600">
          Closing removes your profile and sign-in details, cancels your subscriptions and ends any checkout you have
          not paid. Orders and tax invoices stay as issued, with their delivery address, for seven years, as the law
          requires, under &quot;Closed account&quot;. You can sign up again later with the same email address as a new
          customer.
        </p>
        <button type="button" className="btn-secondary mt-4 border-red-300 text-red-700" onClick={() => setClosing(true)}>
          Close my account
        </button>
      </section>

      <CloseAccountDialog open={closing} onClose={() => setClosing(false)} />
    </div>
  );
}
