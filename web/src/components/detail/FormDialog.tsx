// A staff or account dialog holding a form: the title (and an optional description), the fields as children,
// an error line, and Cancel beside the confirm button, which says it is working while `pending`.
// Focus handling is the Dialog's: kept inside, Escape closes, focus back to the opener.
import type { ReactNode, RefObject, SyntheticEvent } from 'react';
import { Dialog, DialogCloseButton } from '../Dialog';
import { FormAlert } from './FormAlert';

interface FormDialogProps {
  open?: boolean;
  title: string;
  description?: ReactNode;
  /** The confirm button's words, and its words while pending ('Saving...'). */
  confirmLabel: string;
  pendingLabel?: string;
  cancelLabel?: string;
  pending?: boolean;
  /** The confirm button waits for something first (a code typed in full). */
  confirmDisabled?: boolean;
  /** Paints the confirm button red (a change that takes something away). */
  danger?: boolean;
  /** A failure of the whole form (a field's own goes under the field). */
  error?: string | null;
  size?: 'md' | 'lg';
  /** The × in the corner (on unless said). */
  closeButton?: boolean;
  initialFocusRef?: RefObject<HTMLElement | null>;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}

export function FormDialog({
  open = true,
  title,
  description,
  confirmLabel,
  pendingLabel,
  cancelLabel = 'Cancel',
  pending = false,
  confirmDisabled = false,
  danger = false,
  error,
  size = 'md',
  closeButton = true,
  initialFocusRef,
  onSubmit,
  onClose,
  children,
}: FormDialogProps) {
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!pending && !confirmDisabled) onSubmit();
  };
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description} size={size} initialFocusRef={initialFocusRef}>
      {closeButton ? <DialogCloseButton onClick={onClose} /> : null}
      <form noValidate onSubmit={submit} className="mt-4 space-y-4">
        <FormAlert tone="error">{error}</FormAlert>
        {children}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={onClose} disabled={pending}>
            {cancelLabel}
          </button>
          <button type="submit" className={danger ? 'btn-primary bg-red-600 hover:bg-red-700' : 'btn-primary'} disabled={pending || confirmDisabled} aria-busy={pending || undefined}>
            {pending ? (pendingLabel ?? confirmLabel) : confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
