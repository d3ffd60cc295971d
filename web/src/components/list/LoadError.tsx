// The one error state of a failed load (a list, a page, a panel): what could not be loaded, the
// request id to quote (the answer's X-Request-Id, when there was an answer) and Retry, never an
// empty list in its place. The server's own words stay out of it: they go to the console, where
// the page's "logged only" line (spec section 8) already puts them. A refusal because the session
// has ended shows nothing: the app signs out and asks to sign in (lib/sessionEnded.ts).
import { isSessionEndedAnswer } from '@/lib/sessionCodes';
import { LOAD_ERROR_CLASS, LOAD_ERROR_TEXT } from './loadErrorLook';

// Read by shape, not with lib/api's isApiError: the landing page shows this, and its first chunk
// does not carry the fetch wrapper (docs/performance.md; app/queryClient.ts does the same).
interface ApiErrorFacts {
  status: number;
  code: string;
  requestId: string | null;
}

function factsOf(error: unknown): ApiErrorFacts | null {
  if (!(error instanceof Error) || error.name !== 'ApiError') return null;
  const { status, code, requestId } = error as Error & Partial<Record<keyof ApiErrorFacts, unknown>>;
  if (typeof status !== 'number' || typeof code !== 'string') return null;
  return { status, code, requestId: typeof requestId === 'string' ? requestId : null };
}

/** lib/api's NETWORK_ERROR_STATUS and INVALID_RESPONSE. */
const NO_ANSWER = 0;
const UNREADABLE_ANSWER = 'invalid_response';

export { LOAD_ERROR_CLASS, LOAD_ERROR_TEXT } from './loadErrorLook';
export const RETRY_TEXT = 'Retry';

export interface LoadErrorProps {
  /** The failed query's error. */
  error: unknown;
  /** Asks again (the query's refetch). */
  onRetry: () => void;
  /** The retry is under way. */
  retrying?: boolean;
  /** What failed, as a sentence ("Your orders could not be loaded."). */
  title?: string;
  className?: string;
}

/** The refusal of a session that has ended (the app signs out and asks to sign in). */
export function isEndedSessionError(error: unknown): boolean {
  const facts = factsOf(error);
  return facts !== null && isSessionEndedAnswer(facts.status, facts.code, true);
}

/**
 * A failure that asking again may mend: no answer, a 5xx, an answer the page could not read, or a
 * 408 / 429. A 4xx refusal of what was asked (a 422 for a bad filter) is the page's to explain.
 */
export function isRetryableFailure(error: unknown): boolean {
  if (!error) return false;
  const facts = factsOf(error);
  if (!facts) return true;
  return facts.status === NO_ANSWER || facts.status >= 500 || facts.status === 408 || facts.status === 429 || facts.code === UNREADABLE_ANSWER;
}

/** The request id of a failed call, when the server answered. */
export function requestIdOf(error: unknown): string | null {
  return factsOf(error)?.requestId ?? null;
}

export function LoadError({ error, onRetry, retrying = false, title = LOAD_ERROR_TEXT, className = LOAD_ERROR_CLASS }: LoadErrorProps) {
  const facts = factsOf(error);
  if (facts && isSessionEndedAnswer(facts.status, facts.code, true)) return null;
  const requestId = facts?.requestId;
  return (
    <div role="alert" className={className}>
      <p className="font-medium">{title}</p>
      <p className="mt-1">
        {facts?.status === NO_ANSWER ? 'The server could not be reached. Check your connection and try again.' : 'Please try again in a moment.'}
      </p>
      {requestId ? (
        <p className="mt-1 text-red-700">
          Request id: <code className="select-all font-mono">{requestId}</code>
        </p>
      ) : null}
      <button type="button" className="btn-secondary mt-3" disabled={retrying} aria-busy={retrying} onClick={onRetry}>
        {retrying ? 'Retrying...' : RETRY_TEXT}
      </button>
    </div>
  );
}
