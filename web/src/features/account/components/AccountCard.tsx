// The Account page's pieces (routes/AccountPage.tsx): a titled card, and a form's outcome line.
import type { ReactNode } from 'react';

/** One outcome line of a form: a status for success, an alert for a failure. */
export function Outcome({ ok, failed }: { ok: string | null; failed: string | null }) {
  return (
    <>
      <p role="status" className={ok ? 'rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-800' : 'sr-only'}>
        {ok ?? ''}
      </p>
      {failed ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {failed}
        </p>
      ) : null}
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
