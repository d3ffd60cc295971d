// The frame of every staff screen (back office, WireWrite admin, enterprise accounts): its title
// (heading and document title, never indexed), a way back up when there is one, actions beside the heading, and the
// spec's refusal text when the server turns the staff API down.
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { INSUFFICIENT_AAL, isApiError, MFA_ENROLLMENT_REQUIRED } from '@/lib/api';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { isSessionEndedAnswer } from '@/lib/sessionCodes';

export const ACCESS_DENIED = 'Access denied. Admin privileges required.';

/**
 * A 403 that is not a two-factor step (those are handled by the app: code step or set-up) nor an
 * ended session (the app signs the browser out: lib/sessionEnded.ts).
 */
export function isAccessDenied(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 403 &&
    error.code !== INSUFFICIENT_AAL &&
    error.code !== MFA_ENROLLMENT_REQUIRED &&
    !isSessionEndedAnswer(error.status, error.code, true)
  );
}

/** Spec section 8: staff load failures are logged only (a refusal is shown by StaffPage). */
export function useLogLoadFailure(what: string, error: unknown): void {
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}`, error);
  }, [what, error]);
}

interface StaffPageProps {
  title: string;
  /** Buttons beside the heading (Add Product). */
  actions?: ReactNode;
  /** The error of the screen's main query: a refusal replaces the screen with the spec's text. */
  error?: unknown;
  /** A way back up (a detail page to its list); the staff navigation beside every page does the rest. */
  back?: { to: string; label: string } | null;
  /** A line under the heading (counts). */
  subtitle?: ReactNode;
  children: ReactNode;
}

export function StaffPage({ title, actions, error, back = null, subtitle, children }: StaffPageProps) {
  useDocumentHead({ title: `${title} | ${SITE_NAME}`, robots: 'noindex' });
  return (
    <div className="py-6 lg:py-10">
      {back ? (
        <Link to={back.to} className="text-sm font-medium text-brand-700 hover:underline">
          ← {back.label}
        </Link>
      ) : null}
      <div className="mt-2 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
        {actions && !isAccessDenied(error) ? <div className="flex gap-2">{actions}</div> : null}
      </div>
      {subtitle && !isAccessDenied(error) ? <p className="mt-1 text-slate-600">{subtitle}</p> : null}
      <div className="mt-6 space-y-4">
        {isAccessDenied(error) ? (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
            {ACCESS_DENIED}
          </p>
        ) : (
          children
        )}
      </div>
    </div>
  );
}
