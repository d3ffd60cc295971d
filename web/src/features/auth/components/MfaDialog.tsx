// The code step on its own, for a restored session that has an authenticator but is still at the
// first assurance level (spec section 4), or when the server answers `insufficient_aal`.
// There is no way around it but the code or Cancel, which signs out.
import { Dialog } from '@/components/Dialog';
import { MfaCodeStep } from './MfaCodeStep';

interface MfaDialogProps {
  open: boolean;
  onVerified: () => void;
  onCancelled: () => void;
}

export function MfaDialog({ open, onVerified, onCancelled }: MfaDialogProps) {
  return (
    <Dialog open={open} onClose={() => undefined} title="Two-Factor Authentication">
      {open ? <MfaCodeStep onVerified={onVerified} onCancelled={onCancelled} /> : null}
    </Dialog>
  );
}
