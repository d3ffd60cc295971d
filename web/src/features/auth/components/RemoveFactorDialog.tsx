// Removing an authenticator (spec section 9, "Removing an authenticator needs confirmation"): a
// dialog that says what will happen and asks for a current code, from the app or a recovery code,
// which the server checks before anything changes (docs/auth.md, "Removing a factor").
import { useState, type SyntheticEvent } from 'react';
import { Dialog } from '@/components/Dialog';
import { FormField } from '@/components/FormField';
import { errorMessage } from '@/lib/api';
import { useRemoveFactor } from '../api/factors';
import { isRecoveryCode } from '../api/recoveryCodes';
import { ErrorBox } from './CodeInput';

export const DISABLE_MFA_CONFIRM_TEXT =
  'Are you sure you want to disable two-factor authentication? This will make your account less secure.';
export const REMOVE_CODE_LABEL = 'Code from your authenticator app, or a recovery code';

/** What is sent: six digits (spaces dropped), or a recovery code as typed (the server reads it loosely). */
export function removalCode(typed: string): string | null {
  const digits = typed.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) return digits;
  return isRecoveryCode(typed) ? typed.trim() : null;
}

interface RemoveFactorDialogProps {
  /** The authenticator to remove; the dialog is closed when null. */
  factor: { id: string; name: string } | null;
  onClose: () => void;
}

export function RemoveFactorDialog({ factor, onClose }: RemoveFactorDialogProps) {
  const remove = useRemoveFactor();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const code = removalCode(typed);

  const close = () => {
    setTyped('');
    setError(null);
    onClose();
  };

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!factor || !code || remove.isPending) return;
    setError(null);
    remove.mutate(
      { factorId: factor.id, code },
      {
        onSuccess: close,
        onError: (thrown) => setError(`Error disabling MFA: ${errorMessage(thrown, 'Unknown error')}`),
      },
    );
  };

  return (
    <Dialog open={factor !== null} onClose={close} title="Remove authenticator" description={DISABLE_MFA_CONFIRM_TEXT}>
      <form onSubmit={onSubmit} className="mt-4 space-y-4" aria-busy={remove.isPending}>
        <p className="text-sm text-slate-700">
          Removing <strong>{factor?.name}</strong> turns off the codes it makes. To confirm it is you, enter a current code.
        </p>
        <ErrorBox message={error} />
        <FormField
          label={REMOVE_CODE_LABEL}
          name="code"
          autoComplete="one-time-code"
          spellCheck={false}
          value={typed}
          disabled={remove.isPending}
          onChange={(event) => setTyped(event.target.value)}
          className="font-mono"
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={close} disabled={remove.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn-primary bg-red-700 hover:bg-red-800" disabled={!code || remove.isPending}>
            {remove.isPending ? 'Removing...' : 'Remove authenticator'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
