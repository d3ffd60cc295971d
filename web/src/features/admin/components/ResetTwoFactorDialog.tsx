// Reset two-factor: removes every factor of the customer and signs out their two-factor sessions.
// A reason is required (it goes to the audit log); the server's 422 shows under the field.
import { useState } from 'react';
import { FormDialog } from '@/components/detail';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';

export const REASON_REQUIRED = 'Give the reason for resetting two-factor authentication.';
export const REASON_MAX = 500;

interface ResetTwoFactorDialogProps {
  name: string;
  busy: boolean;
  onReset: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

export function ResetTwoFactorDialog({ name, busy, onReset, onClose }: ResetTwoFactorDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = () => {
    const text = reason.trim();
    if (!text) {
      setError(REASON_REQUIRED);
      return;
    }
    setError(undefined);
    setFailure(null);
    onReset(text).catch((problem: unknown) => {
      if (isApiError(problem) && problem.fields.reason) setError(problem.fields.reason);
      else setFailure(errorMessage(problem, 'Failed to reset two-factor authentication'));
    });
  };

  return (
    <FormDialog
      title="Reset two-factor authentication"
      description={`This removes every authenticator of ${name} and signs them out of their two-factor sessions. They can set up two-factor again after signing in.`}
      confirmLabel="Reset two-factor"
      pendingLabel="Resetting..."
      danger
      pending={busy}
      error={failure}
      onSubmit={submit}
      onClose={onClose}
    >
      <FormField
        label="Reason"
        name="reason"
        multiline
        required
        requiredMark
        maxLength={REASON_MAX}
        hint="Kept in the audit log, e.g. how you checked who asked."
        value={reason}
        error={error}
        onChange={(event) => setReason(event.target.value)}
      />
    </FormDialog>
  );
}
