// A Copy button with a 'Copied!' marker for 2 s (spec section 9): the set-up secret, the recovery codes.
import { useEffect, useState } from 'react';

/** How long the 'Copied!' marker stays after copying. */
export const COPIED_MARKER_MS = 2000;

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copiedAt, setCopiedAt] = useState<number | null>(null);

  useEffect(() => {
    if (copiedAt === null) return;
    const timer = window.setTimeout(() => setCopiedAt(null), COPIED_MARKER_MS);
    return () => window.clearTimeout(timer);
  }, [copiedAt]);

  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopiedAt(Date.now());
    } catch (error) {
      console.error('Copying failed', error);
    }
  };

  return (
    <>
      <button type="button" className="btn-secondary" onClick={() => void onCopy()}>
        {label}
      </button>
      <span role="status" className="text-sm font-medium text-green-700">
        {copiedAt !== null ? 'Copied!' : ''}
      </span>
    </>
  );
}
