// The auth client's fetch (lib/authClient.ts): the browser's, plus one look at each refusal so that
// a session ended elsewhere is noticed on the auth API too (GET /auth/v1/user, the code step's
// verify, a refused refresh), through the same report as the JSON API's (lib/sessionEnded.ts).
import { isRefreshRefused, isSessionEndedAnswer, reportSessionEnded } from './sessionEnded';

function sentBearer(init: RequestInit | undefined): boolean {
  const headers = new Headers(init?.headers);
  return /^bearer\s+\S/i.test(headers.get('Authorization') ?? '');
}

function urlOf(input: RequestInfo | URL): URL {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return new URL(href, window.location.origin);
}

async function errorCode(response: Response): Promise<string> {
  try {
    const body: unknown = await response.clone().json();
    if (typeof body === 'object' && body !== null) {
      const record = body as Record<string, unknown>;
      if (typeof record.error_code === 'string') return record.error_code;
      if (typeof record.code === 'string') return record.code;
    }
  } catch {
    // Not JSON: no code.
  }
  return '';
}

/** True when this refusal of the auth API says the session is gone. The sign-out call never counts. */
export async function authAnswerEndsSession(input: RequestInfo | URL, init: RequestInit | undefined, response: Response): Promise<boolean> {
  if (response.ok) return false;
  const url = urlOf(input);
  if (url.pathname.endsWith('/logout')) return false;
  const code = await errorCode(response);
  if (url.pathname.endsWith('/token') && url.searchParams.get('grant_type') === 'refresh_token') return isRefreshRefused(response.status, code);
  return isSessionEndedAnswer(response.status, code, sentBearer(init));
}

export const authFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (await authAnswerEndsSession(input, init, response)) reportSessionEnded();
  return response;
};
