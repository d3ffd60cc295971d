// The auth modal (spec sections 2, 4, 5 and 8): Sign In and Create Account, a password-reset
// request, and the code step that follows a password sign-in when the account has an
// authenticator. Errors go in a red box: the error's message, or 'An error occurred'.
import { useEffect, useRef, useState, type ChangeEvent, type Ref, type RefObject, type SyntheticEvent } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { FormField } from '@/components/FormField';
import { authClient } from '@/lib/authClient';
import { errorMessage } from '@/lib/api';
import { verifiedTotpFactors } from '@/lib/auth';
import { ErrorBox, NoticeBox } from './CodeInput';
import { MfaCodeStep } from './MfaCodeStep';

export const GENERIC_ERROR_TEXT = 'An error occurred';
export const CONFIRM_EMAIL_TEXT = 'Check your email for a link to confirm your account.';
export const RESET_SENT_TEXT = 'If an account exists for that email, we have sent a link to reset your password.';
export const MIN_PASSWORD_LENGTH = 6;
export const SHORT_PASSWORD_TEXT = `Password must be at least ${String(MIN_PASSWORD_LENGTH)} characters`;

type Mode = 'signIn' | 'signUp' | 'reset' | 'mfa';

const TITLES: Record<Mode, string> = {
  signIn: 'Sign In',
  signUp: 'Create Account',
  reset: 'Reset Password',
  mfa: 'Two-Factor Authentication',
};

interface AuthDialogProps {
  open: boolean;
  onClose: () => void;
  /** Shown in the red box on opening (an email link that failed, for instance). */
  initialError?: string | null;
  /** The code step succeeded: the session is at the second assurance level. */
  onMfaVerified: () => void;
}

export function AuthDialog({ open, onClose, initialError = null, onMfaVerified }: AuthDialogProps) {
  const [mode, setMode] = useState<Mode>('signIn');
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const close = () => {
    setMode('signIn');
    onClose();
  };
  return (
    <Dialog open={open} onClose={mode === 'mfa' ? () => undefined : close} title={TITLES[mode]} initialFocusRef={firstFieldRef}>
      {mode === 'mfa' ? null : <DialogCloseButton onClick={close} />}
      {/* Mounted only while open, so every opening starts with a fresh form. */}
      {open ? (
        <AuthForms
          mode={mode}
          setMode={setMode}
          firstFieldRef={firstFieldRef}
          initialError={initialError}
          onDone={close}
          onMfaVerified={() => {
            onMfaVerified();
            close();
          }}
        />
      ) : null}
    </Dialog>
  );
}

interface FieldProps {
  label: string;
  name: string;
  type: 'text' | 'email' | 'password';
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  autoComplete: string;
  minLength?: number;
  inputRef?: Ref<HTMLInputElement>;
}

function Field({ label, name, type, value, onChange, autoComplete, minLength, inputRef }: FieldProps) {
  return (
    <FormField
      label={label}
      inputRef={inputRef}
      name={name}
      type={type}
      required
      minLength={minLength}
      autoComplete={autoComplete}
      value={value}
      onChange={onChange}
    />
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
        {mode === 'signIn' ? (
          <>
            Don&apos;t have an account?{' '}
            <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => switchTo('signUp')}>
              Create Account
            </button>
          </>
        ) : mode === 'signUp' ? (
          <>
            Already have an account?{' '}
            <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => switchTo('signIn')}>
              Sign In
            </button>
          </>
        ) : (
          <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => switchTo('signIn')}>
            Back to Sign In
          </button>
        )}
      </p>
    </form>
  );
}
