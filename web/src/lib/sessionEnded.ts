// A session that ended elsewhere ("Sign out of other devices", a password change, an admin's
// sign-out, the session's time box): the stored tokens still look fine to this browser, but the
// server refuses them. The one place that recognises those answers; features/auth's AuthSession
// installs the handler (sign out here, say so, open the sign-in dialog), lib/api.ts and the auth
// client's fetch (lib/authClient.ts) report to it. Apart from api.ts so that the shell can install
// it without loading the fetch wrapper (as mfaHandlers.ts).

/** What the page says when it finds the session gone. */
export const SESSION_ENDED_TEXT = 'You were signed out. Sign in again.';

/**
 * The server's codes for a bearer token whose session is gone (server/src/auth/sessions.cpp:
 * authenticate): 403 `session_not_found`, 403 `bad_jwt` (expired or unverifiable token).
 * Not `insufficient_aal` / `mfa_enrollment_required` (the two-factor step, lib/mfaHandlers.ts).
 */
const SESSION_GONE_CODES = new Set(['session_not_found', 'bad_jwt']);

/**
 * The auth API's refusals of a refresh token whose session has ended
 * (POST /auth/v1/token?grant_type=refresh_token, 400).
 */
const REFRESH_REFUSED_CODES = new Set(['refresh_token_not_found', 'session_expired', 'refresh_token_already_used']);

/**
 * True when an answer to a call that carried the session's token says the session is gone: any
 * 401, or a 403 with a session code. A call sent without a token (a visitor's, or the sign-in call
 * itself: a wrong password is a 400 `invalid_credentials` from /auth/v1/token) never counts.
 */
export function isSessionEndedAnswer(status: number, code: string, sentToken: boolean): boolean {
  if (!sentToken) return false;
  if (status === 401) return true;
  return status === 403 && SESSION_GONE_CODES.has(code);
}

/** True when the auth API refused to refresh the session because it has ended. */
export function isRefreshRefused(status: number, code: string): boolean {
  return status === 400 && REFRESH_REFUSED_CODES.has(code);
}

type Handler = () => void;

let handler: Handler | null = null;
/** Reported before a handler was installed (the session code was still loading): run on install. */
let pending = false;

/** Installs (or, with null, removes) the app's reaction to an ended session. */
export function setSessionEndedHandler(next: Handler | null): void {
  handler = next;
  if (next && pending) {
    pending = false;
    next();
  }
}

/** Forgets a report no handler heard (between tests). */
export function clearSessionEndedReport(): void {
  pending = false;
}

/** Tells the app that the server no longer knows this browser's session. */
export function reportSessionEnded(): void {
  if (handler) handler();
  else pending = true;
}
