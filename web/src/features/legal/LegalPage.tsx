import { useId, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { SITE_NAME, useDocumentHead } from '@/lib/head';

export const LEGAL_LAST_UPDATED = 'October 2025';

interface LegalPageProps {
  title: string;
  description: string;
  path: string;
  children: ReactNode;
}

/** The frame of the legal pages: title, last-updated line and a Close button back to /. */
export function LegalPage({ title, description, path, children }: LegalPageProps) {
  const navigate = useNavigate();
  const headingId = useId();
  useDocumentHead({ title: `${title} | ${SITE_NAME}`, description, canonical: path, robots: 'index, follow' });
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 lg:py-14">
      <article aria-labelledby={headingId} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 pb-6">
          <div>
            <h1 id={headingId} className="text-3xl font-bold tracking-tight text-slate-900">
              {title}
            </h1>
            <p className="mt-2 text-sm text-slate-500">Last updated: {LEGAL_LAST_UPDATED}</p>
          </div>
          {/* data-to: the same move from the build's HTML of the page (lib/staticPage.tsx). */}
          <button type="button" className="btn-secondary shrink-0" data-to="/" onClick={() => void navigate('/')}>
            Close
          </button>
        </div>
        <div className="mt-8 space-y-8 leading-relaxed text-slate-700">{children}</div>
      </article>
    </div>
  );
}

/** One numbered section: "3. Prices and payment". */
export function LegalSection({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {number}. {title}
      </h2>
      {children}
    </section>
  );
}

export function Mail({ address }: { address: string }) {
  return (
    <a href={`mailto:${address}`} className="font-medium text-brand-700 underline hover:text-brand-800">
      {address}
    </a>
  );
}

export function List({ items }: { items: ReactNode[] }) {
  return (
    <ul className="list-disc space-y-2 pl-6">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}
