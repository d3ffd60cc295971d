// The one modal dialog of the app: rendered over the page in a portal, labelled by its title,
// aria-modal, with focus kept inside while open, Escape and the backdrop closing it, the page
// behind made inert, and focus handed back to whatever opened it.
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable="true"]',
].join(',');

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.hasAttribute('inert') && element.getAttribute('aria-hidden') !== 'true',
  );
}

interface DialogProps {
  open: boolean;
  onClose: () => void;
  /** The accessible name; shown as the dialog's heading unless `hideTitle`. */
  title: string;
  hideTitle?: boolean;
  /** An optional description, linked with aria-describedby. */
  description?: ReactNode;
  /** 'full' covers the whole viewport (the picture lightbox). */
  size?: 'md' | 'lg' | 'full';
  /** The element to focus on opening; the first focusable element otherwise. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  children: ReactNode;
}

const PANEL_CLASSES: Record<NonNullable<DialogProps['size']>, string> = {
  md: 'relative w-full max-w-lg max-h-[calc(100vh-2rem)] overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl',
  lg: 'relative w-full max-w-2xl max-h-[calc(100vh-2rem)] overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl',
  full: 'relative flex h-full w-full flex-col items-center justify-center p-4 sm:p-10',
};

export function Dialog({
  open,
  onClose,
  title,
  hideTitle = false,
  description,
  size = 'md',
  initialFocusRef,
  children,
}: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    if (!panel) return;

    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const appRoot = document.getElementById('root');
    const rootWasInert = appRoot?.inert ?? false;
    if (appRoot && !panel.contains(appRoot)) appRoot.inert = true;
    document.body.classList.add('overflow-hidden');

    (initialFocusRef?.current ?? focusableIn(panel)[0] ?? panel).focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = focusableIn(panel);
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) {
        event.preventDefault();
        panel.focus();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !panel.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    // Focus that escapes (a click on the page behind, a script) is pulled back inside.
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !panel.contains(event.target)) {
        (focusableIn(panel)[0] ?? panel).focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);

    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
      document.body.classList.remove('overflow-hidden');
      if (appRoot) appRoot.inert = rootWasInert;
      if (opener?.isConnected) opener.focus();
    };
  }, [open, initialFocusRef]);

  if (!open) return null;

  const dark = size === 'full';
  return createPortal(
    <div className={`fixed inset-0 z-50 flex items-center justify-center ${dark ? '' : 'p-4'}`}>
      <div
        className={`fixed inset-0 ${dark ? 'bg-slate-950/90' : 'bg-slate-900/60'}`}
        aria-hidden="true"
        onClick={onClose}
        data-testid="dialog-backdrop"
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={PANEL_CLASSES[size]}
      >
        <h2 id={titleId} className={hideTitle ? 'sr-only' : 'pr-10 text-xl font-semibold text-slate-900'}>
          {title}
        </h2>
        {description ? (
          <p id={descriptionId} className="mt-1 text-sm text-slate-600">
            {description}
          </p>
        ) : null}
        {children}
      </div>
    </div>,
    document.body,
  );
}

interface CloseButtonProps {
  onClick: () => void;
  tone?: 'light' | 'dark';
  className?: string;
}

/** The × icon button in a dialog's corner; its accessible name is "Close". */
export function DialogCloseButton({ onClick, tone = 'light', className = '' }: CloseButtonProps) {
  const colours =
    tone === 'dark'
      ? 'bg-white/10 text-white hover:bg-white/20'
      : 'text-slate-500 hover:bg-slate-100 hover:text-slate-800';
  return (
    <button
      type="button"
      aria-label="Close"
      onClick={onClick}
      className={`absolute right-4 top-4 inline-flex h-9 w-9 items-center justify-center rounded-full ${colours} ${className}`}
    >
      <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
      </svg>
    </button>
  );
}
