// Reset two-factor: removes every factor of the customer and signs out their two-factor sessions.
// A reason is required (it goes to the audit log); the server's 422 shows under the field.
import { useState, type SyntheticEvent } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
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

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
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
    <Dialog
      open
      onClose={onClose}
      title="Reset two-factor authentication"
      description={`This removes every authenticator of ${name} and signs them out of their two-factor sessions. They can set up two-factor again after signing in.`}
    >
      <DialogCloseButton onClick={onClose} />
      <form noValidate onSubmit={submit} className="mt-4 space-y-4">
        {failure ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {failure}
          </p>
        ) : null}
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
        <div className="flex justify-end gap-3">
          <button type="button" className="btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn-primary bg-red-600 hover:bg-red-700" disabled={busy}>
            {busy ? 'Resetting...' : 'Reset two-factor'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
