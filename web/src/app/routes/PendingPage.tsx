import { SITE_NAME, useDocumentHead } from '@/lib/head';

/**
 * The frame of a signed-in screen whose feature has not been built yet. Reachable only with a
 * session, so it stays out of visitors' way; each feature replaces its route's element.
 */
export function PendingPage({ title }: { title: string }) {
  useDocumentHead({ title: `${title} | ${SITE_NAME}`, robots: 'noindex' });
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      <p className="mt-3 text-slate-600">This page is not available yet.</p>
    </div>
  );
}
