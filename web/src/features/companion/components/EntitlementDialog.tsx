// The confirmation before an upgrade or a downgrade (spec section 5): the question, what will
// change, and that it cannot be undone. Focus starts on Cancel.
import { useRef } from 'react';
import { Dialog } from '@/components/Dialog';

export interface EntitlementChange {
  id: string;
  name: string;
  to: 'pro' | 'free';
}

interface Props {
  change: EntitlementChange | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function confirmationQuestion(change: EntitlementChange): string {
  return change.to === 'pro' ? `Upgrade ${change.name} to LIFETIME PRO access?` : `Downgrade ${change.name} to FREE tier?`;
}

export function EntitlementDialog({ change, busy, onConfirm, onCancel }: Props) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const steps =
    change?.to === 'pro'
      ? ["Set entitlement to 'pro'", 'Set pro_expires_at to null (lifetime access)']
      : ["Set entitlement to 'free'", 'Remove Pro access'];
  return (
    <Dialog
      open={change !== null}
      onClose={onCancel}
      title={change?.to === 'pro' ? 'Upgrade to Lifetime Pro' : 'Downgrade to Free'}
      description={change ? confirmationQuestion(change) : ''}
      initialFocusRef={cancelRef}
    >
      <p className="mt-4 text-sm font-medium text-slate-700">This will:</p>
      <ul className="mt-1 list-disc pl-5 text-sm text-slate-700">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ul>
      <p className="mt-3 text-sm font-semibold text-red-700">This action cannot be undone.</p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button ref={cancelRef} type="button" className="btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="btn-primary" onClick={onConfirm} disabled={busy}>
          {change?.to === 'pro' ? 'Upgrade' : 'Downgrade'}
        </button>
      </div>
    </Dialog>
  );
}
