// "Resume subscription" for one cancelling at the end of its period: asked first, with the date it
// will renew on. The question stays open while the call runs; a refusal goes to the panel.
import { errorMessage } from '@/lib/api';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import type { Subscription } from '../api/dashboard';
import { useResumeSubscription } from '../api/resumeSubscription';
import { cancelTexts } from '../rules';

interface ResumeSubscriptionDialogProps {
  subscription: Subscription;
  onClose: () => void;
  onDone: (message: string) => void;
  onFailed: (message: string) => void;
}

export function ResumeSubscriptionDialog({ subscription, onClose, onDone, onFailed }: ResumeSubscriptionDialogProps) {
  const resume = useResumeSubscription();
  return (
    <ConfirmDialog
      open
      title="Resume subscription"
      message={cancelTexts.resume(subscription)}
      confirmLabel={resume.isPending ? 'Resuming...' : 'Resume subscription'}
      cancelLabel="Back"
      busy={resume.isPending}
      onConfirm={() =>
        resume.mutate(subscription.id, {
          onSuccess: (answer) => onDone(cancelTexts.resume(answer)),
          onError: (error) => onFailed(errorMessage(error, 'The subscription could not be resumed.')),
        })
      }
      onCancel={() => {
        if (!resume.isPending) onClose();
      }}
    />
  );
}
