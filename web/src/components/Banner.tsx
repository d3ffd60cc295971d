// A transient message after an action: success ('Product created successfully!') or error. The
// spec's admin messages hide after 3 seconds; an error may be told to stay.
import { useEffect } from 'react';

export const BANNER_HIDE_MS = 3000;

export interface BannerMessage {
  tone: 'success' | 'error';
  text: string;
}

interface BannerProps {
  message: BannerMessage | null;
  /** Called when the message should go (after BANNER_HIDE_MS, or the close button). */
  onDismiss: () => void;
  /** Keeps the message until dismissed. */
  sticky?: boolean;
}

export function Banner({ message, onDismiss, sticky = false }: BannerProps) {
  useEffect(() => {
    if (!message || sticky) return;
    const timer = window.setTimeout(onDismiss, BANNER_HIDE_MS);
    return () => window.clearTimeout(timer);
  }, [message, sticky, onDismiss]);

  // The live region stays mounted so a new message is announced.
  return (
    <div aria-live="polite" aria-atomic="true">
      {message ? (
        <div
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={
            message.tone === 'error'
              ? 'flex items-start justify-between gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800'
              : 'flex items-start justify-between gap-3 rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-800'
          }
        >
          <span>{message.text}</span>
          <button type="button" className="font-medium underline" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}
