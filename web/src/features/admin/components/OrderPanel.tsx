// One card of the order page: a region named by its heading.
import type { ReactNode } from 'react';

export function OrderPanel({ id, title, tone, children }: { id: string; title: string; tone?: 'alert'; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={`rounded-xl border ${tone === 'alert' ? 'border-red-200' : 'border-slate-200'} bg-white p-5 shadow-sm`}>
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
