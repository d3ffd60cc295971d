// /account, the signed-in user's Account page (Profile): their name, their email address (changed
// through a link sent to the new one), their password (the server checks the current one and signs
// out every other device) and "Sign out of other devices". Who they are comes from the shell's one
// call (/api/v1/account/me); the changes go through the auth client.
import { useState, type SyntheticEvent } from 'react';
import { FormField } from '@/components/FormField';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { Loading } from '@/components/Spinner';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useMe } from '@/lib/me';
import {
  MAX_FULL_NAME_LENGTH,
  changePassword,
  refusalText,
  requestEmailChange,
  saveFullName,
  signOutOtherDevices,
  useRefreshMe,
} from '../api/profile';
import { Card, Outcome } from '../components/AccountCard';
import { AccountNav } from '../components/AccountNav';

const HEAD = { title: `Account | ${SITE_NAME}`, robots: 'noindex' };

export const NAME_SAVED_TEXT = 'Your name has been saved.';
export const NAME_REQUIRED_TEXT = 'Enter your full name.';
export const NAME_TOO_LONG_TEXT = `Your name can be at most ${String(MAX_FULL_NAME_LENGTH)} characters.`;
export const EMAIL_INVALID_TEXT = 'Enter a valid email address.';
export const EMAIL_SAME_TEXT = 'That is already your email address.';
export const PASSWORD_CHANGED_TEXT =
  'Your password has been changed. Your other devices have been signed out, and links we emailed you earlier no longer work.';
export const PASSWORDS_DIFFER_TEXT = 'The new passwords do not match.';
export const OTHERS_SIGNED_OUT_TEXT =
  'You have been signed out on every other device, and links we emailed you earlier no longer work.';
const GENERIC = 'Something went wrong. Please try again.';

export function AccountPage() {
  useDocumentHead(HEAD);
  const me = useMe();
  let body;
  if (me.isPending) body = <Loading text="Loading your account..." />;
  else if (me.isError)
    body = <LoadError className={`mt-6 ${LOAD_ERROR_CLASS}`} error={me.error} title="Your account could not be loaded." retrying={me.isFetching} onRetry={() => void me.refetch()} />;
  else
    body = (
      <>
        <NameForm fullName={me.data.full_name ?? ''} />
        <EmailForm email={me.data.email ?? ''} pending={me.data.pending_email} />
        <PasswordForm />
        <Devices />
      </>
    );
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 lg:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Account</h1>
      <AccountNav />
      {body}
    </div>
  );
}

function NameForm({ fullName }: { fullName: string }) {
  const refreshMe = useRefreshMe();
  const [name, setName] = useState(fullName);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [ok, setOk] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    setOk(null);
    setFailed(null);
    const problem = !trimmed ? NAME_REQUIRED_TEXT : trimmed.length > MAX_FULL_NAME_LENGTH ? NAME_TOO_LONG_TEXT : undefined;
    setFieldError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await saveFullName(trimmed);
      setOk(NAME_SAVED_TEXT);
      void refreshMe();
    } catch (thrown) {
      setFailed(refusalText(thrown, GENERIC));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="profile-heading" title="Profile">
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" aria-busy={busy}>
        <FormField label="Full name" name="full_name" autoComplete="name" required value={name} error={fieldError} onChange={(e) => setName(e.target.value)} />
        <Outcome ok={ok} failed={failed} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Saving...' : 'Save name'}
        </button>
      </form>
    </Card>
  );
}

function EmailForm({ email, pending }: { email: string; pending: string | null }) {
  const refreshMe = useRefreshMe();
  const [next, setNext] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The address a link was just sent to: shown as pending even before /me says so.
  const [sent, setSent] = useState<string | null>(null);
  const pendingAddress = sent ?? pending;

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = next.trim();
    setFailed(null);
    const problem = !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)
      ? EMAIL_INVALID_TEXT
      : address.toLowerCase() === email.toLowerCase()
        ? EMAIL_SAME_TEXT
        : undefined;
    setFieldError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await requestEmailChange(address);
      setSent(address);
      setNext('');
      await refreshMe();
    } catch (thrown) {
      setFailed(refusalText(thrown, GENERIC));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="email-heading" title="Email address">
      <p className="mt-2 text-slate-700">
        You sign in with <strong>{email}</strong>.
      </p>
      {pendingAddress ? (
        <p role="status" className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          We sent a confirmation link to <strong>{pendingAddress}</strong>. Your email address changes when you open it.
        </p>
      ) : null}
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" aria-busy={busy}>
        <FormField
          label="New email address"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={next}
          error={fieldError}
          hint="We send a link to the new address; nothing changes until you open it. Then we tell your current address."
          onChange={(e) => setNext(e.target.value)}
        />
        <Outcome ok={null} failed={failed} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Sending...' : 'Change email'}
        </button>
      </form>
    </Card>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<{ current?: string; next?: string; again?: string }>({});
  const [ok, setOk] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOk(null);
    setFailed(null);
    const found: typeof errors = {};
    if (!current) found.current = 'Enter your current password.';
    if (!next) found.next = 'Enter a new password.';
    else if (next !== again) found.again = PASSWORDS_DIFFER_TEXT;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await changePassword(current, next);
      setCurrent('');
      setNext('');
      setAgain('');
      setOk(PASSWORD_CHANGED_TEXT);
    } catch (thrown) {
      setFailed(refusalText(thrown, GENERIC));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="password-heading" title="Password">
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" aria-busy={busy}>
        <FormField label="Current password" name="current_password" type="password" autoComplete="current-password" required value={current} error={errors.current} onChange={(e) => setCurrent(e.target.value)} />
        <FormField label="New password" name="new_password" type="password" autoComplete="new-password" required value={next} error={errors.next} hint="At least 6 characters, and not a common password." onChange={(e) => setNext(e.target.value)} />
        <FormField label="Confirm new password" name="confirm_password" type="password" autoComplete="new-password" required value={again} error={errors.again} onChange={(e) => setAgain(e.target.value)} />
        <Outcome ok={ok} failed={failed} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Changing...' : 'Change password'}
        </button>
      </form>
    </Card>
  );
}

function Devices() {
  const [ok, setOk] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onClick = async () => {
    setOk(null);
    setFailed(null);
    setBusy(true);
    try {
      await signOutOtherDevices();
      setOk(OTHERS_SIGNED_OUT_TEXT);
    } catch (thrown) {
      setFailed(refusalText(thrown, GENERIC));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="devices-heading" title="Devices">
      <p className="mt-2 text-slate-600">
        Signed in on a computer or phone you no longer use? End every session but this one. Sign-in and password links we
        emailed you earlier stop working too.
      </p>
      <div className="mt-4 space-y-4">
        <Outcome ok={ok} failed={failed} />
        <button type="button" className="btn-secondary" disabled={busy} onClick={() => void onClick()}>
          {busy ? 'Signing out...' : 'Sign out of other devices'}
        </button>
      </div>
    </Card>
  );
}
