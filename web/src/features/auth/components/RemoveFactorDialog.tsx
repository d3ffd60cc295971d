// Removing an authenticator (spec section 9, "Removing an authenticator needs confirmation"): a
// dialog that says what will happen and asks for a current code, from the app or a recovery code,
// which the server checks before anything changes (docs/auth.md, "Removing a factor").
import { useState } from 'react';
import { FormDialog } from '@/components/detail/FormDialog';
import { FormField } from '@/components/FormField';
import { errorMessage } from '@/lib/api';
import { useRemoveFactor } from '../api/factors';
import { isRecoveryCode } from '../api/recoveryCodes';

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

  const onSubmit = () => {
    if (!factor || !code) return;
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
    <FormDialog
      open={factor !== null}
      title="Remove authenticator"
      description={DISABLE_MFA_CONFIRM_TEXT}
      confirmLabel="Remove authenticator"
      pendingLabel="Removing..."
      pending={remove.isPending}
      confirmDisabled={!code}
      danger
      error={error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <p className="text-sm text-slate-700">
        Removing <strong>{factor?.name}</strong> turns off the codes it makes. To confirm it is you, enter a current code.
      </p>
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
    </FormDialog>
  );
}
