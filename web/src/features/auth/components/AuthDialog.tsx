// The auth modal (spec sections 2, 4, 5 and 8): Sign In and Create Account, a password-reset
// request, and the code step that follows a password sign-in when the account has an
// authenticator. Errors go in a red box: the error's message, or 'An error occurred'.
import { useEffect, useRef, useState, type ChangeEvent, type RefObject, type SyntheticEvent } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { authClient } from '@/lib/authClient';
import { errorMessage } from '@/lib/api';
import { verifiedTotpFactors } from '@/lib/auth';
import { AuthField as Field } from './AuthField';
import { ErrorBox, NoticeBox } from './CodeInput';
import { MfaCodeStep } from './MfaCodeStep';

export const GENERIC_ERROR_TEXT = 'An error occurred';
export const CONFIRM_EMAIL_TEXT = 'Check your email for a link to confirm your account.';
export const RESET_SENT_TEXT = 'If an account exists for that email, we have sent a link to reset your password.';
export const MIN_PASSWORD_LENGTH = 6;
export const SHORT_PASSWORD_TEXT = `Password must be at least ${String(MIN_PASSWORD_LENGTH)} characters`;

type Mode = 'signIn' | 'signUp' | 'reset' | 'mfa';
/** The forms the dialog can open on. */
export type AuthDialogMode = 'signIn' | 'signUp';

const TITLES: Record<Mode, string> = {
  signIn: 'Sign In',
  signUp: 'Create Account',
  reset: 'Reset Password',
  mfa: 'Two-Factor Authentication',
};

/** The link under each form to another one. */
const SWITCH: Record<Exclude<Mode, 'mfa'>, { question: string; label: string; to: Mode }> = {
  signIn: { question: "Don't have an account?", label: 'Create Account', to: 'signUp' },
  signUp: { question: 'Already have an account?', label: 'Sign In', to: 'signIn' },
  reset: { question: '', label: 'Back to Sign In', to: 'signIn' },
};

interface AuthDialogProps {
  open: boolean;
  /** The form it opens on (Sign In unless told; /signup opens Create Account). */
  initialMode?: AuthDialogMode;
  onClose: () => void;
  /** Shown in the red box on opening (an email link that failed, for instance). */
  initialError?: string | null;
  /** The code step succeeded: the session is at the second assurance level. */
  onMfaVerified: () => void;
}

export function AuthDialog({ open, initialMode = 'signIn', onClose, initialError = null, onMfaVerified }: AuthDialogProps) {
  const [mode, setMode] = useState<Mode>(initialMode);
  // Each opening starts on the form it was asked for.
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (open) setMode(initialMode);
  }
  const firstFieldRef = useRef<HTMLInputElement>(null);
  return (
    <Dialog open={open} onClose={mode === 'mfa' ? () => undefined : onClose} title={TITLES[mode]} initialFocusRef={firstFieldRef}>
      {mode === 'mfa' ? null : <DialogCloseButton onClick={onClose} />}
      {/* Mounted only while open, so every opening starts with a fresh form. */}
      {open ? (
        <AuthForms
          mode={mode}
          setMode={setMode}
          firstFieldRef={firstFieldRef}
          initialError={initialError}
          onDone={onClose}
          onMfaVerified={() => {
            onMfaVerified();
            onClose();
          }}
        />
      ) : null}
    </Dialog>
  );
}

interface AuthFormsProps {
  mode: Mode;
  setMode: (mode: Mode) => void;
  firstFieldRef: RefObject<HTMLInputElement | null>;
  initialError: string | null;
  onDone: () => void;
  onMfaVerified: () => void;
}

function AuthForms({ mode, setMode, firstFieldRef, initialError, onDone, onMfaVerified }: AuthFormsProps) {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(initialError);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // A new form (Create Account, Reset Password, back to Sign In) starts at its first field.
  useEffect(() => {
    firstFieldRef.current?.focus();
  }, [mode, firstFieldRef]);

  const switchTo = (next: Mode) => {
    setError(null);
    setNotice(null);
    setMode(next);
  };

  const signIn = async () => {
    const { data, error: signInError } = await authClient.signInWithPassword({ email: email.trim(), password });
    if (signInError) {
      setError(errorMessage(signInError, GENERIC_ERROR_TEXT));
      return;
    }
    // MFA_REQUIRED: an authenticator on the account and the session still at the first level.
    if (verifiedTotpFactors(data.user).length > 0) {
      const { data: aal, error: aalError } = await authClient.mfa.getAuthenticatorAssuranceLevel();
      if (aalError) console.error('Could not read the assurance level', aalError);
      else if (aal.currentLevel === 'aal1' && aal.nextLevel === 'aal2') {
        setMode('mfa');
        return;
      }
    }
    onDone();
  };

  const signUp = async () => {
    if (!fullName.trim()) {
      setError('Full name is required');
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      setError(SHORT_PASSWORD_TEXT);
      return;
    }
    const { data, error: signUpError } = await authClient.signUp({
      email: email.trim(),
      password,
      options: { data: { full_name: fullName.trim() } },
    });
    // A weak_password error carries the server's own explanation as its message.
    if (signUpError) {
      setError(errorMessage(signUpError, GENERIC_ERROR_TEXT));
      return;
    }
    if (data.session) {
      onDone();
      return;
    }
    // Email confirmation is on: no session until the link in the email is followed.
    setPassword('');
    setMode('signIn');
    setNotice(CONFIRM_EMAIL_TEXT);
  };

  const requestReset = async () => {
    const { error: resetError } = await authClient.resetPasswordForEmail(email.trim(), {
      redirectTo: `${window.location.origin}/`,
    });
    if (resetError) {
      setError(errorMessage(resetError, GENERIC_ERROR_TEXT));
      return;
    }
    setNotice(RESET_SENT_TEXT);
  };

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      if (mode === 'signIn') await signIn();
      else if (mode === 'signUp') await signUp();
      else await requestReset();
    } catch (thrown) {
      console.error('Authentication request failed', thrown);
      setError(errorMessage(thrown, GENERIC_ERROR_TEXT));
    } finally {
      setBusy(false);
    }
  };

  if (mode === 'mfa') {
    return (
      <MfaCodeStep
        onVerified={onMfaVerified}
        onCancelled={() => {
          setPassword('');
          setMode('signIn');
        }}
      />
    );
  }

  const onField = (setter: (value: string) => void) => (event: ChangeEvent<HTMLInputElement>) => setter(event.target.value);
  const submitLabel = { signIn: 'Sign In', signUp: 'Create Account', reset: 'Send Reset Link' }[mode];

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" aria-busy={busy}>
      <ErrorBox message={error} />
      <NoticeBox message={notice} />
      {mode === 'reset' ? (
        <p className="text-sm text-slate-600">Enter your email address and we will send you a link to reset your password.</p>
      ) : null}
      {mode === 'signUp' ? (
        <Field label="Full Name" name="full_name" type="text" value={fullName} onChange={onField(setFullName)} autoComplete="name" inputRef={firstFieldRef} />
      ) : null}
      <Field
        label="Email"
        name="email"
        type="email"
        value={email}
        onChange={onField(setEmail)}
        autoComplete="email"
        inputRef={mode === 'signUp' ? undefined : firstFieldRef}
      />
      {mode === 'reset' ? null : (
        <Field
          label="Password"
          name="password"
          type="password"
          value={password}
          onChange={onField(setPassword)}
          autoComplete={mode === 'signUp' ? 'new-password' : 'current-password'}
          minLength={mode === 'signUp' ? MIN_PASSWORD_LENGTH : undefined}
        />
      )}
      {mode === 'signUp' ? <p className="text-xs text-slate-500">At least {MIN_PASSWORD_LENGTH} characters.</p> : null}
      {mode === 'signIn' ? (
        <div className="text-right">
          <button type="button" className="text-sm font-medium text-brand-700 hover:underline" onClick={() => switchTo('reset')}>
            Forgot your password?
          </button>
        </div>
      ) : null}
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? 'Please wait...' : submitLabel}
      </button>
      <p className="text-center text-sm text-slate-600">
        {SWITCH[mode].question}{' '}
        <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => switchTo(SWITCH[mode].to)}>
          {SWITCH[mode].label}
        </button>
      </p>
    </form>
  );
}
