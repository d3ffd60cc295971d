import { QueryClient } from '@tanstack/react-query';

/** The HTTP status of an ApiError (read by shape: the fetch wrapper loads with the first fetch). */
function httpStatus(error: unknown): number | null {
  if (!(error instanceof Error) || error.name !== 'ApiError' || !('status' in error)) return null;
  return typeof error.status === 'number' ? error.status : null;
}

/** A 4xx answer will not change by asking again; network failures and 5xx get one more try. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = httpStatus(error);
  if (status !== null && status >= 400 && status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
