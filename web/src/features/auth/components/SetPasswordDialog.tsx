// "Set a new password", after following a password-reset or invitation email link: the link signs
// the person in, and this dialog sets the password with updateUser (minimum 6 characters, typed
// twice). Success shows a message, then the dialog closes itself.
import { useEffect, useRef, useState, type Ref, type RefObject, type SyntheticEvent } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { FormField } from '@/components/FormField';
import { authClient } from '@/lib/authClient';
import type { PasswordLinkType } from '@/lib/emailLink';
import { errorMessage } from '@/lib/api';
import { GENERIC_ERROR_TEXT, MIN_PASSWORD_LENGTH, SHORT_PASSWORD_TEXT } from './AuthDialog';
import { ErrorBox, NoticeBox } from './CodeInput';

export const PASSWORD_UPDATED_TEXT = 'Your password has been updated.';
export const PASSWORDS_DIFFER_TEXT = 'Passwords do not match';
/** How long the success message stays before the dialog closes itself. */
export const SET_PASSWORD_AUTO_CLOSE_MS = 2000;

interface SetPasswordDialogProps {
  open: boolean;
  linkType: PasswordLinkType;
  onClose: () => void;
}

export function SetPasswordDialog({ open, linkType, onClose }: SetPasswordDialogProps) {
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const description =
    linkType === 'invite' ? 'Welcome! Choose a password for your account.' : 'Choose a new password for your account.';
  return (
    <Dialog open={open} onClose={onClose} title="Set a new password" description={description} initialFocusRef={firstFieldRef}>
      <DialogCloseButton onClick={onClose} />
      {open ? <SetPasswordForm firstFieldRef={firstFieldRef} onClose={onClose} /> : null}
    </Dialog>
  );
}

function PasswordField({ label, value, onChange, inputRef }: { label: string; value: string; onChange: (value: string) => void; inputRef?: Ref<HTMLInputElement> }) {
  return (
    <FormField
      label={label}
      inputRef={inputRef}
      type="password"
      required
      minLength={MIN_PASSWORD_LENGTH}
      autoComplete="new-password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

function SetPasswordForm({ firstFieldRef, onClose }: { firstFieldRef: RefObject<HTMLInputElement | null>; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(onClose, SET_PASSWORD_AUTO_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [done, onClose]);

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (password.length < MIN_PASSWORD_LENGTH) {
      setError(SHORT_PASSWORD_TEXT);
      return;
    }
    if (password !== confirm) {
      setError(PASSWORDS_DIFFER_TEXT);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { error: updateError } = await authClient.updateUser({ password });
      if (updateError) setError(errorMessage(updateError, GENERIC_ERROR_TEXT));
      else setDone(true);
    } catch (thrown) {
      console.error('Password update failed', thrown);
      setError(errorMessage(thrown, GENERIC_ERROR_TEXT));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <div className="mt-4 space-y-4">
        <NoticeBox message={PASSWORD_UPDATED_TEXT} />
        <div className="flex justify-end">
          <button type="button" className="btn-primary" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" aria-busy={busy}>
      <ErrorBox message={error} />
      <PasswordField label="New Password" value={password} onChange={setPassword} inputRef={firstFieldRef} />
      <PasswordField label="Confirm New Password" value={confirm} onChange={setConfirm} />
      <p className="text-xs text-slate-500">At least {MIN_PASSWORD_LENGTH} characters.</p>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={onClose}>
          Not Now
        </button>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Saving...' : 'Set Password'}
        </button>
      </div>
    </form>
  );
}
