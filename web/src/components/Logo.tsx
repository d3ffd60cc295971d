/** The Signalcraft mark: a serial square wave on a dark tile (same drawing as public/favicon.svg). */
export function LogoMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0f172a" />
      <path d="M10 40h8V24h9v16h9V24h9v16h9" fill="none" stroke="#38bdf8" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="54" cy="24" r="4" fill="#facc15" />
    </svg>
  );
}
