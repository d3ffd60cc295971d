import { Link } from 'react-router';
import { SITE_NAME, useDocumentHead } from '@/lib/head';

const HEAD = { title: `Page Not Found | ${SITE_NAME}`, robots: 'noindex' };

export function NotFoundPage() {
  useDocumentHead(HEAD);
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <p className="text-sm font-semibold uppercase tracking-widest text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-bold text-slate-900">Page Not Found</h1>
      <p className="mt-3 text-slate-600">The page you&apos;re looking for doesn&apos;t exist or has moved.</p>
      <Link to="/" className="btn-primary mt-8">
        Back to Home
      </Link>
    </div>
  );
}
