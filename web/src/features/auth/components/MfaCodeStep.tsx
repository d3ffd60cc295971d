// The sign-in code step (spec sections 4, 5 and 8): digits only, at most six, Verify enabled at
// exactly six; the first verified TOTP factor is challenged and then verified. Cancel signs the
// session out (the caller then clears the password or closes).
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { authClient } from '@/lib/authClient';
import { errorMessage } from '@/lib/api';
import { CodeInput, ErrorBox, MFA_CODE_LENGTH } from './CodeInput';

export const NO_FACTOR_TEXT = 'No MFA factor found';
export const INVALID_CODE_TEXT = 'Invalid verification code';

interface MfaCodeStepProps {
  onVerified: () => void;
  /** Called after the session has been signed out. */
  onCancelled: () => void;
}

export function MfaCodeStep({ onVerified, onCancelled }: MfaCodeStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const verify = async () => {
    const { data: factors, error: listError } = await authClient.mfa.listFactors();
    if (listError) return errorMessage(listError, INVALID_CODE_TEXT);
    // The library lists only verified factors under `totp`.
    const factor = factors.totp[0];
    if (!factor) return NO_FACTOR_TEXT;
    const { data: challenge, error: challengeError } = await authClient.mfa.challenge({ factorId: factor.id });
    if (challengeError) return errorMessage(challengeError, INVALID_CODE_TEXT);
    const { error: verifyError } = await authClient.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code });
    if (verifyError) return errorMessage(verifyError, INVALID_CODE_TEXT);
    return null;
  };

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || code.length !== MFA_CODE_LENGTH) return;
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
      <p className="text-sm text-slate-600">Enter the 6-digit code from your authenticator app.</p>
      <ErrorBox message={error} />
      <CodeInput value={code} onChange={setCode} disabled={busy} invalid={Boolean(error)} inputRef={inputRef} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={() => void onCancel()} disabled={cancelling}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={busy || code.length !== MFA_CODE_LENGTH}>
          {busy ? 'Verifying...' : 'Verify'}
        </button>
      </div>
    </form>
  );
}
