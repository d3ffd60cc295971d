// The Account page's pieces (routes/AccountPage.tsx): a titled card, and a form's outcome line.
import type { ReactNode } from 'react';
import { FormAlert } from '@/components/detail/FormAlert';

/** One outcome line of a form: a status for success, an alert for a failure. */
export function Outcome({ ok, failed }: { ok: string | null; failed: string | null }) {
  return (
    <>
      <FormAlert tone="success">{ok}</FormAlert>
      <FormAlert tone="error">{failed}</FormAlert>
    </>
  );
}

export function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
