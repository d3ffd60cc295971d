// One card of a staff detail page: a region named by its heading (aria-labelledby).
import { useId, type ReactNode } from 'react';

interface PanelProps {
  title: string;
  /** The heading's id, when a test or a link needs it; made up otherwise. */
  id?: string;
  /** 'alert' draws the card in red (a payment that needs a look). */
  tone?: 'alert';
  /** Buttons beside the heading. */
  actions?: ReactNode;
  children: ReactNode;
}

export function Panel({ title, id, tone, actions, children }: PanelProps) {
  const made = useId();
  const headingId = id ?? made;
  const heading = (
    <h2 id={headingId} className="text-lg font-semibold text-slate-900">
      {title}
    </h2>
  );
  return (
    <section aria-labelledby={headingId} className={`rounded-xl border ${tone === 'alert' ? 'border-red-200' : 'border-slate-200'} bg-white p-5 shadow-sm`}>
      {actions ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {heading}
          {actions}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

/** The line a panel shows when it has nothing ('No orders.'). */
export function PanelEmpty({ children }: { children: ReactNode }) {
  return <p className="mt-2 text-sm text-slate-500">{children}</p>;
}
