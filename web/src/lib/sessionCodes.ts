// Which answers say the session has ended (lib/sessionEnded.ts acts on them). Apart from it so
// that the error state of the first chunk's pages (components/list/LoadError) can tell such an
// answer without carrying the report's machinery (docs/performance.md).

/**
 * The server's codes for a bearer token whose session is gone (server/src/auth/sessions.cpp:
 * authenticate): 403 `session_not_found`, 403 `bad_jwt` (expired or unverifiable token).
 * Not `insufficient_aal` / `mfa_enrollment_required` (the two-factor step, lib/mfaHandlers.ts).
 */
const SESSION_GONE_CODES = new Set(['session_not_found', 'bad_jwt']);

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
