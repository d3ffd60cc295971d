// LoadError for the pages of the first chunk (the landing and product pages), loaded when a load
// has failed: their first chunk stays within its budget (docs/performance.md). The server answered
// (a 5xx): its code arrives at once and shows the request id and Retry. No answer at all (the
// network is down): until the code arrives the box says what failed; if it cannot arrive, the
// page's error boundary offers Reload.
import { lazy, Suspense } from 'react';
import type { LoadErrorProps } from './LoadError';
import { LOAD_ERROR_CLASS, LOAD_ERROR_TEXT } from './loadErrorLook';

const LoadError = lazy(() => import('./LoadError').then((m) => ({ default: m.LoadError })));

export function LazyLoadError(props: LoadErrorProps) {
  const { title = LOAD_ERROR_TEXT, className = LOAD_ERROR_CLASS } = props;
  return (
    <Suspense
      fallback={
        <div role="alert" className={className}>
          <p className="font-medium">{title}</p>
        </div>
      }
    >
      <LoadError {...props} />
    </Suspense>
  );
}
