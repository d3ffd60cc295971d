// The sign-in code step (spec sections 4, 5 and 8): digits only, at most six, Verify enabled at
// exactly six; the first verified TOTP factor is challenged and then verified. Cancel signs the
// session out (the caller then clears the password or closes). "Use a recovery code" takes one of
// the account's recovery codes instead, sent through the same verify call (docs/auth.md).
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { authClient } from '@/lib/authClient';
import { errorMessage } from '@/lib/api';
import { FormField } from '@/components/FormField';
import { isRecoveryCode } from '../api/recoveryCodes';
import { CodeInput, ErrorBox, MFA_CODE_LENGTH } from './CodeInput';

export const NO_FACTOR_TEXT = 'No MFA factor found';
export const INVALID_CODE_TEXT = 'Invalid verification code';
export const RECOVERY_CODE_LABEL = 'Recovery code';

interface MfaCodeStepProps {
  onVerified: () => void;
  /** Called after the session has been signed out. */
  onCancelled: () => void;
}

export function MfaCodeStep({ onVerified, onCancelled }: MfaCodeStepProps) {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ready = recovery ? isRecoveryCode(code) : code.length === MFA_CODE_LENGTH;
  const [busy, setBusy] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
  }, [recovery]);

  const switchMode = () => {
    setRecovery((was) => !was);
    setCode('');
    setError(null);
  };

  const verify = async () => {
    const { data: factors, error: listError } = await authClient.mfa.listFactors();
    if (listError) return errorMessage(listError, INVALID_CODE_TEXT);
    // The library lists only verified factors under `totp`.
    const factor = factors.totp[0];
    if (!factor) return NO_FACTOR_TEXT;
    const { data: challenge, error: challengeError } = await authClient.mfa.challenge({ factorId: factor.id });
    if (challengeError) return errorMessage(challengeError, INVALID_CODE_TEXT);
    const { error: verifyError } = await authClient.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: code.trim() });
    if (verifyError) return errorMessage(verifyError, INVALID_CODE_TEXT);
    return null;
  };

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !ready) return;
    setBusy(true);
    setError(null);
    let failure: string | null;
    try {
      failure = await verify();
    } catch (thrown) {
      console.error('MFA verification failed', thrown);
      failure = errorMessage(thrown, INVALID_CODE_TEXT);
    }
    setBusy(false);
    if (failure) {
      setError(failure);
      inputRef.current?.focus();
      return;
    }
    onVerified();
  };

  const onCancel = async () => {
    setCancelling(true);
    const { error: signOutError } = await authClient.signOut({ scope: 'local' });
    if (signOutError) console.error('Sign-out after cancelling the code step failed', signOutError);
    onCancelled();
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" aria-busy={busy}>
      <p className="text-sm text-slate-600">
        {recovery ? 'Enter one of your recovery codes. Each code works once.' : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      <ErrorBox message={error} />
      {recovery ? (
        <FormField
          label={RECOVERY_CODE_LABEL}
          inputRef={inputRef}
          name="recovery-code"
          autoComplete="off"
          spellCheck={false}
          placeholder="xxxxx-xxxxx"
          value={code}
          disabled={busy}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setCode(event.target.value.slice(0, 20))}
          className="text-center font-mono text-xl"
        />
      ) : (
        <CodeInput value={code} onChange={setCode} disabled={busy} invalid={Boolean(error)} inputRef={inputRef} />
      )}
      <button type="button" className="text-sm font-medium text-brand-700 underline" onClick={switchMode} disabled={busy}>
        {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
      </button>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={() => void onCancel()} disabled={cancelling}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={busy || !ready}>
          {busy ? 'Verifying...' : 'Verify'}
        </button>
      </div>
    </form>
  );
}
